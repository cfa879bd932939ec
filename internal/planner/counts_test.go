package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPerRowCounts: a condition on how many rows of a table each row of
// another has is a count filter that keeps the rows with none — listed or
// counted — and stays a grouped condition where the count must be
// limited (a period) or said (a measure asked for), or where the two
// tables are not joined one way.
func TestPerRowCounts(t *testing.T) {
	p := New(testModel(), nil)
	count := func(op semantic.Op, n float64) semantic.Filter {
		return semantic.Filter{Field: "orders", Op: op, Values: []any{fmtNum(n)}, Count: true}
	}
	for _, tc := range []struct {
		q       string
		kind    Kind
		filters []semantic.Filter // nil: the count stays a grouped condition
	}{
		{"customers with fewer than 2 orders", KindRows, []semantic.Filter{count(semantic.OpLt, 2)}},
		{"which customers have at most 1 order", KindRows, []semantic.Filter{count(semantic.OpLe, 1)}},
		{"how many customers have more than 5 orders", KindMetric, []semantic.Filter{count(semantic.OpGt, 5)}},
		{"customers in Germany with fewer than 2 orders", KindRows, []semantic.Filter{count(semantic.OpLt, 2), {Field: "country", Op: semantic.OpEq, Values: []any{"Germany"}}}},
		// The period is the orders': on their own date, in the count
		// filter, so that customers with none in 2025 count as 0.
		{"customers with more than 5 orders in 2025", KindRows, []semantic.Filter{inPeriod(count(semantic.OpGt, 5), "2025-01-01", "2026-01-01")}},
		{"customers with fewer than 2 orders last month", KindRows, []semantic.Filter{inPeriod(count(semantic.OpLt, 2), "2026-05-01", "2026-06-01")}},
		// Adversarial: two periods, or a period on a date the question
		// names (the customers' signup), are no period of the orders:
		// the signup's is a condition on the customers (signedUp).
		{"customers with fewer than 2 orders in 2025 vs 2024", KindMetric, nil},
		{"customers who signed up in 2025 with fewer than 2 orders", KindRows, []semantic.Filter{
			{Field: "customers.signup_date", Op: semantic.OpGe, Values: []any{"2025-01-01"}},
			{Field: "customers.signup_date", Op: semantic.OpLt, Values: []any{"2026-01-01"}},
			count(semantic.OpLt, 2)}},
		// The count is asked for, and named twice: not rewritten.
		{"number of orders by customer for customers with more than 5 orders", KindUnanswered, nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Fatalf("%s (%s), want %s", pl.Kind, pl.Reason, tc.kind)
			}
			if tc.filters == nil {
				if pl.Query == nil {
					return
				}
				for _, f := range pl.Query.Filters {
					if f.Count {
						t.Errorf("a count filter %+v; want the grouped condition", f)
					}
				}
				return
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}

// inPeriod puts a period on a count filter's rows, by the orders' date.
func inPeriod(f semantic.Filter, from, to string) semantic.Filter {
	f.Where = []semantic.Filter{
		{Field: "orders.ordered_at", Op: semantic.OpGe, Values: []any{from}},
		{Field: "orders.ordered_at", Op: semantic.OpLt, Values: []any{to}},
	}
	return f
}

// TestPerRowCountsStart: a count filter that admits zero and is kept to a
// period counts only the rows of the subject that existed before the
// period's end — by the subject's start date (time role "start") — so
// that customers who signed up after 2025 are not counted as customers
// with fewer than 2 orders in 2025. A condition that 0 does not meet
// needs no such filter, and a period without an end none either.
func TestPerRowCountsStart(t *testing.T) {
	m := testModel()
	m.Entity("customers").Column("signup_date").TimeRole = semantic.TimeRoleStart
	p := New(m, nil)
	started := func(before string) semantic.Filter {
		return semantic.Filter{Field: "customers.signup_date", Op: semantic.OpLt, Values: []any{before}}
	}
	count := func(op semantic.Op, n float64) semantic.Filter {
		return semantic.Filter{Field: "orders", Op: op, Values: []any{fmtNum(n)}, Count: true}
	}
	for _, tc := range []struct {
		q       string
		kind    Kind
		filters []semantic.Filter
	}{
		{"How many customers have fewer than 2 orders in 2025", KindMetric, []semantic.Filter{inPeriod(count(semantic.OpLt, 2), "2025-01-01", "2026-01-01"), started("2026-01-01")}},
		{"customers with fewer than 2 orders last month", KindRows, []semantic.Filter{inPeriod(count(semantic.OpLt, 2), "2026-05-01", "2026-06-01"), started("2026-06-01")}},
		// Paraphrases: a synonym of the subject, "at most", "no more than".
		{"how many clients have at most 1 order in 2025", KindMetric, []semantic.Filter{inPeriod(count(semantic.OpLe, 1), "2025-01-01", "2026-01-01"), started("2026-01-01")}},
		{"which buyers have fewer than 3 orders in March 2026", KindRows, []semantic.Filter{inPeriod(count(semantic.OpLt, 3), "2026-03-01", "2026-04-01"), started("2026-04-01")}},
		// 0 does not meet the condition: a customer who did not exist has
		// none and is not counted anyway.
		{"customers with more than 5 orders in 2025", KindRows, []semantic.Filter{inPeriod(count(semantic.OpGt, 5), "2025-01-01", "2026-01-01")}},
		// No period: every customer there is.
		{"customers with fewer than 2 orders", KindRows, []semantic.Filter{count(semantic.OpLt, 2)}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Fatalf("%s (%s), want %s", pl.Kind, pl.Reason, tc.kind)
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if want := len(tc.filters) == 2 && !tc.filters[1].Count; want != strings.Contains(c.SQL, "signup_date <") {
				t.Errorf("SQL %s: want a signup filter %v", c.SQL, want)
			}
		})
	}
}

// TestColumnSaidOfTheRowsCounted: "how many gift aid donations", where
// gift_aid is a number of donations with no values known, counts
// donations, which gift aid picks out; the number of its different values
// is no answer (found from outside: 2 for 321, at 1.00). It is refused,
// and the value said plainly answers.
func TestColumnSaidOfTheRowsCounted(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "donations", PrimaryKey: "id", TimeColumn: "received_at", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "received_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
		{Name: "gift_aid", Type: quarry.TypeInt}, {Name: "channel", Type: quarry.TypeText}}}}}
	p := New(m, nil)
	for _, q := range []string{"how many gift aid donations this year", "how many channel donations"} {
		if pl := p.Plan(q, asOf); pl.Kind == KindMetric {
			t.Errorf("%q: answered %q; want it refused", q, pl.Understood)
		}
	}
	for q, want := range map[string]string{
		"how many donations with gift aid of 1 this year": "donations.gift_aid",
		"how many distinct channels of donations":         "COUNT(DISTINCT donations.channel)",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || !strings.Contains(strings.Join(pl.Understood, "; "), want) {
			t.Errorf("%q: %s %q %q; want %s", q, pl.Kind, pl.Reason, pl.Understood, want)
		}
	}
}
