package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestStarsAsRating: a rating said in stars ("how many 5 star reviews")
// is a condition on the one rating column (found from outside: "5,
// star" not understood). A number of stars before a period is no table
// of them, and with two ratings named differently the question is
// refused as before, never read as one of them.
func TestStarsAsRating(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "reviews", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("rating"),
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many 5 star reviews", "how many 5-star reviews this year", "how many reviews with 5 stars", "reviews with 5 stars last month"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		var got []string
		for _, f := range pl.Query.Filters {
			got = append(got, fmt.Sprintf("%s %s %v", f.Field, f.Op, f.Values))
		}
		if !strings.Contains(strings.Join(got, "; "), "reviews.rating = [5]") {
			t.Errorf("%q: filters %v; want the rating 5", q, got)
		}
	}
	two := &semantic.Model{Entities: []semantic.Entity{{Name: "reviews", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("food_rating"), id("service_rating")}}}}
	if pl := New(two, nil).Plan("how many 5 star reviews", asOf); pl.Query != nil {
		t.Errorf("two ratings: answered %+v", pl.Query.Filters)
	}
}
