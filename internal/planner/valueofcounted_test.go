package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestValueOfTheCountedRows: a value said of the rows a count condition
// counts ("plans with more than 10 subscriptions that are active", where
// plans have the status active too) is not put on the other rows (found
// from outside: plans.status = active, at 1.00); quarry cannot yet keep
// the count to those rows, so it refuses. Said before the rows kept
// ("active plans with …"), it is theirs, as before.
func TestValueOfTheCountedRows(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "plans", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "retired"}}}},
			{Name: "subscriptions", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "plan_id", Type: quarry.TypeInt},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled"}}}},
		},
		Relationships: []semantic.Relationship{{From: "subscriptions", FromColumn: "plan_id", To: "plans", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	onPlans := func(f semantic.Filter) bool { return f.Field == "plans.status" }
	for _, q := range []string{"plans with more than 10 subscriptions that are active", "plans with more than 10 active subscriptions"} {
		if pl := p.Plan(q, asOf); pl.Query != nil && (pl.Kind == KindRows || pl.Kind == KindMetric) {
			t.Errorf("%q: %s %+v; want a refusal", q, pl.Kind, pl.Query)
		}
	}
	pl := p.Plan("active plans with more than 10 subscriptions", asOf)
	if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, onPlans) {
		t.Errorf("active plans with more than 10 subscriptions: %s %q %+v; want plans.status = active", pl.Kind, pl.Reason, pl.Query)
	}
}
