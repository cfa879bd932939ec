package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPeriodAbbreviations: "yr", "mth", "qtr", "wk" and the months' short
// names read as the words, with the checks holding the plan to the words
// (Read); a short form the knowledge knows as a value stays that value.
func TestPeriodAbbreviations(t *testing.T) {
	p := New(testModel(), nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"revenue in jan":            "2026-01-01",
		"revenue last yr":           "2025-01-01",
		"orders last mth":           "2026-05-01",
		"revenue in sept 2025":      "2025-09-01",
		"orders in Dec. 2025":       "2025-12-01",
		"revenue by qtr in 2025":    "2025-01-01",
		"orders per wk in jan 2026": "2026-01-01",
	} {
		pl := p.Plan(q, at)
		if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != want {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		if pl.Read == "" || pl.Read == q {
			t.Errorf("%q: read as %q, want the words written out", q, pl.Read)
		}
	}
	m := testModel()
	for i := range m.Entities {
		for j := range m.Entities[i].Columns {
			if m.Entities[i].Columns[j].Name == "channel" {
				m.Entities[i].Columns[j].Values = append(m.Entities[i].Columns[j].Values, "Jan")
			}
		}
	}
	if pl := New(m, nil).Plan("orders from Jan", at); pl.Query == nil || pl.Query.TimeRange != nil || len(pl.Query.Filters) != 1 {
		t.Errorf("Jan, a channel: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestContractions: "n't" reads as "not", in any case and with either
// apostrophe, as the words written out would.
func TestContractions(t *testing.T) {
	p := New(testModel(), nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	want := p.Plan("customers who did not order", at)
	if want.Query == nil {
		t.Fatalf("customers who did not order: %s %q", want.Kind, want.Reason)
	}
	for _, q := range []string{"customers who didn't order", "customers who didn’t order", "Customers who DIDN'T order", "Customers who Didn't order"} {
		pl := p.Plan(q, at)
		if pl.Query == nil || !cmp.Equal(pl.Query, want.Query) || pl.Read == "" {
			t.Errorf("%q: %s %q %+v, read %q", q, pl.Kind, pl.Reason, pl.Query, pl.Read)
		}
	}
}

// TestShortAuxiliaries: "'re", "'ve", "'ll", "'m" and "'d" read as the
// words written out; a quoted value or a name with an apostrophe is left
// as it is.
func TestShortAuxiliaries(t *testing.T) {
	p := New(testModel(), nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for short, long := range map[string]string{
		"who're our top 5 customers by revenue":  "who are our top 5 customers by revenue",
		"we've had how many orders in 2025":      "we have had how many orders in 2025",
		"what’ll revenue be in 2025":             "what will revenue be in 2025",
		"how'd revenue do last month":            "how did revenue do last month",
		"I'd like revenue by month":              "I would like revenue by month",
		"I'm after orders by channel":            "I am after orders by channel",
		"what're orders by channel in june 2026": "what are orders by channel in june 2026",
		"whats revenue in 2025":                  "what is revenue in 2025",
		"hows revenue in june 2026":              "how is revenue in june 2026",
	} {
		got, want := p.Plan(short, at), p.Plan(long, at)
		if got.Kind != want.Kind || !cmp.Equal(got.Query, want.Query) || got.Reason != want.Reason {
			t.Errorf("%q: %s %q %+v\nwant as %q: %s %q %+v", short, got.Kind, got.Reason, got.Query, long, want.Kind, want.Reason, want.Query)
		}
	}
	for _, q := range []string{"revenue from 'returned' orders", "customers named O'Reilly", "revenue in ’dallas’"} {
		if got := shortAuxOf(q); got != q {
			t.Errorf("%q written as %q, want it left alone", q, got)
		}
	}
}

// shortAuxOf is q with shortAux applied.
func shortAuxOf(q string) string {
	for _, c := range shortAux() {
		q = c.re.ReplaceAllString(q, c.to)
	}
	return q
}

// TestGrowthAbbreviations: "MoM", "QoQ" and "YoY" are month, quarter
// and year over year: a series by that grain.
func TestGrowthAbbreviations(t *testing.T) {
	p := New(testModel(), nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"revenue MoM this year": "month",
		"revenue QoQ":           "quarter",
		"orders yoy":            "year",
	} {
		pl := p.Plan(q, at)
		if pl.Kind != KindMetric || len(pl.Query.Dimensions) != 1 || string(pl.Query.Dimensions[0].Grain) != want {
			t.Errorf("%q: %s %q %+v, want by %s", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
}

// TestSpokenShortForms: a manager's short forms and fillers (found from
// outside, each refused as an unknown word) read as the words they stand
// for, and the reading says so.
func TestSpokenShortForms(t *testing.T) {
	p := demoPlanner(t)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, note := range map[string]string{
		"whats the rev split by segment":                                    `"rev" read as "revenue"`,
		"how many subs were cancelled last month":                           `"subs" read as "subscriptions"`,
		"gimme the top 5 countries by sales ytd":                            `"gimme" read as "give me"`,
		"um so how many orders did we do in march, roughly?":                `"um" read past`,
		"How much did we bring in, revenue-wise, in the first half of 2026": `"revenue-wise" read as "revenue"`,
		"revenue last 30d":                                                  `"last 30d" read as "last 30 days"`,
		"how many orders in the past 7 d":                                   `"past 7 d" read as "past 7 days"`,
		"how many custs ordered in june 2026":                               `"cust" read as "customers"`,
		"how many tix were opened last month":                               `"tix" read as "tickets"`,
	} {
		pl := p.Plan(q, at)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s (%s); want it answered", q, pl.Kind, pl.Reason)
			continue
		}
		found := false
		for _, u := range pl.Understood {
			found = found || u == note
		}
		if !found {
			t.Errorf("%q: understood %q; want %s", q, pl.Understood, note)
		}
	}
}

// TestUnitSaid: a measure named in its own unit ("in hours") is read as
// asked; in another unit, or one the knowledge does not give, refused
// (found from outside: "hours" not understood).
func TestUnitSaid(t *testing.T) {
	p := demoPlanner(t)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, ok := range map[string]bool{
		"avg resolution time in hours last month":   true,
		"revenue in dollars last month":             true,
		"avg resolution time in minutes last month": false,
		"revenue in euros last month":               false,
		"orders in hours":                           false,
	} {
		pl := p.Plan(q, at)
		if got := pl.Kind == KindMetric; got != ok {
			t.Errorf("%q: %s (%s); answered %v, want %v", q, pl.Kind, pl.Reason, got, ok)
		}
	}
}

// TestUnitOfName: a column's name may say its unit (duration_min).
func TestUnitOfName(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "appointments", Table: "appointments", PrimaryKey: "appt_id", Columns: []semantic.Column{
		{Name: "appt_id", Type: quarry.TypeInt}, {Name: "duration_min", Type: quarry.TypeInt}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	at := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	if pl := p.Plan("average appointment duration in minutes", at); pl.Kind != KindMetric {
		t.Errorf("in its unit: %s (%s)", pl.Kind, pl.Reason)
	}
	if pl := p.Plan("average appointment duration in hours", at); pl.Kind == KindMetric {
		t.Errorf("in another unit: answered")
	}
}

// TestByAValue: "by" before a value is no grouping dropped for a filter
// (found from outside: "average tip by server" was one figure for the
// servers); "paid by insurance" and "orders by Priya Dawson" say how and
// whose.
func TestByAValue(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", Table: "staff", PrimaryKey: "staff_id", Label: "staff_name", Columns: []semantic.Column{col("staff_id", quarry.TypeInt), col("staff_name", quarry.TypeText),
				{Name: "role", Type: quarry.TypeText, Values: []string{"Cook", "Server"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "order_id", Columns: []semantic.Column{col("order_id", quarry.TypeInt), col("server_id", quarry.TypeInt), col("tip_amt", quarry.TypeFloat),
				{Name: "pay_method", Type: quarry.TypeText, Values: []string{"card", "insurance"}}, {Name: "status", Type: quarry.TypeText, Values: []string{"paid", "unpaid"}}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "server_id", To: "staff", ToColumn: "staff_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	at := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	if pl := p.Plan("average tip amt by server", at); pl.Kind == KindMetric && len(pl.Query.Dimensions) == 0 {
		t.Errorf("one figure for a grouping asked: %+v", pl.Query)
	}
	if pl := p.Plan("number of orders per server", at); pl.Kind == KindMetric && len(pl.Query.Dimensions) == 0 {
		t.Errorf("per a value: one figure %+v", pl.Query)
	}
	if pl := p.Plan("how many orders were paid by insurance", at); pl.Kind != KindMetric {
		t.Errorf("paid by insurance: %s (%s)", pl.Kind, pl.Reason)
	}
}

// TestThisVsLast: "this year vs last" compares with last year, not the
// latest rows (found from outside: refused as "new" with a metric).
func TestThisVsLast(t *testing.T) {
	m := testModel()
	p := New(m, nil)
	for _, q := range []string{"revenue this year vs last", "how are we doing on revenue this year versus last", "orders this month compared to last"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Compare) != 2 {
			t.Errorf("%q: %s %s %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}

// TestForecastAsked: a word that asks for a forecast, unknown to the
// knowledge, is refused as a forecast (quarry reports what has happened),
// not only as a word it does not know.
func TestForecastAsked(t *testing.T) {
	p := New(testModel(), nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"forecast revenue for 2027", "predict orders for july", "projected revenue next year", "revenue projections by channel"} {
		pl := p.Plan(q, at)
		if pl.Kind != KindUnanswered || !strings.Contains(pl.Reason, "does not forecast") || !strings.Contains(pl.Reason, "2026-06-30") {
			t.Errorf("%q: %s %q; want it refused as a forecast", q, pl.Kind, pl.Reason)
		}
	}
	if pl := p.Plan("revenue by flurbish", at); pl.Kind != KindUnanswered || strings.Contains(pl.Reason, "forecast") {
		t.Errorf("an unknown word that asks for no forecast: %s %q", pl.Kind, pl.Reason)
	}
}

// TestShortYearAndExcluding: "q4 '25" is Q4 2025; "excl", "excluding",
// "except" and "other than" leave a value out, also of the column the
// question groups by (found from outside: all refused).
func TestShortYearAndExcluding(t *testing.T) {
	p := demoPlanner(t)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, from := range map[string]string{"sales q4 '25": "2025-10-01", "revenue march ’24": "2024-03-01"} {
		pl := p.Plan(q, at)
		if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != from {
			t.Errorf("%q: %s %q %+v; want the period from %s", q, pl.Kind, pl.Reason, pl.Query, from)
		}
	}
	for _, q := range []string{"customers by country excl Germany", "customers by country excluding Germany", "customers by country except Germany", "customers by country other than Germany", "customers by country, except for the Germany ones"} {
		pl := p.Plan(q, at)
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Op != semantic.OpNe || pl.Query.Filters[0].Values[0] != "Germany" || len(pl.Query.Dimensions) != 1 {
			t.Errorf("%q: %s %q %+v; want customers by country, not Germany", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	// Said without a negation, a value of the grouped column is still
	// refused.
	if pl := p.Plan("customers by country Germany", at); pl.Kind != KindUnanswered {
		t.Errorf("by country Germany: %s %+v", pl.Kind, pl.Query)
	}
}

// TestPayouts: "payouts" are payments, and "pay out" is paying (found from
// outside: "payouts" and "out" not understood).
func TestPayouts(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "claim_payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "paid_on", Type: quarry.TypeDate}, {Name: "amount", Type: quarry.TypeFloat}}}}}
	p := New(m, nil)
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"biggest payout last month": "MAX(claim_payments.amount)",
		"total payouts in 2025":     "SUM(claim_payments.amount)",
	} {
		pl := p.Plan(q, at)
		if pl.Kind != KindMetric || len(pl.AdHoc) == 0 || pl.AdHoc[0].Expr != want {
			t.Errorf("%q: %s %s %+v", q, pl.Kind, pl.Reason, pl.AdHoc)
		}
	}
}
