package planner

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// petsModel is what learn builds for a small database whose columns are
// named after their tables (Spider's pets_1, dog_kennels and flight_2).
func petsModel() *semantic.Model {
	c := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	const (
		i = quarry.TypeInt
		f = quarry.TypeFloat
		s = quarry.TypeText
		d = quarry.TypeDate
	)
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Student", PrimaryKey: "StuID", Columns: []semantic.Column{
				c("StuID", i), c("LName", s), c("Fname", s), c("Age", i), c("Major", i), c("city_code", s, "BAL", "HKG")}},
			{Name: "Has_Pet", Columns: []semantic.Column{c("StuID", i), c("PetID", i)}},
			{Name: "Pets", PrimaryKey: "PetID", Columns: []semantic.Column{
				c("PetID", i), c("PetType", s, "cat", "dog"), c("pet_age", i), c("weight", f)}},
			{Name: "Charges", PrimaryKey: "charge_id", Columns: []semantic.Column{
				c("charge_id", i), c("charge_type", s, "Daily Accommodation", "Drugs"), c("charge_amount", f)}},
			{Name: "Treatments", PrimaryKey: "treatment_id", Columns: []semantic.Column{
				c("treatment_id", i), c("vet_id", i), c("date_of_treatment", d), c("cost_of_treatment", f), c("treatment_type", s, "checkup", "surgery")}},
			{Name: "Vets", PrimaryKey: "vet_id", Label: "vet_name", Columns: []semantic.Column{
				c("vet_id", i), c("vet_name", s), c("vet_type", s, "surgeon", "nurse")}},
			{Name: "airports", PrimaryKey: "AirportCode", Columns: []semantic.Column{
				c("AirportCode", s), c("AirportName", s), c("City", s, "Aberdeen", "Abilene")}},
			{Name: "runways", PrimaryKey: "RunwayID", Columns: []semantic.Column{
				c("RunwayID", i), c("Airport", s), c("Length", i)}},
			// "part" is a word of its own and the start of "partner".
			{Name: "Parts", PrimaryKey: "part_id", Label: "part_name", Columns: []semantic.Column{
				c("part_id", i), c("part_name", s)}},
			{Name: "Partners", PrimaryKey: "partner_id", Label: "partner_name", Columns: []semantic.Column{
				c("partner_id", i), c("partner_name", s), c("Part_ID", i), c("partner_since", d)}},
		},
		Relationships: []semantic.Relationship{
			{From: "Has_Pet", FromColumn: "StuID", To: "Student", ToColumn: "StuID", Cardinality: semantic.ManyToOne},
			{From: "Has_Pet", FromColumn: "PetID", To: "Pets", ToColumn: "PetID", Cardinality: semantic.ManyToOne},
			{From: "Treatments", FromColumn: "vet_id", To: "Vets", ToColumn: "vet_id", Cardinality: semantic.ManyToOne},
			{From: "runways", FromColumn: "Airport", To: "airports", ToColumn: "AirportCode", Cardinality: semantic.ManyToOne},
			{From: "Partners", FromColumn: "Part_ID", To: "Parts", ToColumn: "part_id", Cardinality: semantic.ManyToOne},
		},
	}
}

var ownQuestions = []struct {
	q    string
	kind Kind
}{
	// The rest of a column's name after its table's, where the question
	// names the table.
	{"What is the average weight for each type of pet?", KindMetric},
	{"Find the type and weight of the youngest pet.", KindRows},
	{"How many different types of pet are there?", KindMetric},
	{"List each charge type and its amount.", KindRows},
	{"List the date of each treatment.", KindRows},
	{"What is the average age for each type of pet?", KindMetric}, // pet_age, not the students' Age
	{"Find the maximum weight for each type of pet.", KindMetric},
	// The same measure twice is not read; it was a list of the heaviest
	// pet grouped by type, a query that cannot be built.
	{"Find the maximum weight for each type of pet. List the maximum weight and pet type.", KindUnanswered},
	{"What is the code of the airport with the most runways?", KindMetric},
	{"Find the id of students older than 20.", KindRows},
	{"What are the ids and weights of the pets?", KindRows},
	{"Find the id and weight of all pets whose age is older than 1.", KindRows}, // the age compared, not listed
	// Nothing names the table: the word stays unknown.
	{"What is the type?", KindUnanswered},
	{"List the amount of the most expensive treatment.", KindUnanswered},
	{"Show the date of each vet.", KindUnanswered},
	// Two tables named, each with a type of its own: quarry asks or
	// refuses, never picks one; where the question is about one of them,
	// that one's.
	{"Show the type of vets and pets.", KindUnanswered},
	{"What are the type of the vet and the type of the treatment?", KindUnanswered},
	{"How many treatments are there for each type?", KindMetric},
	{"How many treatments are there for each vet type?", KindMetric},
	// "part" is also the start of "partner": the id of a partner is its
	// own key, and the name of a partner its own name.
	{"What is the id of each partner?", KindRows},
	{"List the names of partners.", KindRows},
}

// TestOwnColumnsGolden: a column named after its own table (PetType in
// Pets, charge_amount in Charges, date_of_treatment in Treatments,
// AirportCode in airports) answers to the rest of its name where the
// question names that table, and only there.
func TestOwnColumnsGolden(t *testing.T) {
	m := petsModel()
	p := New(m, nil)
	var b strings.Builder
	for _, tt := range ownQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s %v)", tt.q, pl.Kind, tt.kind, pl.Reason, pl.Unknown)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "own-plans.golden"), b.String())
}

func TestOwnRest(t *testing.T) {
	for _, tc := range []struct {
		table, column string
		want          []string
	}{
		{"Pets", "PetType", []string{"type"}},
		{"Pets", "pet_age", []string{"age"}},
		{"airports", "AirportCode", []string{"code"}},
		{"Charges", "charge_amount", []string{"amount"}},
		{"Treatments", "date_of_treatment", []string{"date"}},
		{"Treatment_Types", "treatment_type_description", []string{"description"}},
		{"Ref_Template_Types", "Template_Type_Code", []string{"code"}},
		{"people", "Person_ID", []string{"id"}},
		{"Student", "StuID", nil}, // "stu" is not "student"
		{"Pets", "weight", nil},
		{"Pets", "Pet", nil},
		{"Partners", "Part_ID", nil},
		{"cars_data", "car_year", []string{"year"}},
	} {
		if got := ownRest(tc.table, tc.column); !slices.Equal(got, tc.want) {
			t.Errorf("ownRest(%q, %q) = %q, want %q", tc.table, tc.column, got, tc.want)
		}
	}
}

func TestNameWords(t *testing.T) {
	for in, want := range map[string]string{
		"PetType": "pet type", "StuID": "stu id", "AirportCode": "airport code", "GNPOld": "gnp old",
		"date_of_treatment": "date of treatment", "LName": "l name", "Fname": "fname", "IsOfficial": "is official", "Code2": "code2",
	} {
		if got := strings.Join(nameWords(in), " "); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOwnWordAfterColumn: a column's own word right after another column
// whose name holds it is a word of that column's name: "the arriving
// date" is date_arrived, not date_of_treatment.
func TestOwnWordAfterColumn(t *testing.T) {
	c := func(name string, t quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: t} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Dogs", PrimaryKey: "dog_id", Label: "name", Columns: []semantic.Column{c("dog_id", quarry.TypeInt), c("name", quarry.TypeText), c("date_arrived", quarry.TypeDate), c("date_departed", quarry.TypeDate)}},
			{Name: "Treatments", PrimaryKey: "treatment_id", Columns: []semantic.Column{c("treatment_id", quarry.TypeInt), c("dog_id", quarry.TypeInt), c("date_of_treatment", quarry.TypeDate), c("cost_of_treatment", quarry.TypeFloat)}},
		},
		Relationships: []semantic.Relationship{{From: "Treatments", FromColumn: "dog_id", To: "Dogs", ToColumn: "dog_id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q       string
		entity  string
		columns []string // nil: not answered
	}{
		{"What are the arriving date and the departing date of all the dogs?", "Dogs", []string{"date_arrived", "date_departed"}},
		{"List the date and cost of each treatment.", "Treatments", []string{"date_of_treatment", "cost_of_treatment"}},
		{"List the arriving date of the dog of each treatment.", "", nil},
	} {
		pl := p.Plan(tc.q, asOf)
		if tc.columns == nil {
			if pl.Kind == KindRows || pl.Kind == KindMetric {
				t.Errorf("%q answered: %+v", tc.q, pl.Query)
			}
			continue
		}
		if pl.Kind != KindRows || pl.Query.Rows.Entity != tc.entity || !slices.Equal(pl.Query.Rows.Columns, tc.columns) {
			t.Errorf("%q: %s %s %+v, want rows of %s %v", tc.q, pl.Kind, pl.Reason, pl.Query, tc.entity, tc.columns)
		}
	}
}
