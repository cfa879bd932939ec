package planner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// learnedModel is what `quarry learn` builds for a small database with no
// curated metrics (Spider's concert_singer): entities, columns with types
// and known values, relationships from foreign keys.
func learnedModel() *semantic.Model {
	c := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "stadium", PrimaryKey: "Stadium_ID", Label: "Name", Columns: []semantic.Column{
				c("Stadium_ID", quarry.TypeInt), c("Location", quarry.TypeText, "Raith Rovers", "Ayr United", "East Fife", "Queen's Park"),
				c("Name", quarry.TypeText), c("Capacity", quarry.TypeInt), c("Highest", quarry.TypeInt), c("Lowest", quarry.TypeInt),
				c("Average", quarry.TypeInt)}},
			{Name: "singer", PrimaryKey: "Singer_ID", Label: "Name", Columns: []semantic.Column{
				c("Singer_ID", quarry.TypeInt), c("Name", quarry.TypeText), c("Country", quarry.TypeText, "Netherlands", "United States", "France"),
				c("Song_Name", quarry.TypeText), c("Song_release_year", quarry.TypeText), c("Age", quarry.TypeInt), c("Is_male", quarry.TypeText, "T", "F")}},
			{Name: "concert", PrimaryKey: "concert_ID", Label: "concert_Name", Columns: []semantic.Column{
				c("concert_ID", quarry.TypeInt), c("concert_Name", quarry.TypeText), c("Theme", quarry.TypeText),
				c("Stadium_ID", quarry.TypeText), c("Year", quarry.TypeText, "2014", "2015")}},
			{Name: "singer_in_concert", PrimaryKey: "concert_ID", Columns: []semantic.Column{
				c("concert_ID", quarry.TypeInt), c("Singer_ID", quarry.TypeText)}},
		},
		Relationships: []semantic.Relationship{
			{From: "concert", FromColumn: "Stadium_ID", To: "stadium", ToColumn: "Stadium_ID", Cardinality: semantic.ManyToOne},
			{From: "singer_in_concert", FromColumn: "concert_ID", To: "concert", ToColumn: "concert_ID", Cardinality: semantic.ManyToOne},
			{From: "singer_in_concert", FromColumn: "Singer_ID", To: "singer", ToColumn: "Singer_ID", Cardinality: semantic.ManyToOne},
		},
	}
}

var learnedQuestions = []struct {
	q    string
	kind Kind
}{
	{"How many singers do we have?", KindMetric},
	{"What is the total number of singers?", KindMetric},
	{"What is the average, minimum, and maximum age of all singers from France?", KindMetric},
	{"How many singers are from each country?", KindMetric},
	{"Show all countries and the number of singers in each country.", KindMetric},
	{"What is the average and maximum capacities for all stadiums?", KindMetric},
	{"Which year has most number of concerts?", KindMetric},
	{"Show the stadium name and the number of concerts in each stadium.", KindMetric},
	{"What are the names of the countries that have more than 2 singers?", KindMetric},
	{"List the names of singers older than 30", KindRows},
	{"What is the name of the youngest singer?", KindRows},
	{"How many concerts are there in year 2014 or 2015?", KindMetric}, // "year": the years go on it
	{"How many concerts occurred in 2014 or 2015?", KindMetric},
	{"What is the year that had the most concerts?", KindMetric},
	{"Find the number of concerts happened in the stadium with the highest capacity.", KindUnanswered},
	{"How many stadiums have more than 2 concerts?", KindMetric},
	{"What is the maximum capacity for different number of concerts?", KindUnanswered},
	{"What is the name of the singer who is the oldest?", KindRows},
	{"Give me all the information about singers.", KindRows},
	{"List the names of singers in descending order of age.", KindRows},
	{"What are the names and ages of singers, ordered by age?", KindRows},
	{"Sort the singer names by their age in ascending order.", KindRows},
	{"Show the stadium names and the number of concerts in each stadium, ordered by stadium name.", KindMetric},
	{"List the names of singers in descending order.", KindUnanswered},
	{"What are the distinct countries of singers?", KindRows},
	{"What are the names of singers that have more than one concert?", KindMetric},
	{"List all song names by singers above the average age.", KindRows},
	{"What are the names of the singers who are not French?", KindRows}, // French: the value France
	{"Show location and name for all stadiums with a capacity between 5000 and 10000.", KindRows},
}

func TestLearnedModelGolden(t *testing.T) {
	m := learnedModel()
	p := New(m, nil)
	var b strings.Builder
	for _, tt := range learnedQuestions {
		pl := p.Plan(tt.q, asOf)
		if pl.Kind != tt.kind {
			t.Errorf("Plan(%q).Kind = %s, want %s (%s)", tt.q, pl.Kind, tt.kind, pl.Reason)
		}
		b.WriteString(planText(m, tt.q, pl))
	}
	goldentest.AssertString(t, filepath.Join("testdata", "learned-plans.golden"), b.String())
}
