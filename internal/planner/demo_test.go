package planner

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/semantic"
)

// demoQuestions are asked the way analysts ask, against the real demo
// knowledge. The golden file testdata/demo-plans.golden holds each plan and
// its SQL; review it by eye after -update.
var demoQuestions = []struct {
	q    string
	kind Kind
}{
	// Counts and totals.
	{"How many customers do we have?", KindVerified},
	{"what is the highest product price", KindMetric},
	{"when was the first order placed", KindMetric},
	{"average pages per session on tablets", KindMetric},
	{"weekly orders over the last 4 weeks", KindMetric},
	{"list the plans with their monthly price", KindRows},
	{"which customers placed more than 20 orders in 2025 by country", KindUnanswered},
	{"how many orders were placed in 2025", KindMetric},
	{"number of orders last month", KindMetric},
	{"total revenue in 2025", KindMetric},
	{"What were our sales last quarter?", KindMetric},
	{"how many products do we sell", KindUnanswered},
	{"how many products are in the catalogue", KindMetric},
	{"headcount in Engineering", KindMetric},
	{"how many employees work in Sales", KindMetric},
	{"number of open tickets", KindMetric},
	{"how many support tickets were opened yesterday", KindMetric},
	{"units sold this year", KindMetric},
	{"gross margin last year", KindMetric},
	{"what is our MRR", KindVerified},
	{"active subscribers on the Premium plan", KindMetric},
	{"new customers in March 2026", KindMetric},
	{"how many refunds did we have in Q1 2026", KindMetric},
	{"conversion rate for mobile sessions", KindMetric},
	{"average order value in 2025", KindMetric},
	{"AOV by channel", KindMetric},
	{"average satisfaction by ticket priority", KindMetric},
	{"average resolution time for urgent tickets", KindMetric},
	// Filters by known values.
	{"revenue in Germany", KindMetric},
	{"orders from the mobile channel", KindMetric},
	{"business customers", KindMetric},
	{"how many business customers signed up in 2025", KindMetric},
	{"cancelled orders this year", KindMetric},
	{"Electronics revenue last month", KindMetric},
	{"revenue from Books and Toys in 2025", KindMetric},
	{"sales excluding the store channel", KindMetric},
	{"orders with the WELCOME10 coupon", KindMetric},
	{"sessions from organic search by device", KindUnanswered},
	{"sessions from ads by device", KindMetric},
	{"tickets about billing", KindMetric},
	{"number of tickets about Billing this month", KindMetric},
	// Groups, top and bottom.
	{"revenue by country", KindMetric},
	{"orders per channel in 2025", KindMetric},
	{"revenue by category and channel", KindMetric},
	{"customers by segment", KindMetric},
	{"top 5 products by revenue", KindMetric},
	{"top 10 customers by revenue last year", KindMetric},
	{"the 3 countries with the fewest customers", KindMetric},
	{"which country has the most customers", KindMetric},
	{"which channel had the highest revenue in 2025", KindMetric},
	{"bottom 3 categories by units sold", KindMetric},
	{"which plan has the most active subscribers", KindMetric},
	{"mrr by plan", KindMetric},
	{"headcount by department", KindVerified},
	{"tickets by category", KindMetric},
	{"conversion rate by traffic source", KindVerified},
	// Trends.
	{"revenue by month", KindMetric},
	{"monthly orders in 2025", KindMetric},
	{"weekly sessions in 2025", KindMetric},
	{"daily revenue last 30 days", KindMetric},
	{"trend of new customers", KindMetric},
	{"quarterly revenue since 2024", KindMetric},
	{"signups per month this year", KindMetric},
	{"which month had the highest revenue", KindMetric},
	// Comparisons and shares.
	{"revenue this month vs last month", KindMetric},
	{"compare orders in Q1 2025 and Q1 2026", KindMetric},
	{"sales in 2024 versus 2025", KindMetric},
	{"share of revenue by channel", KindMetric},
	{"what percentage of orders were refunded", KindMetric},
	{"percentage of revenue by category last year", KindMetric},
	{"refund rate by channel", KindMetric},
	// Row lists, minimum and maximum.
	{"list the products launched in 2025", KindVerified},
	{"list products launched in 2025 in the Toys category", KindRows},
	{"show customers in Berlin", KindRows},
	{"which employees work in Engineering", KindRows},
	{"most expensive product", KindRows},
	{"the 5 cheapest products", KindRows},
	{"which product has the highest list price", KindRows},
	{"list the Premium plan", KindRows},
	{"show me all urgent tickets opened this week", KindRows},
	{"employees hired since 2025", KindRows},
	{"average unit price of products", KindMetric},
	{"what is the average, minimum and maximum unit price of products", KindMetric},
	{"how many countries do our customers come from", KindMetric},
	{"customers with more than 20 orders", KindRows},
	{"products with a price above 400", KindRows},
	{"what is the highest unit price", KindClarify},
	// More, as colleagues asked them.
	{"What is the average order value by country?", KindMetric},
	{"Top 3 categories by revenue this year", KindMetric},
	{"How many active subscribers are on the Premium plan?", KindMetric},
	{"Number of new customers per month in 2025", KindMetric},
	{"What share of orders came from the mobile channel?", KindMetric},
	{"How many orders were cancelled in May 2026?", KindMetric},
	{"Orders by status", KindMetric},
	{"Weekly revenue in the last 8 weeks", KindMetric},
	{"Which country generated the most revenue last year?", KindMetric},
	{"What is the average unit price by category?", KindMetric},
	{"How many products are discontinued?", KindMetric},
	{"List discontinued products", KindRows},
	{"Orders from Germany vs France", KindMetric},
	{"Show me the 5 most recent orders", KindRows},
	{"Who are our top 5 customers by revenue?", KindMetric},
	{"Orders between March 2026 and May 2026", KindMetric},
	{"How many subscriptions were cancelled?", KindMetric},
	{"Average discount by category", KindMetric},
	{"What is the most expensive product in the Books category?", KindRows},
	{"Revenue for Premium members", KindUnanswered},
	{"Which customers spent the most in 2025?", KindMetric}, // what they spent with us: revenue
	{"Revenue growth month over month", KindUnanswered},
	{"How many orders used a discount code?", KindMetric},
	// Refused, unanswered and clarified.
	{"", KindUnanswered},
	{"asdf qwer zxcv", KindUnanswered},
	{"what is our churn", KindUnanswered},
	{"weather in Paris", KindUnanswered},
	{"what is the highest salary", KindRefuse},
	{"average salary by department", KindRefuse},
	{"list customer email addresses", KindRefuse},
	{"show the emails of customers in Germany", KindRefuse},
	{"delete all cancelled orders", KindRefuse},
	{"please update the price of the Premium plan to 30", KindRefuse},
	{"drop table customers", KindRefuse},
	{"cancel order 42", KindRefuse},
	{"add a row to products", KindRefuse},
	{"set the status of order 7 to completed", KindRefuse},
	{"insert a new customer called Bob", KindRefuse},
	{"remove discontinued products", KindRefuse},
	{"how many members do we have", KindMetric},
	{"how many cancelled", KindClarify},
	{"mobile by month", KindClarify},
	{"why did revenue drop in April", KindUnanswered},
	{"revenue next month", KindMetric}, // planned; the analyst refuses a period to come of things that happen (notBegun)
	{"forecast revenue for 2027", KindUnanswered},
	{"average revenue", KindUnanswered},
	{"top products", KindClarify}, // by revenue or by units sold
	{"how many products were sold to customers in France", KindUnanswered},
	{"revenue per employee", KindUnanswered},
	{"what is the profit margin of the moon", KindUnanswered},
	{"customer lifetime value by cohort", KindUnanswered},
	{"sessions on Bluetooth devices", KindUnanswered},
	// An ordinary word that is also a category value, where a value does
	// not fit (found from outside).
	{"how many people", KindUnanswered},
	{"number of accounts", KindUnanswered},
	{"how many people opened tickets last month", KindUnanswered},
	{"number of people in each department", KindMetric},
	{"how many high priority", KindUnanswered},
	{"how many employees in People", KindMetric},
	// "people" counted by the department it is a value of: the employees,
	// whose table is of persons; tickets are not.
	{"which department has the most people", KindMetric},
	{"which department has the fewest people", KindMetric},
	{"how many people in each ticket category", KindUnanswered},
	// A count before qualifiers counts the noun they qualify.
	{"how many high priority tickets", KindMetric},
	{"how many web channel orders", KindMetric},
	{"how many discontinued products", KindMetric},
	// A negation covers its whole list; "from" a period is that period.
	{"revenue except Electronics and Books", KindMetric},
	{"orders from 2024", KindMetric},
	{"tickets closed by month in 2025", KindMetric},
	// A table joined by "and" to a metric is a second measure.
	{"revenue and orders by channel", KindMetric},
	{"orders and revenue by channel", KindMetric},
	// A number after a column and before a value compares the column.
	{"products with a price over 100 in Electronics", KindRows},
	{"how many products have a price above 100 in Books", KindMetric},
	// A ranking within each group is refused, not answered as an overall one.
	{"top 3 products by units sold in each category", KindUnanswered},
	{"best selling product in each category", KindUnanswered},
	{"top 2 channels by orders per month", KindUnanswered},
	{"the maximum unit price of each category", KindMetric},
	// A count that admits zero, kept to a period, counts only the rows
	// that existed by its end (their start date).
	{"How many customers have fewer than 2 orders in 2025", KindMetric},
	{"customers with at most 1 order last year", KindRows},
	{"how many employees have fewer than 3 tickets in 2025", KindMetric},
	// The period a ranking of periods answers with is shown with its
	// figure.
	{"Which year had the highest revenue", KindMetric},
	{"what month had the most orders", KindMetric},
	{"which quarter had the fewest new customers", KindMetric},
	{"which year had the lowest revenue", KindMetric},
	// A literal held to a column that lists its values without it, but
	// known in another column, is refused with where it is.
	{"Tickets with priority Shipping last week", KindUnanswered},
	{"orders whose channel is Germany", KindUnanswered},
	// "who" and the verb of a link its column's description gives ("The
	// employee handling the ticket"): the table of persons that does it.
	{"who handled the most tickets last month", KindMetric},
	{"who handled the most urgent tickets this year", KindMetric},
	// A measure after a negation of having: the rows it adds up, missing.
	{"products with no sales", KindMetric},
	{"which products have no sales", KindRows},
	// Through a chain of references: the customers with no order line
	// of a completed order.
	{"customers with no revenue", KindMetric},
	// An age word with a count of a table's rows that meet conditions on
	// its own columns: the newest or oldest of those rows.
	{"Most recent cancellation", KindRows},
	{"the oldest open ticket", KindRows},
	{"how many recent cancellations", KindUnanswered},
	// A percent compares a rate, as the fraction it holds.
	{"Channels with a refund rate above 5%", KindMetric},
	{"which countries have a refund rate below 4.5 percent", KindMetric},
	{"channels with revenue above 5%", KindUnanswered},
	// A direction said alone sorts a breakdown by its measure; not one
	// by periods (which may mean in time order), nor alphabetically.
	{"Show revenue by country, lowest first", KindMetric},
	{"support tickets by priority last month in ascending order", KindMetric},
	{"revenue by month, lowest first", KindMetric},
	{"revenue by month, ascending", KindUnanswered},
	{"which day had the most orders last month", KindMetric},
	{"which day were orders placed", KindUnanswered},
	{"revenue by channel alphabetically", KindUnanswered},
	// A table's word before a column of a third table the question names
	// nowhere else: that table has no such column (an outside tester's
	// case, grouped by each employee and the customer's country).
	{"tickets by assignee country", KindUnanswered},
	{"tickets by employee city", KindUnanswered},
	{"revenue by product country", KindUnanswered},
	{"tickets by customer country", KindMetric},
	{"sessions by customer device", KindMetric},
	// A plural superlative asks for the top few groups, not one (found
	// from outside: the second city was 3% behind the one shown).
	{"which cities have the most customers", KindMetric},
	{"which city has the most customers", KindMetric},
	// A missing role: its key column is empty.
	{"how many tickets are unassigned", KindMetric},
	// Halves without a year, the span before a span.
	{"can you split revenue by country for H1", KindMetric},
	{"revenue last 7 days vs the previous 7 days", KindMetric},
	// The counted rows' own verb before a count condition; a manager's
	// "anything", "busiest", "quietest".
	{"how many customers have placed more than 5 orders", KindMetric},
	{"how many customers have never ordered anything", KindMetric},
	{"busiest day of the week for orders", KindMetric},
	{"quietest month for revenue last year", KindMetric},
	// The rows' own age: before the as-of day less the span, on their
	// start or time column; a person's age is never their signup's.
	{"open tickets older than 30 days", KindMetric},
	{"pending orders older than a week – how many?", KindMetric},
	{"customers older than 40 years", KindUnanswered},
	// "newer than" is the rows' own age, a person's too (signed up).
	{"customers newer than 30 days", KindMetric},
	{"orders newer than 7 days", KindMetric},
	// "<column> of <table>" after "by": the table's column, one group.
	{"revenue by country of customer", KindMetric},
	// A column's word measured by groups is the metric over it; a count
	// by periods of a date naming what happened is titled by it; churn.
	{"satisfaction by ticket category", KindMetric},
	{"which support category has the worst satisfaction?", KindMetric},
	{"hires per year", KindMetric},
	{"how many memberships were cancelled last quarter", KindMetric},
	{"how many members did we lose last month", KindMetric},
	// "biggest" ranks rows as "top" does, past values and a table whose
	// count is also a metric.
	{"who are our biggest business customers by revenue this year", KindMetric},
	// Two halves and one year: that year's; a half not started yet is
	// no period to compare.
	{"tickets H1 vs H2 last year", KindMetric},
	{"signups second half vs first half of this year", KindUnanswered},
	// "people" written as a common word may be the persons counted, not
	// the People department: those of the one table of persons the
	// other words name (hires are employees), else refused.
	{"how many people did we hire in 2025", KindMetric},
	{"how many people work in engineering", KindMetric},
	{"how many people signed up last month", KindMetric},
	{"how many people joined the club this year", KindUnanswered},
	// "plus" with nothing before it to join is the Plus plan.
	{"how many plus subscribers do we have", KindMetric},
	{"revenue plus orders", KindMetric},
	// A plural superlative ranking "by" a measure: the top few, without
	// the empty group.
	{"biggest discount codes by revenue", KindMetric},
}

func TestDemoPlans(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	var verified []Verified
	for _, v := range f.Verified {
		verified = append(verified, Verified{Question: v.Question, SQL: v.SQL})
	}
	p := New(f.Model, verified)
	var b strings.Builder
	for _, tt := range demoQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s)", tt.q, pl.Kind, tt.kind, pl.Reason)
		}
		b.WriteString(planText(f.Model, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "demo-plans.golden"), b.String())
}

// TestFigureNotList: "what is headcount" is the measure's figure, never
// a list of the employees it counts (found from outside: 60 names for
// "what is headcount", 51 for "… at the beginning of the year").
func TestFigureNotList(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, q := range []string{"what is headcount", "what was headcount at the beginning of the year", "what is revenue"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want a figure", q, pl.Kind, pl.Reason)
		}
	}
	if pl := p.Plan("what are the orders", asOf); pl.Kind != KindRows {
		t.Errorf("what are the orders: %s; want a list", pl.Kind)
	}
}

// TestNotSetWithAPeriod: an end date said not to be set, after a period
// of another date ("tickets opened in 2025 that are still not closed"),
// is empty; one after the period's own words is still refused. "Did not
// use any discount code" is the column empty, as "used a discount code"
// is that it is set (found from outside: both refused).
func TestNotSetWithAPeriod(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	empty := func(pl *Plan, field string) bool {
		return pl.Query != nil && slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool { return fl.Field == field && fl.Op == semantic.OpNull })
	}
	for q, field := range map[string]string{
		"how many tickets opened in 2025 are still not closed":     "support_tickets.closed_at",
		"how many orders did not use any discount code last month": "discount_code",
		"orders that did not use a discount code":                  "discount_code",
	} {
		if pl := p.Plan(q, asOf); !empty(pl, field) || pl.Query.TimeRange == nil && strings.Contains(q, "last month") {
			t.Errorf("%q: %s %q %+v; want %s empty", q, pl.Kind, pl.Reason, pl.Query, field)
		}
	}
	if pl := p.Plan("how many tickets not closed in 2025", asOf); pl.Kind == KindMetric {
		t.Errorf("not closed in 2025: %+v; want refused (closed, but not in 2025?)", pl.Query)
	}
}

// TestColumnOfANumber: "with a quantity of 3" is the column's value, as
// "with 3 as quantity" would be; a number before a term is not taken
// ("top 5 of products by revenue" keeps its limit).
func TestColumnOfANumber(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]string{
		"order lines with a quantity of 3":           "order_items.quantity = [3]",
		"tickets with a satisfaction of 5 last year": "support_tickets.satisfaction = [5]",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool { return fmt.Sprintf("%s %s %v", fl.Field, fl.Op, fl.Values) == want }) {
			t.Errorf("%q: %s %q %+v; want %s", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
	for _, q := range []string{"top 5 of products by revenue", "the prices of the 5 most expensive products"} {
		if pl := p.Plan(q, asOf); pl.Query != nil && slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool { return fl.Op == semantic.OpEq && fmt.Sprint(fl.Values...) == "5" }) {
			t.Errorf("%q: %+v; want 5 the limit, no value", q, pl.Query)
		}
	}
}

// TestPeriodOfTheStartVerb: a period said right after the verb of the
// rows' own date ("started last year", "opened last month") is that
// date's, and a state or a later date said after it is a condition
// (found from outside: the period moved to ended_on and closed_at, the
// start dropped, at 1.00). Without the verb the period is the state's.
func TestPeriodOfTheStartVerb(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for q, want := range map[string]string{
		"how many subscriptions started last year have been cancelled": "subscriptions.started_on",
		"how many subscriptions started in 2024 were cancelled":        "subscriptions.started_on",
		"how many tickets opened last month have been closed":          "support_tickets.opened_at",
		"tickets opened in May 2026 that were closed":                  "support_tickets.opened_at",
		"how many subscriptions were cancelled last year":              "subscriptions.ended_on",
		"tickets closed last month":                                    "support_tickets.closed_at",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		got := ""
		if tr := pl.Query.TimeRange; tr != nil {
			got = tr.Field
			if got == "" {
				got = "(the measure's own date)"
			}
		}
		if got != want && !(got == "(the measure's own date)" && strings.HasSuffix(want, "opened_at")) {
			t.Errorf("%q: period on %s, want %s (%+v)", q, got, want, pl.Query)
		}
	}
	if pl := p.Plan("how many tickets opened last month have been closed", asOf); pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool {
		return fl.Field == "support_tickets.closed_at" && fl.Op == semantic.OpNotNull
	}) {
		t.Errorf("opened last month, closed: %+v; want closed_at set", pl.Query)
	}
}

// TestMadeVerbWithNoPeriod: "how many customers placed an order", "have
// ordered", with no period, are the customers with any order, as
// "customers who ordered last month" are those with one then (found
// from outside: refused); a condition on the orders beside it is still
// refused, not dropped.
func TestMadeVerbWithNoPeriod(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, q := range []string{"how many customers have placed an order", "how many customers placed an order", "how many customers have ordered"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool { return fl.Field == "orders" && fl.Op == semantic.OpSome }) {
			t.Errorf("%q: %s %q %+v; want customers with orders", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many customers placed an order with WELCOME10", asOf); pl.Kind == KindMetric && !slices.ContainsFunc(pl.Query.Filters, func(fl semantic.Filter) bool {
		return slices.ContainsFunc(fl.Where, func(w semantic.Filter) bool { return strings.Contains(fmt.Sprint(w.Values...), "WELCOME10") })
	}) {
		t.Errorf("with WELCOME10: %+v; want the code kept or refused", pl.Query)
	}
}
