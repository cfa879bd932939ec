package planner

import (
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
		checkFilters(t, q, p.Plan(q, asOf), []string{"reviews.rating = 5"}, nil)
	}
	two := &semantic.Model{Entities: []semantic.Entity{{Name: "reviews", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("food_rating"), id("service_rating")}}}}
	if pl := New(two, nil).Plan("how many 5 star reviews", asOf); pl.Query != nil {
		t.Errorf("two ratings: answered %+v", pl.Query.Filters)
	}
}
