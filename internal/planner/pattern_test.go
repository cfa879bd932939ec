package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTextPatternsRead: the words of a text pattern, quoted in any of
// the ways questions quote, and the column's words before or after.
func TestTextPatternsRead(t *testing.T) {
	type got struct {
		Op            semantic.Op
		Value         string
		Quoted        bool
		Before, After string
		Owner         string
	}
	for _, tt := range []struct {
		q    string
		want []got // nil: no pattern
	}{
		{"customers whose name contains 'smith'", []got{{semantic.OpLike, "smith", true, "name", "", "customers"}}},
		{"customers whose name contains Smith", []got{{semantic.OpLike, "Smith", false, "name", "", "customers"}}},
		{"cities starting with “San”", []got{{semantic.OpPrefix, "San", true, "cities", "", ""}}},
		{"names ending in ``son''", []got{{semantic.OpSuffix, "son", true, "names", "", ""}}},
		{"documents that contain the letter w in their description", []got{{semantic.OpLike, "w", true, "documents", "description", ""}}},
		{"a singer who has a song having 'Hey' in its name", []got{{semantic.OpLike, "Hey", true, "", "name", ""}}},
		{"the department whose name has the substring the computer", []got{{semantic.OpLike, "computer", true, "name", "", "department"}}},
		{"how many products contain 'Pro'", []got{{semantic.OpLike, "Pro", true, "products", "", ""}}},
		// An apostrophe inside a word quotes nothing.
		{"the people's names that begin with 'O'Brien'", []got{{semantic.OpPrefix, "O'Brien", true, "names", "", ""}}},
		{"names starting with A", []got{{semantic.OpPrefix, "A", false, "names", "", ""}}},
		{"names starting with a B", []got{{semantic.OpPrefix, "B", false, "names", "", ""}}},
		{"customers with the word 'VIP' in notes", []got{{semantic.OpLike, "VIP", true, "", "notes", ""}}},
		{"tickets mentioning 'refund' in March", []got{{semantic.OpLike, "refund", true, "tickets", "", ""}}},
		// Negated: no operator, which the planner refuses.
		{"customers whose name does not contain 'a'", []got{{"", "a", true, "", "", ""}}},
		{"customers whose name doesn't start with 'a'", []got{{"", "a", true, "", "", ""}}},
		// A value said with "with" is a value, not a piece of text.
		{"customers with 'Gold' status", nil},
		{"orders with a discount", nil},
		{"revenue by month", nil},
	} {
		var gs []got
		for _, tp := range textPatterns(tt.q) {
			op := tp.op
			if tp.negated {
				op = ""
			}
			gs = append(gs, got{op, tp.value, tp.quoted, strings.Join(tp.before, " "), strings.Join(tp.after, " "), tp.owner})
		}
		if diff := cmp.Diff(tt.want, gs); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.q, diff)
		}
	}
}

// TestTextPatternPlans: a pattern is a filter on the column it is said
// of, of the rows the question is about; refused where that column is
// restricted, unknown, or one of several, or where the pattern is
// negated. A bare word said of no column is read as the planner reads
// any word.
func TestTextPatternPlans(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "contestants", Table: "contestants", PrimaryKey: "contestant_number", Label: "contestant_name", Columns: []semantic.Column{
				col("contestant_number", quarry.TypeInt), col("contestant_name", quarry.TypeText)}},
			{Name: "owners", Table: "owners", PrimaryKey: "owner_id", Columns: []semantic.Column{
				col("owner_id", quarry.TypeInt), col("first_name", quarry.TypeText), col("last_name", quarry.TypeText),
				col("state", quarry.TypeText), col("email_address", quarry.TypeText), col("zip_code", quarry.TypeInt)}},
			{Name: "dogs", Table: "dogs", PrimaryKey: "dog_id", Label: "name", Columns: []semantic.Column{
				col("dog_id", quarry.TypeInt), col("owner_id", quarry.TypeInt), col("name", quarry.TypeText),
				col("breed_code", quarry.TypeText), col("weight", quarry.TypeFloat)}},
		},
		Relationships: []semantic.Relationship{{From: "dogs", FromColumn: "owner_id", To: "owners", ToColumn: "owner_id", Cardinality: semantic.ManyToOne}},
		Restricted:    []string{"owners.email_address"},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		want []string // fragments of the SQL; nil: refused
		kind Kind     // the refusal's kind, where it matters
	}{
		{"Return the names of the contestants whose names contain the substring 'Al'", []string{`LOWER(contestants.contestant_name) LIKE '%al%'`}, ""},
		{"how many contestants have 'son' in their name", []string{`COUNT(contestants.contestant_number)`, `LIKE '%son%'`}, ""},
		{"Which owners live in the state whose name contains the substring 'North'? List his first name, last name", []string{`LOWER(owners.state) LIKE '%north%'`, "owners.first_name"}, ""},
		{"owners whose last name starts with 'Mc'", []string{`LOWER(owners.last_name) LIKE 'mc%'`}, ""},
		{"how many dogs whose name ends with 'y'", []string{`LOWER(dogs.name) LIKE '%y'`}, ""},
		// No column named: the one that names the rows, said so.
		{"which dogs contain 'Rex'", []string{`LOWER(dogs.name) LIKE '%rex%'`}, ""},
		// '%' and '_' in the text match only themselves.
		{"dogs whose breed code starts with 'A_1%'", []string{`LIKE 'a!_1!%%' ESCAPE '!'`}, ""},
		{"owners whose email address contains 'gmail'", nil, KindRefuse},
		{"owners whose email contains 'gmail'", nil, ""},
		{"owners whose name contains 'Mc'", nil, KindUnanswered},     // first or last?
		{"owners whose nickname contains 'Mc'", nil, KindUnanswered}, // no such column
		{"owners whose zip code starts with '27'", nil, KindUnanswered},
		{"owners whose state does not contain 'North'", nil, KindUnanswered},
		{"how many dogs with names not starting with A", nil, KindUnanswered},
		{"owners containing 'x'", nil, KindUnanswered}, // owners name none of their rows
	} {
		pl := p.Plan(tt.q, asOf)
		if tt.want == nil {
			if pl.Kind == KindMetric || pl.Kind == KindRows {
				t.Errorf("%q: answered %+v; want a refusal", tt.q, pl.Query)
			} else if tt.kind != "" && pl.Kind != tt.kind {
				t.Errorf("%q: %s %q; want %s", tt.q, pl.Kind, pl.Reason, tt.kind)
			}
			continue
		}
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", tt.q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
		if err != nil {
			t.Errorf("%q: %v", tt.q, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(c.SQL, w) {
				t.Errorf("%q: SQL does not hold %q:\n%s", tt.q, w, c.SQL)
			}
		}
	}
	if pl := p.Plan("which dogs contain 'Rex'", asOf); !strings.Contains(strings.Join(pl.Notes, " "), "dogs.name, the column that names dogs") {
		t.Errorf("the column no word named is not said: %q", pl.Notes)
	}
}

// TestTextPatternsOnTheDemo: a bare word or a known value said of no
// column is read as before, never as a piece of text.
func TestTextPatternsOnTheDemo(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"orders that include 'Nimbus Gaming Mouse'", "orders containing Electronics products"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			continue
		}
		for _, f := range pl.Query.Filters {
			if f.Op == semantic.OpLike || f.Op == semantic.OpPrefix || f.Op == semantic.OpSuffix {
				t.Errorf("%q: read as a piece of text: %+v", q, f)
			}
		}
	}
	pl := p.Plan("customers whose name starts with 'A' and whose city contains 'on'", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 2 {
		t.Fatalf("two patterns: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestTextPatternsFromOutside: what an outside tester found read wrong at
// confidence 1.00 — "name" taken from the table rows belong to, a
// description left out for the title, two pieces joined by "or" read as
// both — is refused now, saying what to name.
func TestTextPatternsFromOutside(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "states", Table: "states", PrimaryKey: "code", Label: "name", Columns: []semantic.Column{col("code", quarry.TypeText), col("name", quarry.TypeText)}},
			{Name: "members", Table: "members", PrimaryKey: "id", Columns: []semantic.Column{
				col("id", quarry.TypeInt), col("first_name", quarry.TypeText), col("last_name", quarry.TypeText), col("city", quarry.TypeText), col("state", quarry.TypeText)}},
			{Name: "directors", Table: "directors", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{col("id", quarry.TypeInt), col("name", quarry.TypeText)}},
			{Name: "films", Table: "films", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{
				col("id", quarry.TypeInt), col("title", quarry.TypeText), col("description", quarry.TypeText), col("director_id", quarry.TypeInt), col("release_year", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "members", FromColumn: "state", To: "states", ToColumn: "code", Cardinality: semantic.ManyToOne},
			{From: "films", FromColumn: "director_id", To: "directors", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string]string{
		"how many members whose name contains 'smith'":                                   "could be members.first_name or members.last_name",
		"how many films mentioning 'refund'":                                             "films.title or films.description",
		"how many members whose last name contains 'son' or whose city ends with 'burg'": "“or”",
		"members whose last name contains 'son' or 'sen'":                                "“or”",
	} {
		if pl := p.Plan(q, asOf); pl.Query != nil || !strings.Contains(pl.Reason, want) {
			t.Errorf("%q: %s %q %+v; want a refusal saying %q", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
	// The films' own name is their title, never their director's.
	pl := p.Plan("how many films whose name contains 'Wolf'", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "films.title" {
		t.Errorf("films' name: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	// "Released": the films' release_year, which the years go on.
	pl = p.Plan("how many films released after 2000", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "films.release_year" || pl.Query.Filters[0].Op != semantic.OpGt {
		t.Errorf("released after 2000: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestUnquotedTextInTheColumn: "with golden war in the title", unquoted,
// is a piece of the title, not the whole of it (found from outside: read
// as title = 'Golden War', 1 for 4); a period after "in the" is none.
func TestUnquotedTextInTheColumn(t *testing.T) {
	col := func(name string, typ quarry.Type, vals ...string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, Values: vals}
	}
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "books", Table: "books", PrimaryKey: "id", Label: "title", TimeColumn: "added_on", Columns: []semantic.Column{
		col("id", quarry.TypeInt), col("title", quarry.TypeText, "Golden War", "Handbook"), col("added_on", quarry.TypeDate)}}}}
	metricCases(t, m, []struct{ q, want string }{
		{"how many books have golden war in the title", "LIKE '%golden war%'"},
		{"how many books with Handbook in their title", "LIKE '%handbook%'"},
		{"how many books with war in the title", "LIKE '%war%'"},
		{"how many books added in the last month", "books.added_on >="},
	})
}
