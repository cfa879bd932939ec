package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestSignedUp: the period right after "signed up" is the signup's, where
// the question dates something else too. An outside tester found "how
// many customers signed up in 2025 and ordered in 2026" answered with
// both periods on the orders (924 where 298 did both), at 1.00, and three
// more like it. Alone, the period stays the question's own.
func TestSignedUp(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		want   []string // fragments of the plan's filters and range
		absent string
	}{
		{q: "how many customers signed up in 2025 and ordered in 2026", want: []string{"customers.signup_date >= 2025-01-01", "customers.signup_date < 2026-01-01", "orders.ordered_at >= 2026-01-01"}, absent: "orders.ordered_at >= 2025-01-01"},
		{q: "how many customers who signed up in 2024 ordered last month", want: []string{"customers.signup_date >= 2024-01-01", "orders.ordered_at >= 2026-05-01"}, absent: "orders.ordered_at >= 2024-01-01"},
		{q: "customers who signed up in 2025 with more than 5 orders", want: []string{"customers.signup_date >= 2025-01-01", "orders > 5"}, absent: "orders.ordered_at"},
		// Alone: the customers' own period, as before.
		{q: "how many customers signed up in 2025", want: []string{"2025-01-01 2026-01-01"}, absent: "customers.signup_date >="},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Query == nil {
				t.Fatalf("%s: %s", pl.Kind, pl.Reason)
			}
			var got []string
			for _, f := range pl.Query.Filters {
				got = append(got, fmt.Sprintf("%s %s %v", f.Field, f.Op, fmt.Sprint(f.Values...)))
				for _, w := range f.Where {
					got = append(got, fmt.Sprintf("%s %s %v", w.Field, w.Op, fmt.Sprint(w.Values...)))
				}
			}
			if tr := pl.Query.TimeRange; tr != nil {
				got = append(got, "range "+tr.From+" "+tr.To)
			}
			all := strings.Join(got, "; ")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no %q in %s", w, all)
				}
			}
			if strings.Contains(all, tc.absent) {
				t.Errorf("%q in %s", tc.absent, all)
			}
		})
	}
}

// TestPeriodAfterRows: "events in 2025 with more than 30 ticket orders"
// are the events held in 2025, each with more than 30 orders of any date
// (found from outside: the period went on the orders, 18 for 24). A
// period right after the rows counted stays theirs.
func TestPeriodAfterRows(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("customers in 2025 with more than 5 orders", asOf)
	if pl.Query == nil {
		t.Fatalf("%s %q", pl.Kind, pl.Reason)
	}
	var got []string
	for _, f := range pl.Query.Filters {
		got = append(got, fmt.Sprintf("%s %s %v", f.Field, f.Op, fmt.Sprint(f.Values...)))
		for _, w := range f.Where {
			got = append(got, "where "+w.Field)
		}
	}
	all := strings.Join(got, "; ")
	if !strings.Contains(all, "customers.signup_date >= 2025-01-01") || strings.Contains(all, "where orders.ordered_at") {
		t.Errorf("customers in 2025: %s", all)
	}
	pl = p.Plan("customers with more than 5 orders in 2025", asOf)
	if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return len(f.Where) > 0 && f.Where[0].Field == "orders.ordered_at" }) {
		t.Errorf("orders in 2025: %+v", pl.Query)
	}
}
