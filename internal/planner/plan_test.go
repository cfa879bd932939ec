package planner

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// asOf is the demo anchor, a Tuesday.
var asOf = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)

// planText renders a plan and its compiled SQL for a golden file.
func planText(m *semantic.Model, q string, pl *Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n", q)
	fmt.Fprintf(&b, "kind: %s\n", pl.Kind)
	if pl.Title != "" {
		fmt.Fprintf(&b, "title: %s\n", pl.Title)
	}
	if pl.Query != nil {
		j, _ := json.Marshal(pl.Query)
		fmt.Fprintf(&b, "query: %s\n", j)
	}
	for _, a := range pl.AdHoc {
		j, _ := json.Marshal(a)
		fmt.Fprintf(&b, "adhoc: %s\n", j)
	}
	if pl.SQL != "" {
		fmt.Fprintf(&b, "verified sql: %s\n", pl.SQL)
	}
	if pl.Question != "" {
		fmt.Fprintf(&b, "ask: %s\n", pl.Question)
		fmt.Fprintf(&b, "options: %s\n", strings.Join(pl.Options, " | "))
	}
	if pl.Reason != "" {
		fmt.Fprintf(&b, "reason: %s\n", pl.Reason)
	}
	if len(pl.Unknown) > 0 {
		fmt.Fprintf(&b, "unknown: %s\n", strings.Join(pl.Unknown, ", "))
	}
	if len(pl.Suggestions) > 0 {
		fmt.Fprintf(&b, "suggestions: %s\n", strings.Join(pl.Suggestions, ", "))
	}
	if pl.Query != nil {
		c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		if err != nil {
			fmt.Fprintf(&b, "COMPILE ERROR: %v\n", err)
		} else {
			fmt.Fprintf(&b, "sql: %s\n", strings.ReplaceAll(c.SQL, "\n", "\n     "))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// modelQuestions are planned against the test model; the golden file holds
// the plans and their SQL.
var modelQuestions = []struct {
	q    string
	kind Kind
}{
	{"How many customers do we have?", KindMetric},
	{"number of orders in 2025", KindMetric},
	{"total revenue last month", KindMetric},
	{"revenue by month", KindMetric},
	{"monthly orders", KindMetric},
	{"weekly sessions in 2025", KindMetric},
	{"daily revenue last 30 days", KindMetric},
	{"trend of active subscribers", KindMetric},
	{"revenue in Germany", KindMetric},
	{"orders from the mobile channel", KindMetric},
	{"Premium members", KindMetric},
	{"how many business customers", KindMetric},
	{"cancelled orders", KindMetric},
	{"Electronics revenue", KindMetric},
	{"revenue for the Electronics category in Q3 2024", KindMetric},
	{"top 5 products by revenue", KindMetric},
	{"the 3 countries with the fewest customers", KindMetric},
	{"which country has the most customers", KindMetric},
	{"revenue by channel", KindMetric},
	{"orders per country", KindMetric},
	{"revenue broken down by category and channel", KindMetric},
	{"revenue this month vs last month", KindMetric},
	{"compare orders in Q1 2025 and Q1 2026", KindMetric},
	{"share of revenue by channel", KindMetric},
	{"what percentage of orders were refunded", KindMetric},
	{"list the products launched in 2025", KindRows},
	{"show customers in Berlin", KindRows},
	{"which employees work in Engineering", KindRows},
	{"most expensive product", KindRows},
	{"the 5 cheapest products", KindRows},
	{"which product has the highest unit price", KindRows},
	{"average unit price of products", KindMetric},
	{"what is the average, minimum and maximum price of products", KindMetric},
	{"how many countries do our customers come from", KindMetric},
	{"customers with more than 5 orders", KindRows},
	{"orders in Germany or France since 2025", KindMetric},
	{"revenue excluding the store channel year to date", KindMetric},
	{"average order value by quarter", KindMetric},
	{"conversion rate by device last quarter", KindMetric},
	{"mrr by plan", KindMetric},
	{"tickets by priority", KindMetric},
	{"clients by segment", KindMetric},
	{"number of urgent tickets this year", KindMetric},
	{"products with a unit price over 100", KindRows},
	{"products that are not discontinued", KindUnanswered},
	{"orders not in 2025", KindUnanswered},
	{"revenue by channel excluding", KindUnanswered},
	{"revenue by channel on average", KindUnanswered},
	{"list products that are not in the Books category", KindRows},
	// Refused, unanswered or clarified.
	{"", KindUnanswered},
	{"asdf qwer zxcv", KindUnanswered},
	{"what is the churn rate", KindUnanswered},
	{"weather in Paris", KindUnanswered},
	{"highest salary", KindRefuse},
	{"list customer email addresses", KindRefuse},
	{"average salary by department", KindRefuse},
	{"delete all cancelled orders", KindRefuse},
	{"please update the price of product 5 to 10", KindRefuse},
	{"drop table customers", KindRefuse},
	{"cancel order 42", KindRefuse},
	{"set the status of order 7 to completed", KindRefuse},
	{"how many cancelled", KindClarify},
	{"revenue by category", KindMetric},
	{"how many products were sold in 2025", KindUnanswered},
	{"why did revenue drop", KindUnanswered},
	{"revenue next month", KindMetric}, // planned; the analyst refuses a period to come of things that happen (notBegun)
	{"average revenue", KindUnanswered},
	{"top products", KindClarify}, // by revenue or by units sold
}

func TestPlanGolden(t *testing.T) {
	m := testModel()
	p := New(m, []Verified{{Question: "What is our revenue by plan?", SQL: "SELECT 1"}})
	var b strings.Builder
	for _, tt := range modelQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s)", tt.q, pl.Kind, tt.kind, pl.Reason)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "plans.golden"), b.String())
}
