package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestFilterTitleFlags: a yes/no value titles its column ("discontinued",
// "not discontinued"); a letter of another column is its value ("sex =
// 'F'" was titled "not sex").
func TestFilterTitleFlags(t *testing.T) {
	eq := func(field string, v any) semantic.Filter {
		return semantic.Filter{Field: field, Op: semantic.OpEq, Values: []any{v}}
	}
	for _, tt := range []struct {
		f    semantic.Filter
		want string
	}{
		{eq("patients.sex", "F"), "F"},
		{eq("patients.sex", "M"), "M"},
		{eq("products.discontinued", int64(1)), "discontinued"},
		{eq("products.discontinued", int64(0)), "not discontinued"},
		{eq("products.is_active", "N"), "not is active"},
		{eq("countrylanguage.IsOfficial", "T"), "IsOfficial"},
		{eq("products.is_active", "Y"), "is active"},
		{eq("products.official", "true"), "official"},
	} {
		if got := filterTitle(tt.f); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.f, got, tt.want)
		}
	}
}

// TestDisplay: a name as a sentence writes it, one space between words
// however the name joins them (found on a wide schema: "Number of
// nordics travel  passengers").
func TestDisplay(t *testing.T) {
	for name, want := range map[string]string{
		"unit_price":                 "unit price",
		"mrr":                        "MRR",
		"nordics_travel__passengers": "nordics travel passengers",
		"_staging_orders_":           "staging orders",
	} {
		if got := display(name); got != want {
			t.Errorf("display(%q) = %q, want %q", name, got, want)
		}
	}
}
