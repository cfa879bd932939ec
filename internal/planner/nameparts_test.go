package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestRankedByFirstAndLastName: a ranking of a table with no label but a
// first and a last name groups by its key and both names, so that the
// answer names each row, titled by the table, and the coverage check
// passes it; a restricted last name is not grouped by, and a first name
// grouped without the key is still a grouping no question asked for.
func TestRankedByFirstAndLastName(t *testing.T) {
	model := func(restricted ...string) *semantic.Model {
		return &semantic.Model{
			Entities: []semantic.Entity{
				{Name: "customers", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
					{Name: "first_name", Type: quarry.TypeText}, {Name: "last_name", Type: quarry.TypeText}, {Name: "email", Type: quarry.TypeText}}},
				{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
					{Name: "customer_id", Type: quarry.TypeInt}, {Name: "ordered_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
			},
			Relationships: []semantic.Relationship{{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
			Restricted:    restricted,
		}
	}
	m := model()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"which customer placed the most orders", "top 3 customers by number of orders in 2025"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Fatalf("%q: %s %s", q, pl.Kind, pl.Reason)
		}
		var dims []string
		for _, d := range pl.Query.Dimensions {
			dims = append(dims, d.Name)
		}
		if !slices.Equal(dims, []string{"customers.id", "customers.first_name", "customers.last_name"}) {
			t.Errorf("%q: grouped by %v", q, dims)
		}
		if !strings.Contains(pl.Title, "by customers") || strings.Contains(pl.Title, "name") {
			t.Errorf("%q: titled %q", q, pl.Title)
		}
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(m), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
		// A first name grouped without the key splits people who share
		// it: no question asked for that.
		alone := *pl.Query
		alone.Dimensions = alone.Dimensions[1:2]
		failed := false
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(m), &alone) {
			failed = failed || c.Status == verify.Fail && strings.Contains(c.Detail, "groups by customers.first_name")
		}
		if !failed {
			t.Errorf("%q: a grouping by first name alone passed", q)
		}
	}
	r := model("customers.last_name")
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	pl := New(r, nil).Plan("which customer placed the most orders", asOf)
	if pl.Query != nil && slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return strings.Contains(d.Name, "name") }) {
		t.Errorf("grouped by a restricted name: %+v", pl.Query.Dimensions)
	}
}
