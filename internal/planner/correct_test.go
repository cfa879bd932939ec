package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestDidYouMean checks that a question with misspelt terms is offered
// with each replaced by the closest known term, and only when the
// corrected question plans.
func TestDidYouMean(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	tests := []struct{ q, want string }{
		{"revnue by chanel", "revenue by channel"},
		{"Revnue in Germny", "revenue in germany"},
		{"ordres last month", "orders last month"},
		// The question's own words as well as the model's terms.
		{"revnue by mnth", "revenue by month"},
		{"ordres per wek", ""}, // "wek" is as near web as week: not guessed
		// A word left unknown by its phrase's misspelling stays.
		{"avrage order value last yaer", "average order value last year"},
		{"revnue by flurb", ""},                 // corrected, still unknown: no offer
		{"xyzzy by channel", ""},                // nothing near
		{"how many inactive subscriptions", ""}, // never the opposite: "active"
		{"revenue by channel", ""},              // answered: nothing to correct
		{"which customers placed more than 20 orders in 2025 by country", ""},
	}
	for _, tt := range tests {
		pl := p.Plan(tt.q, asOf)
		if pl.DidYouMean != tt.want {
			t.Errorf("Plan(%q).DidYouMean = %q, want %q (unknown %q, suggestions %q)", tt.q, pl.DidYouMean, tt.want, pl.Unknown, pl.Suggestions)
		}
	}
}
