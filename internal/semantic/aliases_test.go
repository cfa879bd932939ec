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
