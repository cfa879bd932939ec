package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

func TestNameVerb(t *testing.T) {
	for name, want := range map[string]string{
		"car_makers": "make", "Maker": "make", "teacher": "teach", "Teacher_ID": "", "director": "direct",
		"owners": "own", "Writer": "write", "written_by": "write", "Producer": "produce", "players": "play",
		"directed_by": "direct", "conductor": "conduct", "visitor": "visit", "creator": "create", "operators": "operate",
		"runner": "run", "supplier": "supply", "manufacturer": "manufacture", "users": "use", "manager": "manage",
		"sellers": "sell", "winner": "win", "drivers": "drive", "voter": "vote", "editor": "edit", "supervisor": "supervise",
		"leader": "lead", "singer": "sing", "buyer": "buy", "engineer": "", "customers": "", "orders": "", "number": "",
		"professor": "", "year": "", "owned_by": "own", "supplied_by": "supply", "produced_by": "produce", "created_by": "create",
		"treated_by": "treat", "taught_by": "teach", "ids": "", "er": "",
	} {
		if got := nameVerb(name); got != want {
			t.Errorf("nameVerb(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestProposeVerbs(t *testing.T) {
	rels := []semantic.Relationship{
		{From: "model_list", FromColumn: "Maker", To: "car_makers", ToColumn: "Id"},
		{From: "course_arrange", FromColumn: "Teacher_ID", To: "teacher", ToColumn: "Teacher_ID"},
		{From: "course_arrange", FromColumn: "Course_ID", To: "course", ToColumn: "Course_ID"},
		{From: "Dogs", FromColumn: "owner_id", To: "Owners", ToColumn: "owner_id"},
		{From: "Treatments", FromColumn: "professional_id", To: "Professionals", ToColumn: "professional_id"},
		{From: "Treatments", FromColumn: "dog_id", To: "Dogs", ToColumn: "dog_id"},
		{From: "books", FromColumn: "written_by", To: "people", ToColumn: "id"},
		{From: "payments", FromColumn: "owner_id", To: "Owners", ToColumn: "owner_id", Verbs: []string{"pay"}},
		{From: "employees", FromColumn: "manager_id", To: "employees", ToColumn: "id"},
		{From: "singers", FromColumn: "country_id", To: "countries", ToColumn: "id"},
	}
	proposeVerbs(rels)
	var got [][]string
	for _, r := range rels {
		got = append(got, r.Verbs)
	}
	want := [][]string{{"make"}, {"teach"}, nil, {"own"}, nil, nil, {"write"}, {"pay"}, nil, nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verbs (-want +got):\n%s", diff)
	}
}
