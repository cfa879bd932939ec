package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestEverydayPhrasing: the ways a manager words a question around its
// measure ("how are we doing on revenue", "break down orders by channel",
// "the best month for revenue", "average satisfaction score") are read as
// the measure asked, and each stays refused where the words leave out what
// to measure or group by.
func TestEverydayPhrasing(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, tc := range []struct {
		q      string
		want   []string // fragments of the plan (query and SQL)
		refuse string   // a fragment of the refusal, when refused
	}{
		// "How … doing / looking / tracking / performing" with a metric
		// named: that metric, as the rest of the question qualifies it.
		{q: "how are we doing on revenue this quarter", want: []string{`"metrics":["revenue"]`, `"from":"2026-04-01","to":"2026-07-01"`}},
		{q: "how is revenue looking this year", want: []string{`"metrics":["revenue"]`, `"from":"2026-01-01"`}},
		{q: "how is the store channel performing on revenue this year", want: []string{`"metrics":["revenue"]`, `"values":["store"]`}},
		{q: "how are we tracking on new customers this month", want: []string{`"metrics":["customers"]`, `"from":"2026-06-01"`}},
		// Without a metric, how well is no count of rows.
		{q: "how are our products doing", refuse: "without naming a measure"},
		{q: "how are we doing in Germany", refuse: "without naming a measure"},
		{q: "how is the web channel doing", refuse: "without naming a measure"},
		{q: "how are customers doing", refuse: "without naming a measure"},
		{q: "how are tickets looking", refuse: "without naming a measure"},
		// Not after "how": no question of how well.
		{q: "what are we doing about refunds", refuse: "not terms quarry knows"},
		{q: "looking for revenue in 2025", refuse: "not terms quarry knows"},
		// "break down … by": the grouping the "by" names; none named,
		// refused rather than answered as a total.
		{q: "break down orders by channel for last year", want: []string{`"metrics":["orders"]`, `"dimensions":[{"name":"channel"}]`, `"from":"2025-01-01"`}},
		{q: "break out tickets by priority", want: []string{`"dimensions":[{"name":"priority"}]`}},
		{q: "break down orders", refuse: "needs what to break it down by"},
		{q: "break down revenue this year", refuse: "needs what to break it down by"},
		// "gets" as "get": a verb that carries nothing here.
		{q: "which ticket category gets the most complaints", want: []string{`"metrics":["tickets"]`, `"limit":1`, `"desc":true`}},
		// "the best month for revenue": one period, ranked by the measure.
		{q: "best month for revenue this year", want: []string{`"grain":"month"`, `"limit":1`, `"desc":true`, `"metrics":["revenue"]`}},
		{q: "best week for revenue last month", want: []string{`"grain":"week"`, `"limit":1`}},
		{q: "what was our best month this year", refuse: "what to rank by"},
		{q: "best months for revenue", refuse: "not terms quarry knows"},
		// An aggregate word and the longer term after it.
		{q: "average satisfaction score by ticket category", want: []string{"AVG(support_tickets.satisfaction)", `"dimensions":[{"name":"ticket_category"}]`}},
		{q: "average satisfaction score", want: []string{"AVG(support_tickets.satisfaction)"}},
		{q: "number of orders placed last month", want: []string{`"metrics":["orders"]`, `"from":"2026-05-01"`}},
		// A verb of bringing in money after "did", with a measure of money
		// named: read past, as it is after the subject.
		{q: "how much revenue did the web channel bring in last month", want: []string{`"metrics":["revenue"]`, `"values":["web"]`, `"from":"2026-05-01"`}},
		{q: "how much revenue did Germany generate this year", want: []string{`"values":["Germany"]`}},
		// Money made with no measure named: the knowledge's one measure
		// of income (found from outside: "what did we make from
		// Electronics in 2025" listed the products launched in 2025).
		{q: "how much did the web channel bring in last month", want: []string{`"metrics":["revenue"]`, `"values":["web"]`, `"from":"2026-05-01"`}},
		{q: "What did we make from Electronics in 2025?", want: []string{`"metrics":["revenue"]`, `"values":["Electronics"]`, `"from":"2025-01-01"`}},
		{q: "What did we make from Toys last quarter?", want: []string{`"metrics":["revenue"]`, `"values":["Toys"]`, `"from":"2026-01-01"`}},
		{q: "how much money did we make in 2025", want: []string{`"metrics":["revenue"]`, `"from":"2025-01-01"`}},
		// "How much … sell" is the sales (found asking as a manager:
		// "sell" was not understood); "what did we sell" stays the items.
		{q: "how much did we sell last month", want: []string{`"metrics":["revenue"]`, `"from":"2026-05-01"`}},
		{q: "how much Electronics did we sell this year", want: []string{`"metrics":["revenue"]`, `"values":["Electronics"]`}},
		{q: "what did we sell last month", want: []string{`"metrics":["units_sold"]`}},
		// What others spent with us is our revenue from them; what we
		// spent is never read so.
		{q: "top 10 customers by lifetime spend", want: []string{`"metrics":["revenue"]`, `"limit":10`}},
		{q: "how much did German customers spend last year", want: []string{`"metrics":["revenue"]`, `"values":["Germany"]`, `"from":"2025-01-01"`}},
		{q: "how much did we spend on marketing", refuse: "not terms"},
		// An amount asked of a count or a list is refused, not given.
		{q: "what was the order total in 2025", refuse: "total of order"},
		{q: "how many orders did the web channel bring in", refuse: "is a verb"},
		{q: "how much revenue did German customers return", refuse: "is a verb"},
		// "with a", "have a", "used a" before a text column: the rows
		// whose column is set, never the column listed for every row.
		{q: "how many orders used a discount code", want: []string{`{"field":"discount_code","op":"is_not_null"}`}},
		{q: "how many orders had a coupon in 2025", want: []string{`"op":"is_not_null"`, `"from":"2025-01-01"`}},
		// Found from outside: listed every order with its code, at 0.85.
		{q: "orders using a coupon this year", want: []string{`{"field":"discount_code","op":"is_not_null"}`}},
		{q: "revenue from orders with a discount code this year", want: []string{`"metrics":["revenue"]`, `"op":"is_not_null"`}},
		{q: "orders with a discount code by channel", want: []string{`"dimensions":[{"name":"channel"}]`, `"op":"is_not_null"`}},
		{q: "orders with a discount code of WELCOME10", want: []string{`"values":["WELCOME10"]`}},
		{q: "how many customers with a discount code", refuse: "not a single related row"},
		// "with a X were V": V is said of the rows, not read as X's value
		// (it counted orders whose code was "refunded": 0).
		{q: "how many orders with a discount code were refunded", want: []string{`"op":"is_not_null"`, "orders.status = 'refunded'"}},
		{q: "products with a product name of Books", want: []string{`"values":["Books"]`}},
		// The most common (or most used) value is a value: the rows
		// without one are no group of it (most orders have no code, and
		// the answer was NULL).
		{q: "most used promo code", want: []string{`"dimensions":[{"name":"discount_code"}]`, `{"field":"discount_code","op":"is_not_null"}`, `"limit":1`}},
		{q: "what's the most common discount code", want: []string{`"op":"is_not_null"`, `"limit":1`}},
		{q: "most used product", refuse: "which rows make a products common"},
		// "best selling": the measure the verb names (units sold, as
		// "products selling the most" reads it); the ranking for a plural,
		// the one first for a singular.
		{q: "best selling products this year", want: []string{`"metrics":["units_sold"]`, `"desc":true`, `"from":"2026-01-01"`}},
		{q: "what are our top selling categories", want: []string{`"metrics":["units_sold"]`, `"dimensions":[{"name":"category"}]`, `"desc":true`}},
		{q: "best selling category last month", want: []string{`"metrics":["units_sold"]`, `"limit":1`}},
		{q: "top 3 best selling categories in 2025", want: []string{`"metrics":["units_sold"]`, `"limit":3`}},
		{q: "best selling product in each category", refuse: "within each group"},
		// "tickets are unresolved": the metric "unresolved tickets"; a
		// word with a meaning of its own keeps it, and a state in a
		// period stays refused.
		{q: "how many tickets are unresolved", want: []string{`"metrics":["open_tickets"]`}},
		{q: "how many tickets are still unresolved", want: []string{`"metrics":["open_tickets"]`}},
		// A yes/no column said of the grouped rows after "are" is a
		// filter, not a second grouping; after "and" it still groups.
		{q: "how many products in each category are discontinued", want: []string{`"dimensions":[{"name":"category"}]`, `{"field":"products.discontinued","op":"=","values":[1]}`}},
		{q: "number of products by category and discontinued", want: []string{`"dimensions":[{"name":"category"},{"name":"products.discontinued"}]`}},
		// A value and the last word of its column's name or synonym.
		{q: "orders using the WELCOME10 code this year", want: []string{`{"field":"discount_code","op":"=","values":["WELCOME10"]}`, `"from":"2026-01-01"`}},
		{q: "orders with WELCOME10 coupon last month", want: []string{`"values":["WELCOME10"]`}},
		{q: "WELCOME10 codes", refuse: "not terms quarry knows"},
		// A superlative before a column that is not a number and "by":
		// a ranking, as "top"; before a number it is still its maximum.
		{q: "what's our biggest channel by revenue", want: []string{`"dimensions":[{"name":"channel"}]`, `"desc":true`, `"limit":1`}},
		{q: "the smallest category by units sold", want: []string{`"metrics":["units_sold"]`, `"limit":1`}},
		{q: "highest price by category", want: []string{"MAX(products.unit_price)", `"dimensions":[{"name":"category"}]`}},
		// Values and "and" before the word: the value stays a filter, and
		// the count is not set beside the metric as a second measure.
		{q: "how many tickets are urgent and unresolved", want: []string{`"metrics":["open_tickets"]`, `"values":["urgent"]`}},
		{q: "how many tickets are urgent and high", refuse: "cannot be both"},
		// "best selling … by" a measure: ranked by that measure.
		{q: "best selling products by revenue", want: []string{`"metrics":["revenue"]`, `"desc":true`}},
		{q: "best selling products by category", refuse: "what to rank by"},
		{q: "how many customers are active", want: []string{`"field":"subscriptions"`, `"values":["active"]`}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			text := planText(f.Model, tc.q, pl)
			if tc.refuse != "" {
				if pl.Kind != KindUnanswered || !strings.Contains(pl.Reason, tc.refuse) {
					t.Errorf("want a refusal saying %q, got\n%s", tc.refuse, text)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("want a metric plan, got\n%s", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("want %s in\n%s", w, text)
				}
			}
		})
	}
}

// TestWithAList: "orders with a promo code" lists the orders that have
// one; it listed every order's code, most of them empty (a wrong answer
// at full confidence).
func TestWithAList(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	pl := New(f.Model, nil).Plan("orders with a promo code last month", asOf)
	text := planText(f.Model, "orders with a promo code last month", pl)
	if pl.Kind != KindRows || !strings.Contains(text, "orders.discount_code <> ''") {
		t.Errorf("want the orders whose discount code is set, got\n%s", text)
	}
}

// TestBestSellingNoVerb: without one measure named by the verb, "best
// selling" has nothing to rank by and stays refused.
func TestBestSellingNoVerb(t *testing.T) {
	pl := New(formsModel(), nil).Plan("best selling companies", asOf)
	if pl.Kind == KindMetric || pl.Kind == KindRows {
		t.Errorf("want a refusal, got %s: %s", pl.Kind, planText(formsModel(), "best selling companies", pl))
	}
}
