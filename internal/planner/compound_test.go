package planner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTableThenItsColumn: "which bike model has the most tickets" ranks
// the models, not the bikes with the model shown beside each (found from
// outside: one bike's 18 tickets answered for its model's 2,115, at
// 1.00). A column named apart from its table ("which bike has the most
// tickets, and its model") is still shown beside each bike.
func TestTableThenItsColumn(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "bikes", Table: "bikes", PrimaryKey: "bike_id", Columns: []semantic.Column{col("bike_id", quarry.TypeInt), col("model", quarry.TypeText), col("bike_type", quarry.TypeText)}},
			{Name: "maint_tickets", Table: "maint_tickets", PrimaryKey: "ticket_id", Columns: []semantic.Column{col("ticket_id", quarry.TypeInt), col("bike_id", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "maint_tickets", FromColumn: "bike_id", To: "bikes", ToColumn: "bike_id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string][]string{
		"which bike model has the most tickets":          {"bikes.model"},
		"which bike has the most tickets, and its model": {"bikes.bike_id", "bikes.model"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: kind %s (%s)", q, pl.Kind, pl.Reason)
			continue
		}
		var got []string
		for _, d := range pl.Query.Dimensions {
			got = append(got, d.Name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: groups (-want +got):\n%s", q, diff)
		}
	}
}
