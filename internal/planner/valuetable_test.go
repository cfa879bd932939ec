package planner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// worldModel has a name and a population in two tables, and a value
// (Georgia) that is a name in both.
func worldModel() *semantic.Model {
	c := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "country", PrimaryKey: "Code", Label: "Name", Columns: []semantic.Column{
				c("Code", quarry.TypeText), c("Name", quarry.TypeText, "Angola", "Georgia", "Brazil"), c("Region", quarry.TypeText),
				c("Population", quarry.TypeInt), c("LifeExpectancy", quarry.TypeFloat)}},
			{Name: "city", PrimaryKey: "ID", Label: "Name", Columns: []semantic.Column{
				c("ID", quarry.TypeInt), c("Name", quarry.TypeText, "Kabul", "Georgia", "Luanda"), c("CountryCode", quarry.TypeText),
				c("Population", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "city", FromColumn: "CountryCode", To: "country", ToColumn: "Code", Cardinality: semantic.ManyToOne},
		},
	}
}

var valueTableQuestions = []struct {
	q    string
	kind Kind
}{
	{"What are the region and population of Angola?", KindRows},
	{"What region does Angola belong to and what is its population?", KindRows},
	{"What is the population of Kabul?", KindRows},
	{"What is Kabul's id?", KindRows},
	// Georgia is a country and a city: quarry asks which.
	{"What is the population of Georgia?", KindClarify},
	// The cities are named: not the country's population.
	{"What is the population of the cities in Angola?", KindRows},
	// No value: still a question.
	{"What is the population?", KindClarify},
}

// TestValueTableGolden: a column word of two tables is the column of the
// table the question's value belongs to, unless the value belongs to
// both or the question names the other table.
func TestValueTableGolden(t *testing.T) {
	m := worldModel()
	p := New(m, nil)
	var b strings.Builder
	for _, tt := range valueTableQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s %v)", tt.q, pl.Kind, tt.kind, pl.Reason, pl.Unknown)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "value-table-plans.golden"), b.String())
}
