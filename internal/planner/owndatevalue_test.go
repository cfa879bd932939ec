package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestOwnDateOverValue: "completed", a status of rentals and the word of
// maintenance_jobs.completed_at, is the jobs' date where the question
// names the jobs and not the rentals (found from outside: "how many
// maintenance jobs were completed last year" refused as the rentals'
// status), and the rentals' status where it names the rentals.
func TestOwnDateOverValue(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "vehicles", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "plate", Type: quarry.TypeText}}},
			{Name: "rentals", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("vehicle_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"completed", "cancelled"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "maintenance_jobs", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("vehicle_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"done", "scheduled"}},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "completed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{
			{From: "rentals", FromColumn: "vehicle_id", To: "vehicles", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "maintenance_jobs", FromColumn: "vehicle_id", To: "vehicles", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	pl := p.Plan("how many maintenance jobs were completed last year", asOf)
	if pl.Kind != KindMetric || pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "maintenance_jobs.completed_at" {
		t.Errorf("jobs completed last year: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("how many completed rentals last month", asOf)
	if pl.Query == nil || len(pl.Query.Filters) == 0 || pl.Query.Filters[0].Field != "rentals.status" {
		t.Errorf("completed rentals: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
