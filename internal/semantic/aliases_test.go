package semantic

import (
	"strings"
	"testing"
)

func TestExpandAliases(t *testing.T) {
	values := map[string]bool{"united states": true, "germany": true, "spain": true, "spanish": true, "united kingdom": true, "india": true, "indian ocean": true}
	known := func(s string) bool { return values[strings.ToLower(s)] }
	for q, want := range map[string]string{
		"number of orders in the US last month": "number of orders in the United States last month",
		"revenue in the U.S. last year":         "revenue in the United States last year",
		"orders from USA":                       "orders from United States",
		"show us revenue by country":            "show us revenue by country",
		"tell us how many orders":               "tell us how many orders",
		"revenue in the us this year":           "revenue in the United States this year",
		"orders from the u.s. last year":        "orders from the United States last year",
		"us revenue by month":                   "United States revenue by month",
		"usage by the users":                    "usage by the users",
		"German customers revenue":              "Germany customers revenue",
		"how many Spanish speakers":             "how many Spanish speakers", // a known value itself
		"orders in the UK":                      "orders in the United Kingdom",
		"French customers":                      "French customers", // France is not a known value here
		"USAGE by country":                      "USAGE by country",
		"Indian customers":                      "India customers",
		"islands in the Indian Ocean":           "islands in the Indian Ocean",
	} {
		if got := ExpandAliases(q, known); got != want {
			t.Errorf("ExpandAliases(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestExpandCountryNames: a country named where the data holds codes is
// read as its code, even where the name is a known value too ("USA" of
// airlines.Country beside airports' 'US'), which the planner decides.
func TestExpandCountryNames(t *testing.T) {
	m := &Model{Entities: []Entity{
		{Name: "customers", Columns: []Column{{Name: "country_code", Values: []string{"DE", "FR", "US"}}, {Name: "state", Values: []string{"IN", "CA"}}}},
		{Name: "airlines", Columns: []Column{{Name: "Country", Values: []string{"USA"}}}},
	}}
	for q, want := range map[string]string{
		"how many customers in Germany":   "how many customers in DE",
		"how many German customers":       "how many DE customers",
		"customers in France or Germany":  "customers in FR or DE",
		"airlines in the USA":             "airlines in the US",
		"customers in the United States":  "customers in the US",
		"customers in India":              "customers in India", // 'IN' is a state here, not a country
		"how many customers in Germanyy?": "how many customers in Germanyy?",
	} {
		if got := m.ExpandCountryNames(q); got != want {
			t.Errorf("ExpandCountryNames(%q) = %q, want %q", q, got, want)
		}
	}
}
