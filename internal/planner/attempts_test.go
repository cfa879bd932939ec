package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAttemptsAsDone: the rows of a table of attempts are not the things
// attempted: "deliveries" are refused where only delivery_attempts hold
// them, failed ones too (found from outside: the failed attempts counted
// as deliveries, the wrong driver named at 1.00); the attempts asked for
// as such, or by an outcome of theirs, are counted.
func TestAttemptsAsDone(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "drivers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "delivery_attempts", PrimaryKey: "id", TimeColumn: "attempted_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "driver_id", Type: quarry.TypeInt}, {Name: "attempted_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "outcome", Type: quarry.TypeText, Values: []string{"failed", "success"}}}},
		},
		Relationships: []semantic.Relationship{{From: "delivery_attempts", FromColumn: "driver_id", To: "drivers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q    string
		kind Kind
	}{
		{"which driver made the most deliveries in 2025", KindUnanswered},
		{"number of deliveries by driver last month", KindUnanswered},
		{"how many delivery attempts last month", KindMetric},
		{"which driver had the most failed delivery attempts", KindMetric},
		{"how many failed deliveries this year", KindMetric},
	} {
		if pl := p.Plan(tc.q, asOf); pl.Kind != tc.kind {
			t.Errorf("%q: %s (%s), want %s", tc.q, pl.Kind, pl.Reason, tc.kind)
		}
	}
}

// TestPerMeasure: "per" before a column of quantities is a rate, refused,
// not a grouping by each quantity (found from outside: "average fuel
// cost per litre" gave 834 rows, one per litres value, at 1.00); "per"
// before a column of a few known values groups.
func TestPerMeasure(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "fuel_logs", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "cost", Type: quarry.TypeFloat}, {Name: "litres", Type: quarry.TypeFloat},
				{Name: "pump", Type: quarry.TypeInt, Values: []string{"1", "2", "3"}}}},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q    string
		kind Kind
	}{
		{"average fuel cost per litre", KindUnanswered},
		{"average fuel cost per litres", KindUnanswered},
		{"average fuel cost per pump", KindMetric},
	} {
		if pl := p.Plan(tc.q, asOf); pl.Kind != tc.kind {
			t.Errorf("%q: %s (%s), want %s", tc.q, pl.Kind, pl.Reason, tc.kind)
		}
	}
}
