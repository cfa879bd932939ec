package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// formsModel has names written the way real schemas write them: joined
// words, camel case, singular tables, and a state next to an event date.
func formsModel() *semantic.Model {
	col := func(name string, t quarry.Type, values ...string) semantic.Column {
		return semantic.Column{Name: name, Type: t, Values: values}
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Highschooler", PrimaryKey: "ID", Label: "name", Columns: []semantic.Column{
				col("ID", quarry.TypeInt), col("name", quarry.TypeText), col("grade", quarry.TypeInt)}},
			{Name: "superhero", PrimaryKey: "id", Label: "superhero_name", Columns: []semantic.Column{
				col("id", quarry.TypeInt), col("superhero_name", quarry.TypeText), col("height_cm", quarry.TypeInt)}},
			{Name: "country", PrimaryKey: "Code", Label: "Name", Columns: []semantic.Column{
				col("Code", quarry.TypeText), col("Name", quarry.TypeText), col("LifeExpectancy", quarry.TypeFloat),
				col("IsOfficial", quarry.TypeText, "T", "F")}},
			{Name: "company", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				col("id", quarry.TypeInt), col("name", quarry.TypeText), col("status", quarry.TypeText, "open", "closed"),
				col("opened_at", quarry.TypeDate)}},
			{Name: "person", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				col("id", quarry.TypeInt), col("name", quarry.TypeText), col("age", quarry.TypeInt)}},
		},
	}
}

// TestWordForms: a phrase that is another form of a known name — a
// plural, an irregular plural, a name's words written apart — is read as
// the name and the reading says so; a past form is never read as the
// state it comes from, nor a state as an event's date.
func TestWordForms(t *testing.T) {
	p := New(formsModel(), nil)
	for _, tc := range []struct {
		q      string
		field  string // a field the query must use
		reads  string // the explanation the plan must carry
		refuse bool
	}{
		{q: "how many superheroes", field: "superhero", reads: `"superheroes" read as "superhero"`},
		{q: "how many companies", field: "company"},
		{q: "average grade of high schoolers", field: "Highschooler.grade", reads: `"high schoolers" read as "highschoolers"`},
		{q: "average life expectancy of countries", field: "country.LifeExpectancy"}, // its words written together: a name of the column,
		{q: "how many people are older than 30", field: "person.age"},                // the plural of person, as written
		// "opened" is not the state open, nor "open" the date opened_at.
		{q: "how many companies opened", refuse: true},
		{q: "how many companies are open", field: "company.status"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.refuse {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v (understood %v), want no answer", pl.Query, pl.Understood)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			m := pl.Model(formsModel())
			c, err := semantic.Compile(m, *pl.Query, "sqlite")
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if sql := strings.ReplaceAll(c.SQL, `"`, ""); !strings.Contains(sql, tc.field) {
				t.Errorf("SQL does not use %s:\n%s", tc.field, c.SQL)
			}
			if tc.reads != "" && !slices.Contains(pl.Understood, tc.reads) {
				t.Errorf("understood %q, want %q among them", pl.Understood, tc.reads)
			}
		})
	}
}

// TestStems: the stemmer and the irregular forms.
func TestStems(t *testing.T) {
	for _, tc := range [][2]string{
		{"superheroes", "superhero"}, {"companies", "company"}, {"people", "person"}, {"sold", "sell"},
		{"enrolled", "enrolment"}, {"performed", "performance"}, {"children", "child"}, {"spoken", "speak"},
	} {
		if a, b := stemWord(tc[0]), stemWord(tc[1]); a != b {
			t.Errorf("stem(%q) = %q, stem(%q) = %q; want equal", tc[0], a, tc[1], b)
		}
	}
	for _, tc := range [][2]string{{"open", "opened"}, {"close", "closed"}} {
		if !stateForEvent([]string{tc[1]}, tc[0]) || !stateForEvent([]string{tc[0]}, tc[1]) {
			t.Errorf("%q and %q: want kept apart", tc[0], tc[1])
		}
	}
}

// TestVerbs: a form of the verb in one measure's name names the measure
// ("sell" for units sold), or is read past where the question names the
// measure already; "how much … sell" (money or units) is not guessed.
func TestVerbs(t *testing.T) {
	m := testModel()
	m.Metrics = append(m.Metrics, semantic.Metric{Name: "units_sold", Entity: "order_items", Expr: "SUM(order_items.quantity)", Time: "orders.ordered_at", Synonyms: []string{"units", "items sold"}})
	p := New(m, nil)
	for _, tc := range []struct {
		q       string
		metric  string // "" = no answer
		ignored string
	}{
		{q: "how many units did we sell in 2025", metric: "units_sold", ignored: "sell"},
		{q: "how many items were sold in 2025", metric: "units_sold", ignored: "sold"},
		{q: "which channel sold the most in 2025", metric: "units_sold"},
		// "How much" of selling is money: the sales, read as the one
		// measure of income, and said so.
		{q: "how much did we sell in 2025", metric: "revenue"},
		{q: "how many customers did we sell to"}, // whose measure: not said
		// What a group brings, generates or drives is what it has.
		{q: "which channel brings the most revenue", metric: "revenue", ignored: "brings"},
		{q: "which channel brings in the most revenue in 2025", metric: "revenue", ignored: "brings"},
		{q: "which country generates the most revenue", metric: "revenue", ignored: "generates"},
		{q: "which channel drives the most orders", metric: "orders", ignored: "drives"},
		{q: "which channel brings the most wombats"}, // an unknown measure is still not guessed
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.metric == "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v; want no answer", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if !slices.Contains(pl.Query.Metrics, tc.metric) {
				t.Errorf("metrics %v, want %s", pl.Query.Metrics, tc.metric)
			}
			if tc.ignored != "" && !slices.Contains(pl.Ignored, tc.ignored) {
				t.Errorf("ignored %v, want %q among them", pl.Ignored, tc.ignored)
			}
		})
	}
}

// TestEverydayWords: pronouns, "corresponding" and "named" carry nothing
// the query needs; "numbers of" counts (read past as "numbers", it
// dropped the count and listed the rows).
func TestEverydayWords(t *testing.T) {
	p := New(testModel(), nil)
	for _, q := range []string{"show the customers in Berlin and their corresponding country", "numbers of orders by channel"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric && pl.Kind != KindRows {
			t.Errorf("%q: %s %s %v", q, pl.Kind, pl.Reason, pl.Unknown)
		}
	}
	if pl := p.Plan("numbers of orders by channel", asOf); pl.Kind != KindMetric || len(pl.Query.Metrics) == 0 {
		t.Errorf("numbers of orders by channel: %s %+v", pl.Kind, pl.Query)
	}
}
