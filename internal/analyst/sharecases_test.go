package analyst

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestShareOfAnEventInAPeriod: "what share of subscriptions churned in
// Q1" put the period on the start date, 16.7% at full confidence where
// 7.1% of the live subscriptions churned then (found from outside), while
// "how many subscriptions churned in Q1" was refused for that reason. The
// share's condition is read as the query's filter by the same check.
func TestShareOfAnEventInAPeriod(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "subscriptions", Table: "subscriptions", PrimaryKey: "subscription_id", TimeColumn: "started_on", Columns: []semantic.Column{
		{Name: "subscription_id", Type: quarry.TypeInt},
		{Name: "started_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
		{Name: "ended_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
		{Name: "status", Type: quarry.TypeText, Values: []string{"active", "churned", "trialing"}},
	}}}}
	p := planner.New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, refused := range map[string]bool{
		"what share of subscriptions churned in Q1":          true,
		"what percentage of subscriptions churned last year": true,
		"how many subscriptions churned in Q1":               true,
		"what share of subscriptions churned":                false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %s", q, pl.Kind, pl.Reason)
			continue
		}
		if got := verify.PeriodDate(pl.Model(m), withShareCases(pl)) != ""; got != refused {
			t.Errorf("%q: refused %v, want %v (share cases %v)", q, got, refused, pl.ShareCases)
		}
	}
}
