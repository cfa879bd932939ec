package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCountOfAKindByName: "how many sailboats", Sailboat the name of a
// row of boat_types, a table of kinds only boats refer to, counts the
// boats of that type (found from outside: refused, with a hint to count
// the one Sailboat type); "how many trucks", Truck a type_name of
// vehicle_types, the same. A name of a table no table refers to, or two
// do, is not read so.
func TestCountOfAKindByName(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "boat_types", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Catamaran", "Motorboat", "Sailboat"}}}},
			{Name: "boats", PrimaryKey: "id", Label: "boat_name", Columns: []semantic.Column{id("id"), id("boat_type_id"), {Name: "boat_name", Type: quarry.TypeText}}},
			{Name: "vehicle_types", PrimaryKey: "id", Label: "type_name", Columns: []semantic.Column{id("id"), {Name: "type_name", Type: quarry.TypeText, Values: []string{"Truck", "Van"}}}},
			{Name: "vehicles", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("vehicle_type_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "boats", FromColumn: "boat_type_id", To: "boat_types", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "vehicles", FromColumn: "vehicle_type_id", To: "vehicle_types", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sqlHolds(t, p, m, "how many sailboats", "COUNT(boats.id)", "boat_types.name = 'Sailboat'")
	sqlHolds(t, p, m, "how many sailboats do we have", "COUNT(boats.id)", "boat_types.name = 'Sailboat'")
	sqlHolds(t, p, m, "how many trucks", "COUNT(vehicles.id)", "vehicle_types.type_name = 'Truck'")
	pl := p.Plan("how many sailboats", asOf)
	if !strings.Contains(strings.Join(pl.Understood, "; "), "boats whose boat type is Sailboat") {
		t.Errorf("reading %q; want it to say the boat type", pl.Understood)
	}
}

// TestCountOfAKindInTheRowsNoun: "how many private lessons", Private
// lesson a name of lesson_types that ends in the lessons' own noun,
// counts the lessons of that type (found from outside: refused as a
// value, "Private lesson lessons" read as two things).
func TestCountOfAKindInTheRowsNoun(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "lesson_types", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Private lesson", "Group lesson", "Kids club"}}}},
			{Name: "lessons", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("lesson_type_id")}},
		},
		Relationships: []semantic.Relationship{{From: "lessons", FromColumn: "lesson_type_id", To: "lesson_types", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	sqlHolds(t, New(m, nil), m, "how many private lessons", "COUNT(lessons.id)", "lesson_types.name = 'Private lesson'")
}
