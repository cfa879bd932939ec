package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestKeyOfAnotherTable: a group is shown by its name unless the question
// names its own key. "lessons with no instructor by base" is read again
// as "… no instructor id …", and that id is the staff's, not the bases'
// (found from outside: the bases shown by their ids, their names
// hidden). "by base id" and "the base ids" name the bases' own.
func TestKeyOfAnotherTable(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "bases", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "lessons", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("instructor_id"), id("base_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "lessons", FromColumn: "instructor_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "lessons", FromColumn: "base_id", To: "bases", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, hidden := range map[string]string{
		"lessons with no instructor by base":    "bases.id",
		"lessons with no instructor id by base": "bases.id",
		"lessons by base":                       "bases.id",
		"lessons by base id":                    "",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		if hidden == "" && len(pl.Query.Hidden) > 0 || hidden != "" && !slices.Equal(pl.Query.Hidden, []string{hidden}) {
			t.Errorf("%q: hidden %v, want %q", q, pl.Query.Hidden, hidden)
		}
	}
}
