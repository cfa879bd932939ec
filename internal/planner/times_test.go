package planner

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestHowOften: "ordered more than once", "at least twice", "3 times":
// a verb of one table's date and a number of times is a count of that
// table's rows, as "placed more than 1 order" is; with no comparison,
// exactly that many. Elsewhere the words stay unknown and the question
// is refused, as before.
func TestHowOften(t *testing.T) {
	p := New(testModel(), nil)
	count := func(op semantic.Op, n float64) semantic.Filter {
		return semantic.Filter{Field: "orders", Op: op, Values: []any{fmtNum(n)}, Count: true}
	}
	for _, tc := range []struct {
		q       string
		kind    Kind
		filters []semantic.Filter // nil: not checked
	}{
		{"how many customers ordered more than once", KindMetric, []semantic.Filter{count(semantic.OpGt, 1)}},
		{"customers who ordered more than 3 times", KindRows, []semantic.Filter{count(semantic.OpGt, 3)}},
		{"how many customers ordered at least twice", KindMetric, []semantic.Filter{count(semantic.OpGe, 2)}},
		{"how many customers ordered at least 2 times", KindMetric, []semantic.Filter{count(semantic.OpGe, 2)}},
		{"how many customers ordered at most once in 2025", KindMetric, nil},
		{"how many customers ordered twice", KindMetric, []semantic.Filter{count(semantic.OpEq, 2)}},
		{"how many customers ordered only once", KindMetric, []semantic.Filter{count(semantic.OpEq, 1)}},
		{"customers who ordered exactly 3 times in 2025", KindRows, []semantic.Filter{inPeriod(count(semantic.OpEq, 3), "2025-01-01", "2026-01-01")}},
		{"how many customers have exactly one order", KindMetric, []semantic.Filter{count(semantic.OpEq, 1)}},
		{"how many customers ordered 2 or more times", KindMetric, []semantic.Filter{count(semantic.OpGe, 2)}},
		{"how many customers ordered twice or more", KindMetric, []semantic.Filter{count(semantic.OpGe, 2)}},
		{"how many customers ordered once or less", KindMetric, []semantic.Filter{count(semantic.OpLe, 1)}},
		// Adversarial: times of a measure, or "once" with no verb of a
		// date before it, are not counts of rows.
		{"three times the revenue of 2024", KindUnanswered, nil},
		{"revenue once a month", KindUnanswered, nil},
		{"how many customers once ordered", KindUnanswered, nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Fatalf("%s (%s), want %s", pl.Kind, pl.Reason, tc.kind)
			}
			if tc.filters == nil {
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

// TestHowOftenVerbAlsoAValue: "applied" is the applications' date
// (applied_date) and a stage value 'applied'; before "more than once" it
// is the verb of the count, never the stage (found from outside: the
// stage became a condition, 630 for 1,253).
func TestHowOftenVerbAlsoAValue(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "candidates", PrimaryKey: "candidate_id", Columns: []semantic.Column{{Name: "candidate_id", Type: quarry.TypeInt}, {Name: "city", Type: quarry.TypeText}}},
			{Name: "applications", PrimaryKey: "application_id", TimeColumn: "applied_date", Columns: []semantic.Column{
				{Name: "application_id", Type: quarry.TypeInt}, {Name: "candidate_id", Type: quarry.TypeInt},
				{Name: "applied_date", Type: quarry.TypeDate}, {Name: "stage", Type: quarry.TypeText, Values: []string{"applied", "interview", "offer"}}}},
		},
		Relationships: []semantic.Relationship{{From: "applications", FromColumn: "candidate_id", To: "candidates", ToColumn: "candidate_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	pl := p.Plan("how many candidates applied more than once", asOf)
	if pl.Kind != KindMetric {
		t.Fatalf("%s (%s), want metric", pl.Kind, pl.Reason)
	}
	want := []semantic.Filter{{Field: "applications", Op: semantic.OpGt, Values: []any{fmtNum(1)}, Count: true}}
	if diff := cmp.Diff(want, pl.Query.Filters); diff != "" {
		t.Errorf("filters (-want +got):\n%s", diff)
	}
}

// TestBoughtTimes: bought or purchased N times counts the purchases
// completed, as "customers who bought something" reads them; ordered N
// times counts every order (found from outside on the demo: cancelled
// and pending orders counted as bought, 3,076 for 2,979).
func TestBoughtTimes(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	completed := func(pl *Plan) bool {
		for _, fl := range pl.Query.Filters {
			if fl.Count && slices.ContainsFunc(fl.Where, func(w semantic.Filter) bool {
				return w.Field == "orders.status" && fmt.Sprint(w.Values...) == "completed"
			}) {
				return true
			}
		}
		return false
	}
	for q, want := range map[string]bool{
		"how many customers bought at least 3 times in 2025":    true,
		"how many customers purchased at least twice this year": true,
		"customers who bought more than 5 times":                true,
		"how many customers ordered at least 3 times":           false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		if got := completed(pl); got != want {
			t.Errorf("%q: completed orders only = %v, want %v (%+v)", q, got, want, pl.Query.Filters)
		}
	}
}
