package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestShareOfQualifiedRows: "what percentage of web orders were refunded"
// is refunded orders among web orders — the qualifier before the verb is
// the rows the share is of (a filter on both sides), the condition after
// it the numerator (found from outside: the qualifier went into the
// numerator and the share was of all orders).
func TestShareOfQualifiedRows(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		filter []semantic.Filter
		cond   string // in the ratio's numerator
		refuse bool
	}{
		{q: "what percentage of web orders were refunded", filter: []semantic.Filter{{Field: "channel", Op: semantic.OpEq, Values: []any{"web"}}}, cond: "'refunded'"},
		{q: "what percentage of orders were refunded", cond: "'refunded'"},
		{q: "what percentage of refunded orders were web", filter: []semantic.Filter{{Field: "orders.status", Op: semantic.OpEq, Values: []any{"refunded"}}}, cond: "'web'"},
		// A condition after the verb, then the rows behind a
		// preposition (found from outside: both in the numerator).
		{q: "what percentage of orders were refunded on web", filter: []semantic.Filter{{Field: "channel", Op: semantic.OpEq, Values: []any{"web"}}}, cond: "'refunded'"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric || len(pl.AdHoc) != 1 {
				t.Fatalf("%s %s %+v", pl.Kind, pl.Reason, pl.AdHoc)
			}
			if diff := cmp.Diff(tc.filter, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if expr := pl.AdHoc[0].Expr; !strings.Contains(expr, "CASE WHEN") || !strings.Contains(strings.SplitN(expr, "NULLIF", 2)[0], tc.cond) {
				t.Errorf("numerator %s, want the condition %s", expr, tc.cond)
			}
		})
	}
}

// TestShareRateByGroup: "what percentage of orders were refunded by
// channel" is the refund rate in each channel (found from outside: it was
// each channel's part of all refunds); "share of orders by channel" is
// each channel's part of the total.
func TestShareRateByGroup(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("what percentage of orders were refunded by channel", asOf)
	if pl.Kind != KindMetric || pl.Query.Share || len(pl.AdHoc) != 1 || !strings.Contains(pl.AdHoc[0].Expr, "'refunded'") || len(pl.Query.Dimensions) != 1 {
		t.Errorf("refund rate by channel: %s %q %+v %+v", pl.Kind, pl.Reason, pl.Query, pl.AdHoc)
	}
	pl = p.Plan("share of orders by channel", asOf)
	if pl.Kind != KindMetric || !pl.Query.Share {
		t.Errorf("share of orders by channel: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestGroupedShareReadings: a value before the share word, after a verb or
// after "from"/"that" is the condition whose share is taken in each group;
// after "for" it is the rows the share is of; where quarry cannot tell, it
// says so (found from outside: "mobile share of orders by year" was how
// mobile orders spread over the years).
func TestGroupedShareReadings(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		within bool // the condition's share in each group (a ratio)
		total  bool // each group's part of the total (Query.Share)
	}{
		{q: "web share of orders by country", within: true},
		{q: "share of orders from web by country", within: true},
		{q: "refunded share of orders by channel", within: true},
		{q: "share of orders by channel", total: true},
		{q: "share of orders by country for web", total: true},
		{q: "refunded orders as a share of orders by channel", within: true},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			switch {
			case tc.within:
				if pl.Kind != KindMetric || pl.Query.Share || len(pl.AdHoc) != 1 || !strings.Contains(pl.AdHoc[0].Expr, "CASE WHEN") {
					t.Errorf("want the share within each group: %s %q %+v %+v", pl.Kind, pl.Reason, pl.Query, pl.AdHoc)
				}
			case tc.total:
				if pl.Kind != KindMetric || !pl.Query.Share {
					t.Errorf("want each group's part of the total: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
				}
			default:
				if pl.Kind == KindMetric {
					t.Errorf("answered %+v %+v; want a refusal", pl.Query, pl.AdHoc)
				}
			}
		})
	}
}

// TestVerbAfterDid: a state word at the end of a question with "did" is
// the verb ("how many tickets did German customers open": opened, not open
// now); found from outside, where it counted the open tickets. It is read
// in the past form when that reading is answered, and refused otherwise.
func TestVerbAfterDid(t *testing.T) {
	m := testModel()
	p := New(m, nil)
	for _, q := range []string{"how many orders did web customers refund", "how many orders did customers refund last month"} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindMetric {
			for _, f := range pl.Query.Filters {
				if fmt.Sprint(f.Values) == "[refunded]" {
					t.Errorf("%s: read the verb as the state: %+v", q, pl.Query)
				}
			}
		}
	}
	if pl := p.Plan("how many refunded orders did we have", asOf); pl.Kind != KindMetric {
		t.Errorf("a state before its rows is the state: %s %q", pl.Kind, pl.Reason)
	}
}

func TestPastOf(t *testing.T) {
	for base, want := range map[string]string{"open": "opened", "place": "placed", "close": "closed", "ship": "shipped",
		"cancel": "cancelled", "pay": "paid", "sell": "sold", "buy": "bought", "carry": "carried", "order": "ordered", "join": "joined"} {
		if got := pastOf(base); got != want {
			t.Errorf("pastOf(%q) = %q, want %q", base, got, want)
		}
	}
}

// TestShareOfAFlag: the share of rows whose yes/no column is true
// compares it with TRUE, not the text 'true' that no 1 or 0 equals
// (found from outside: "what share of menu items are discontinued" was
// 0.0%).
func TestShareOfAFlag(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "menu_items", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
			{Name: "discontinued", Type: quarry.TypeBool, Values: []string{"false", "true"}}}},
	}}
	pl := New(m, nil).Plan("what share of menu items are discontinued", asOf)
	if pl.Query == nil {
		t.Fatalf("%s %q", pl.Kind, pl.Reason)
	}
	c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
	if err != nil || !strings.Contains(c.SQL, "menu_items.discontinued = TRUE") {
		t.Errorf("%v\n%v", err, c.SQL)
	}
}

// TestShareOfRealRows: a share of a table's rows is of its real ones,
// void left out of both sides, as a count of them is; not where the
// share's condition is the void state itself (found from outside:
// "what share of 2025 bills were paid" divided by the voided too).
func TestShareOfRealRows(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "bills", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "issued_on", Type: quarry.TypeDate}, {Name: "amount", Type: quarry.TypeFloat},
			{Name: "status", Type: quarry.TypeText, Values: []string{"issued", "paid", "void"}}}},
	}}
	p := New(m, nil)
	for q, want := range map[string]bool{
		"what share of 2025 bills were paid":    true,
		"what percentage of bills are not paid": true,
		"what share of bills were void":         false,
		"what percentage of bills are not void": false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		got := slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool {
			return f.Field == "bills.status" && f.Op == semantic.OpNotIn && fmt.Sprint(f.Values...) == "void"
		})
		if got != want {
			t.Errorf("%q: void left out of both sides = %v, want %v (%+v)", q, got, want, pl.Query.Filters)
		}
	}
}

// TestShareByATable: a table grouped by its key and its name is one
// grouping, whose share of the total is asked (found from outside:
// "share of rentals by vehicle class" refused as a share within a larger
// group); two groupings still are.
func TestShareByATable(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("share of orders by customer", asOf)
	if pl.Kind != KindMetric || pl.Query == nil || !pl.Query.Share || len(pl.Query.Dimensions) < 2 {
		t.Fatalf("share of orders by customer: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("share of orders by customer and channel", asOf); pl.Kind == KindMetric {
		t.Errorf("share by two groupings: %+v", pl.Query)
	}
}

// TestShareVerbQualified: a value behind a preposition after a share's
// verb whose column is named for the verb says how the verb was done
// ("paid in cash": orders.payment_method), part of the condition; one of
// another column is still the rows the share is of ("paid on web"). Found
// from outside: "what percentage of orders were paid in cash" was the
// share of cash orders that were paid, 100%, at 1.00.
func TestShareVerbQualified(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt},
		{Name: "status", Type: quarry.TypeText, Values: []string{"paid", "comped"}},
		{Name: "payment_method", Type: quarry.TypeText, Values: []string{"cash", "card"}},
		{Name: "channel", Type: quarry.TypeText, Values: []string{"web", "phone"}},
	}}}}
	p := New(m, nil)
	for _, tc := range []struct {
		q      string
		filter string // the rows the share is of
		cond   []string
	}{
		{"what percentage of orders were paid in cash", "", []string{"'paid'", "'cash'"}},
		{"what percentage of orders were paid on web", "orders.channel", []string{"'paid'"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric || len(pl.AdHoc) != 1 {
				t.Fatalf("%s %s %+v", pl.Kind, pl.Reason, pl.AdHoc)
			}
			var fs []string
			for _, f := range pl.Query.Filters {
				fs = append(fs, f.Field)
			}
			if strings.Join(fs, ",") != tc.filter {
				t.Errorf("the share is of rows where %v, want %q", fs, tc.filter)
			}
			num := strings.SplitN(pl.AdHoc[0].Expr, "NULLIF", 2)[0]
			for _, c := range tc.cond {
				if !strings.Contains(num, c) {
					t.Errorf("numerator %s lacks %s", num, c)
				}
			}
		})
	}
}

// TestRankedByRate: "which restaurant has the highest no-show rate" ranks
// by the rate, not by the count the rate was made of (found from outside:
// "cannot sort by count_reservations: it is not in the result").
func TestRankedByRate(t *testing.T) {
	p := New(testModel(), nil)
	for _, q := range []string{"which channel has the highest refunded rate", "which channel had the lowest refunded rate last year"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Metrics) != 1 || len(pl.Query.Order) == 0 {
			t.Fatalf("%q: %s %s %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
		if o := pl.Query.Order[0].Field; o != pl.Query.Metrics[0] || !strings.HasPrefix(o, "share_of_") {
			t.Errorf("%q: ranked by %s, measures %v", q, o, pl.Query.Metrics)
		}
	}
}
