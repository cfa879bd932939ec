package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRankings: a ranking of groups cut by a limit leaves out the group
// of no value ("which discount code has the most orders" was the orders
// with no code). Each line also tries to make the rule wrong: a breakdown
// with no limit keeps its NULL group, a ranking by a period or a grouping
// by a table's key and name filters only what can be missing, a value
// filter already picks the group; a list sorted and cut leaves out the
// rows with no value of its sort column.
func TestRankings(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, tt := range []struct {
		q       string
		notNull []string // the groupings filtered is_not_null, in order
	}{
		{"which discount code has the most orders", []string{"discount_code"}},
		{"which discount code has the fewest orders", []string{"discount_code"}},
		{"which discount code had the highest revenue in 2025", []string{"discount_code"}},
		{"top 3 discount codes by revenue", []string{"discount_code"}},
		{"which department has the most employees", []string{"department"}},
		{"which customer has the most orders", []string{"customers.id"}},
		// Adversarial: no ranking, no filter; a period is never NULL; a
		// value filter already picks the group; a list's sort column.
		{"orders by discount code", nil},
		{"best month for revenue this year", nil},
		{"revenue by channel for orders with the WELCOME10 code", nil},
		{"most expensive product", []string{"products.unit_price"}},
		{"the 3 cheapest products", []string{"products.unit_price"}},
		{"top 5 products by revenue", []string{"products.id"}},
	} {
		pl := p.Plan(tt.q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %s %v", tt.q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		var got []string
		for _, fl := range pl.Query.Filters {
			if fl.Op == semantic.OpNotNull {
				got = append(got, fl.Field)
			}
		}
		if len(got) != len(tt.notNull) || len(got) > 0 && got[0] != tt.notNull[0] {
			t.Errorf("%q: is_not_null on %v, want %v (%+v)", tt.q, got, tt.notNull, pl.Query)
		}
		if pl.Query.Ties {
			// The answer keeps the rows asked for; the ties check names
			// the tied ones (Spider's one-row answers stay one row).
			t.Errorf("%q: ties set", tt.q)
		}
	}
}

// TestWithAColumnThenValue: "with a <column>" says the rows have some
// value of it, not which, so a value right after it is read where it is
// known ("orders with a discount code web": web is the channel). Without
// "a", or with a value of the column itself, the value is the column's
// ("orders with discount code web", no code the knowledge lists, is
// refused: TestHeldValueOfAnotherColumnDemo).
func TestWithAColumnThenValue(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, tt := range []struct {
		q    string
		want string // the filters, as field op values
	}{
		{"revenue from orders with a discount code web", "discount_code is_not_null [] channel = [web]"},
		{"how many orders with a discount code from the store channel", "discount_code is_not_null [] channel = [store]"},
		{"orders with a discount code WELCOME10", "discount_code = [WELCOME10]"},
		{"how many orders with a discount code were refunded", "discount_code is_not_null [] order_status = [refunded]"},
	} {
		pl := p.Plan(tt.q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %s %v", tt.q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		var got []string
		for _, fl := range pl.Query.Filters {
			got = append(got, fmt.Sprintf("%s %s %v", fl.Field, fl.Op, fl.Values))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: filters %q, want %q", tt.q, strings.Join(got, " "), tt.want)
		}
	}
}

// TestHeldTitle: a known value keeps its short title. (A value held to a
// column that lists its values without it, "orders with discount code
// web", is now refused before it is titled: TestHeldValueOfAnotherColumnDemo.)
func TestHeldTitle(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]string{
		"orders with the WELCOME10 code": "(WELCOME10)",
		"orders from the web channel":    "(web)",
	} {
		if pl := p.Plan(q, asOf); !strings.Contains(pl.Title, want) {
			t.Errorf("%q: title %q, want it to say %q", q, pl.Title, want)
		}
	}
}

// TestSortColumnListed: a column listed and then ranked by ("the names
// and unit prices of products with the top 3 highest unit price") is
// listed, not only sorted by (found on Spider: "the names and areas of
// countries with the top 5 largest area" showed the names alone).
func TestSortColumnListed(t *testing.T) {
	p := demoPlanner(t)
	for _, q := range []string{"names and unit prices of products with the top 3 highest unit price", "names and unit prices of the 3 products with the highest unit price"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindRows || !slices.Contains(pl.Query.Rows.Columns, "unit_price") || pl.Query.Limit != 3 {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}
