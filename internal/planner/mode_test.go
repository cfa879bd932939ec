package planner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
)

var modeQuestions = []struct {
	q    string
	kind Kind
}{
	{"What is the most common country of singers?", KindMetric},
	{"Give the country that is most common across all singers.", KindMetric},
	{"What is the most common singer country?", KindMetric},
	{"Which country is the most frequent across singers older than 30?", KindMetric},
	{"What is the most common stadium of concerts?", KindMetric}, // the stadium with the most concerts
	// Not a column's value: the rows counted would be the groups
	// themselves, each once.
	{"What is the most common singer?", KindUnanswered},
	// Another measure or another grouping beside it: not read.
	{"What is the most common country of singers by year?", KindUnanswered},
	{"What is the most common country of singers with the highest age?", KindUnanswered},
	{"What is the most common?", KindUnanswered},
	// The rows that have the most common value: not the value itself.
	{"Which singers have the most common country?", KindUnanswered},
	{"List the names of singers whose country is the most common.", KindUnanswered},
}

// TestModeGolden: "the most common X" groups by X, counts the rows and
// keeps the group with the most (the analyst's tie check then says
// whether another group has as many).
func TestModeGolden(t *testing.T) {
	m := learnedModel()
	p := New(m, nil)
	var b strings.Builder
	for _, tt := range modeQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s %v)", tt.q, pl.Kind, tt.kind, pl.Reason, pl.Unknown)
		}
		if pl.Kind == KindMetric && (pl.Query.Limit != 1 || len(pl.Query.Order) != 1 || !pl.Query.Order[0].Desc) {
			t.Errorf("Plan(%q) = %+v, want the first group by count", tt.q, pl.Query)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "mode-plans.golden"), b.String())
}
