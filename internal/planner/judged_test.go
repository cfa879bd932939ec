package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBestAndWorst: "best" and "worst" rank by which way the metric is
// good (an outside tester got the best refund rate as the highest, at
// confidence 1); where the knowledge does not say, the question is asked.
func TestBestAndWorst(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "channel", Type: quarry.TypeText, Values: []string{"web", "store"}},
			{Name: "amount", Type: quarry.TypeFloat}, {Name: "refunded", Type: quarry.TypeBool}, {Name: "score", Type: quarry.TypeFloat}}}},
		Metrics: []semantic.Metric{
			{Name: "revenue", Entity: "orders", Expr: "SUM(orders.amount)", Better: "higher"},
			{Name: "refunds", Entity: "orders", Expr: "COUNT(orders.id)", Filters: []string{"orders.refunded"}, Better: "lower"},
			{Name: "score", Entity: "orders", Expr: "AVG(orders.score)"},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q     string
		kind  Kind
		desc  bool
		title string
	}{
		{q: "which channel has the best revenue", kind: KindMetric, desc: true, title: "best 1"},
		{q: "which channel has the worst revenue", kind: KindMetric, desc: false, title: "worst 1"},
		{q: "which channel has the best refunds", kind: KindMetric, desc: false, title: "best 1"},
		{q: "worst channel for refunds", kind: KindMetric, desc: true, title: "worst 1"},
		{q: "which channel has the most refunds", kind: KindMetric, desc: true},    // said its direction
		{q: "which channel has the fewest refunds", kind: KindMetric, desc: false}, //
		{q: "which channel has the best score", kind: KindClarify},
		{q: "worst channel by score", kind: KindClarify},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Kind != tc.kind {
			t.Errorf("%q: %s %s %v, want %s", tc.q, pl.Kind, pl.Reason, pl.Understood, tc.kind)
			continue
		}
		switch pl.Kind {
		case KindMetric:
			if len(pl.Query.Order) != 1 || pl.Query.Order[0].Desc != tc.desc {
				t.Errorf("%q: order %+v, want desc %v", tc.q, pl.Query.Order, tc.desc)
			}
			if !strings.Contains(pl.Title, tc.title) {
				t.Errorf("%q: title %q, want %q in it", tc.q, pl.Title, tc.title)
			}
			// The reading says the order the query has (an outside
			// tester read "order by refunded_orders asc" beside
			// "worst read as the highest").
			dir := map[bool]string{true: "desc", false: "asc"}[tc.desc]
			for _, u := range pl.Understood {
				if strings.HasPrefix(u, "order by ") && !strings.HasSuffix(u, " "+dir) {
					t.Errorf("%q: the reading says %q, the query orders %s", tc.q, u, dir)
				}
			}
		case KindClarify:
			if len(pl.Options) != 2 || !strings.Contains(pl.Options[0], "highest") || !strings.Contains(pl.Options[1], "lowest") {
				t.Errorf("%q: options %q", tc.q, pl.Options)
			}
			for _, o := range pl.Options {
				if k := p.Plan(o, asOf).Kind; k != KindMetric {
					t.Errorf("%q: the option %q plans as %s", tc.q, o, k)
				}
			}
		}
	}
}

// TestFirstByTheNamedDate: "which subscription ended first" ranks by the
// end date the question names, not the table's own start date (an outside
// tester got the end of the first subscription to start, at confidence 1).
func TestFirstByTheNamedDate(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]string{
		"which subscription ended first":   "subscriptions.ended_on",
		"which subscription ended last":    "subscriptions.ended_on",
		"which subscription started first": "subscriptions.started_on",
		"which subscription came first":    "subscriptions.started_on",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Order) != 1 || pl.Query.Order[0].Field != want {
			t.Errorf("%q: %s %v, want ordered by %s", q, pl.Kind, pl.Understood, want)
		}
	}
}

// TestRankingLeavesOutEmptyMeasures: a group whose average has no value
// is at no end of a ranking (an outside tester got "high | NULL" as the
// lowest average satisfaction, the group with no scored ticket).
func TestRankingLeavesOutEmptyMeasures(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]bool{
		"which priority has the lowest average satisfaction": true,
		"top 3 channels by refund rate":                      true,
		"which channel has the most orders":                  false, // a count has a value in every group
		"average satisfaction by priority":                   false, // a breakdown keeps every group
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %s", q, pl.Kind, pl.Reason)
			continue
		}
		got := false
		for _, fl := range pl.Query.Filters {
			if fl.Op == semantic.OpNotNull && len(pl.Query.Order) > 0 && fl.Field == pl.Query.Order[0].Field {
				got = true
			}
		}
		if got != want {
			t.Errorf("%q: the ranked measure filtered to values %v, want %v (%v)", q, got, want, pl.Understood)
		}
	}
}

// TestValueOfAnotherColumn: "employees with the title Sales" was read as
// the Sales department at confidence 1 (an outside tester's case): a
// value left to another column than the one named right before it is
// refused, with what it is; so is a value held to the named column where
// that column lists its values without it ("whose title is Sales":
// TestHeldValueOfAnotherColumn), and a value after a grouping is a filter
// of its own.
func TestValueOfAnotherColumn(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]Kind{
		"employees with the title Sales":               KindUnanswered,
		"employees with the title Data Analyst":        KindMetric,
		"employees whose title is Sales":               KindUnanswered,
		"revenue by channel, business customers only":  KindMetric,
		"revenue from orders with a discount code web": KindMetric,
		"employees in Sales":                           KindMetric,
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != want {
			t.Errorf("%q: %s %s, want %s", q, pl.Kind, pl.Reason, want)
		}
		if want == KindUnanswered && strings.Contains(q, "title") && !strings.Contains(pl.Reason, "department") {
			t.Errorf("%q: %q does not say whose value it is", q, pl.Reason)
		}
	}
}
