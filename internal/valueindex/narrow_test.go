package valueindex

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/planner"
)

func TestNarrow(t *testing.T) {
	customersCity := Hit{Value: planner.Value{Entity: "customers", Column: "city", Value: "Springfield"},
		Names: Names{Entity: []string{"customers", "customers", "clients"}, Column: []string{"city"}}}
	storesName := Hit{Value: planner.Value{Entity: "stores", Column: "name", Value: "Springfield"},
		Names: Names{Entity: []string{"stores", "store_list"}, Column: []string{"name"}, Label: true}}
	storesCity := Hit{Value: planner.Value{Entity: "stores", Column: "city", Value: "Springfield"},
		Names: Names{Entity: []string{"stores", "store_list"}, Column: []string{"city"}}}
	countryName := Hit{Value: planner.Value{Entity: "country", Column: "Name", Value: "Aruba"},
		Names: Names{Entity: []string{"country"}, Column: []string{"Name"}, Label: true}}
	countryLocal := Hit{Value: planner.Value{Entity: "country", Column: "LocalName", Value: "Aruba"},
		Names: Names{Entity: []string{"country"}, Column: []string{"LocalName"}}}
	at := func(h Hit, start int) Hit { h.Start, h.End = start, start+1; return h }
	for _, tc := range []struct {
		q    string
		hits []Hit
		want []Hit
	}{
		// The table named anywhere, in the singular or the plural, or by a synonym.
		{"customers in springfield", []Hit{at(customersCity, 2), at(storesName, 2)}, []Hit{at(customersCity, 2)}},
		{"how many clients live in springfield", []Hit{at(customersCity, 5), at(storesName, 5)}, []Hit{at(customersCity, 5)}},
		{"the store springfield", []Hit{at(customersCity, 2), at(storesName, 2)}, []Hit{at(storesName, 2)}},
		{"store list for springfield", []Hit{at(customersCity, 3), at(storesName, 3)}, []Hit{at(storesName, 3)}},
		// Neither or both named: all stay, for the planner to ask.
		{"revenue in springfield", []Hit{at(customersCity, 2), at(storesName, 2)}, []Hit{at(customersCity, 2), at(storesName, 2)}},
		{"customers and stores in springfield", []Hit{at(customersCity, 4), at(storesName, 4)}, []Hit{at(customersCity, 4), at(storesName, 4)}},
		// The column, next to the value.
		{"stores in the city of springfield", []Hit{at(storesCity, 5), at(storesName, 5)}, []Hit{at(storesCity, 5)}},
		{"stores whose city is springfield", []Hit{at(storesCity, 4), at(storesName, 4)}, []Hit{at(storesCity, 4)}},
		// ...but not far from it.
		{"the city of the stores named after a town called springfield", []Hit{at(storesCity, 10), at(storesName, 10)}, []Hit{at(storesName, 10)}},
		// Of one table's columns, its label.
		{"languages of aruba", []Hit{at(countryName, 2), at(countryLocal, 2)}, []Hit{at(countryName, 2)}},
		// Hits at different places are narrowed apart.
		{"customers in springfield or springfield", []Hit{at(customersCity, 2), at(storesName, 2), at(customersCity, 4)}, []Hit{at(customersCity, 2), at(customersCity, 4)}},
	} {
		got := Narrow(wordList(tc.q), tc.hits)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.q, diff)
		}
	}
}

func wordList(q string) []string {
	var out []string
	for _, w := range tokenize(q) {
		out = append(out, w.s)
	}
	return out
}

func TestIDShaped(t *testing.T) {
	for s, want := range map[string]bool{
		"ORD-1042": true, "A-113": true, "x9": true, "3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b": true, "SKU_77": true,
		"1042": false, "2025-03-14": false, "Q3": false, "H1": false, "FY2025": false, "2nd": false, "1990s": false,
		"York": false, "a": false, "ann@example.com": false,
	} {
		if got := idShaped(s); got != want {
			t.Errorf("idShaped(%q) = %v, want %v", s, got, want)
		}
	}
}
