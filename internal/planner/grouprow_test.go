package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestGroupRowColumns: a column of the rows a query ranks or groups is
// shown beside each group, with the rows' key among the groups so that
// it cannot split or merge them; a column of a table grouped only by
// one of its columns is no such thing, and is refused.
func TestGroupRowColumns(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		groups []string // nil: refused
	}{
		{"the name and segment of the customer with the most orders", []string{"customers.id", "customers.name", "segment"}},
		{"which customer has the most orders? give their name and city", []string{"customers.id", "customers.name", "customers.city"}},
		// A restricted column stays refused beside a group.
		{"the name and email of the customer with the most orders", nil},
		// Adversarial: grouped by a column, not by the customers, so
		// there is no one email per group.
		{"which country has the most customers and its segment", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.groups == nil {
				if pl.Kind != KindUnanswered && pl.Kind != KindRefuse && pl.Kind != KindClarify {
					t.Fatalf("%s: %+v; want a refusal", pl.Kind, pl.Query)
				}
				return
			}
			if pl.Query == nil {
				t.Fatalf("%s (%s), want a query", pl.Kind, pl.Reason)
			}
			var got []string
			for _, d := range pl.Query.Dimensions {
				got = append(got, d.Name)
			}
			if diff := cmp.Diff(tc.groups, got); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}
