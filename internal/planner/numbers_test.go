package planner

import (
	"fmt"
	"github.com/quarrydata/quarry/internal/semantic"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestThousandsSeparators: "1,000" is the number 1000, not 1 and 000; a
// list of years stays a list.
func TestThousandsSeparators(t *testing.T) {
	for in, want := range map[string][]string{
		"price above 1,000":       {"price", "above", "1000"},
		"over 12,500,000 in 2025": {"over", "12500000", "in", "2025"},
		"1,000.50 dollars":        {"1000.50", "dollars"},
		"in 2024,2025":            {"in", "2024", "2025"},
		"a,b and 1,23":            {"a", "b", "and", "1", "23"},
	} {
		var got []string
		for _, tk := range tokenize(in) {
			got = append(got, tk.s)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tokenize(%q) (-want +got):\n%s", in, diff)
		}
	}
	p := New(testModel(), nil)
	pl := p.Plan("products with a unit price above 1,000", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Values[0] != "1000" && pl.Query.Filters[0].Values[0] != int64(1000) && pl.Query.Filters[0].Values[0] != float64(1000) {
		t.Errorf("%s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestWriteTheNames: "Write the names of …" asks to be shown something;
// "write … into a table" still asks to change data.
func TestWriteTheNames(t *testing.T) {
	p := New(testModel(), nil)
	if pl := p.Plan("Write the names of customers in Germany", asOf); pl.Kind != KindRows {
		t.Errorf("write the names: %s %q", pl.Kind, pl.Reason)
	}
	for _, q := range []string{"write the results into a table", "write a row for customer 5", "please write to the orders table"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindRefuse {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
		}
	}
}

// TestCapitalizedKeywordValue: "Plus" written as a value is the Plus plan;
// "plus" in lower case joins two measures.
func TestCapitalizedKeywordValue(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("How many Plus members do we have?", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || fmt.Sprint(pl.Query.Filters[0].Values) != "[Plus]" {
		t.Errorf("Plus members: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("revenue plus orders by channel", asOf)
	if pl.Query == nil || len(pl.Query.Metrics) != 2 || len(pl.Query.Filters) != 0 {
		t.Errorf("revenue plus orders: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestConditionAfterMeasure: "customers with revenue over 10000" is a
// condition on each customer's revenue, as "more than 10000 in revenue"
// is.
func TestConditionAfterMeasure(t *testing.T) {
	p := New(testModel(), nil)
	for _, q := range []string{"customers with revenue over 10000", "countries with more than 10000 in revenue"} {
		pl := p.Plan(q, asOf)
		// The groups with no value are no group to list (a second
		// condition, is_not_null, on the grouping).
		if pl.Query == nil || len(pl.Query.Filters) != 2 || pl.Query.Filters[0].Field != "revenue" || pl.Query.Filters[0].Op != ">" || pl.Query.Filters[1].Op != semantic.OpNotNull || len(pl.Query.Dimensions) == 0 {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}

// TestListComma: a comma in a list that ends with "and" joins as "and"
// does ("orders, refunds and refund rate"); other commas are read past.
func TestListComma(t *testing.T) {
	for s, want := range map[string]string{
		"orders, refunds and refund rate by channel":              "orders and refunds and refund rate by channel",
		"tickets, open tickets, and satisfaction":                 "tickets and open tickets and satisfaction",
		"revenue by month, lowest first":                          "revenue by month lowest first",
		"revenue by channel, for customers in germany and france": "revenue by channel for customers in germany and france",
		"a,b and 1,23": "a b and 1 23",
	} {
		var got []string
		for _, tk := range tokenize(s) {
			got = append(got, tk.s)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("tokenize(%q) = %q, want %q", s, strings.Join(got, " "), want)
		}
	}
}
