package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRoleAndKindReadings: a role naming the one link to another table
// is read as that table, and a plural value of a kind column as the rows
// of that kind; other words stay refused.
func TestRoleAndKindReadings(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q, read, note string // read empty: refused
	}{
		{"tickets by assignee", "tickets by employee", `"assignee" read as the employee of support_tickets.assignee_id`},
		{"tickets by agent last month", "tickets by employee last month", `"agent" read as the employee`},
		{"how many accountants", "how many Accountant employees", `"accountants" read as employees whose title is Accountant`},
		{"how many support agents in Finance", "how many Support Agent employees in Finance", `"support agents" read as employees whose title is Support Agent`},
		{"revenue by assignee", "", ""},
		{"how many engineers", "", ""},
		{"how many stores", "", ""},
		{"how many toys", "", ""},
		// A role said to be missing: the link's key column is empty,
		// for a self link too (found from outside: "no assignee",
		// "unassigned", "no manager" were not understood).
		{"how many tickets have no assignee", "how many tickets have no assignee id", `"assignee" read as support_tickets.assignee_id is empty`},
		{"tickets without an assignee last month", "tickets without an assignee id last month", `"assignee" read as support_tickets.assignee_id is empty`},
		{"how many open tickets are unassigned", "how many open tickets are with no assignee id", `"unassigned" read as support_tickets.assignee_id is empty`},
		{"how many tickets are unwatched", "", ""},
		{"how many orders have no assignee", "", ""},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.read == "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v; want a refusal", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Read != tt.read || len(pl.Notes) == 0 || !strings.Contains(pl.Notes[0], tt.note) {
				t.Fatalf("kind %s (%s), read %q, notes %q; want %q with %q", pl.Kind, pl.Reason, pl.Read, pl.Notes, tt.read, tt.note)
			}
		})
	}
}

// TestSelfLinkRoles: a table's link to itself reaches its rows in a role
// of their own (semantic.WithRoles), by which they are grouped, named or
// missing (found from outside: "manager" not understood).
func TestSelfLinkRoles(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"employees by manager":                "by manager.name",
		"customers by referrer":               "by referrer.name",
		"employees with no manager":           "manager none []",
		"how many customers have no referrer": "referrer none []",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		var got []string
		for _, d := range pl.Query.Dimensions {
			got = append(got, "by "+d.Name)
		}
		for _, f := range pl.Query.Filters {
			got = append(got, fmt.Sprintf("%s %s %v", f.Field, f.Op, f.Values))
		}
		if !slices.Contains(got, want) {
			t.Errorf("%q: %v; want %s", q, got, want)
		}
	}
}

// TestMissingRoleEnds: a missing role whose column's words do not end
// the unknown word is read once and refused, not rewritten without end
// (Spider's "stadiums without any concerts" ran the planner out of
// stack: "concerts" named singer_in_concert.concert_id, rewritten as
// "concert id", and again).
func TestMissingRoleEnds(t *testing.T) {
	col := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "stadium", Table: "stadium", PrimaryKey: "Stadium_ID", Label: "Name", Columns: []semantic.Column{col("Stadium_ID"), {Name: "Name", Type: quarry.TypeText}}},
			{Name: "concert", Table: "concert", PrimaryKey: "concert_ID", Columns: []semantic.Column{col("concert_ID"), col("Stadium_ID"), {Name: "Year", Type: quarry.TypeText}}},
			{Name: "singer", Table: "singer", PrimaryKey: "Singer_ID", Columns: []semantic.Column{col("Singer_ID")}},
			{Name: "singer_in_concert", Table: "singer_in_concert", Columns: []semantic.Column{col("concert_ID"), col("Singer_ID")}},
		},
		Relationships: []semantic.Relationship{
			{From: "concert", FromColumn: "Stadium_ID", To: "stadium", ToColumn: "Stadium_ID", Cardinality: semantic.ManyToOne},
			{From: "singer_in_concert", FromColumn: "concert_ID", To: "concert", ToColumn: "concert_ID", Cardinality: semantic.ManyToOne},
			{From: "singer_in_concert", FromColumn: "Singer_ID", To: "singer", ToColumn: "Singer_ID", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	// A planner that does not return fails by go test's -timeout, with
	// the stack of where it loops.
	New(m, nil).Plan("What are the names of the stadiums without any concerts?", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
}

// TestLinkWordIsValue: a word naming a link that also ends a value of
// the linked table is asked back in a ranking (a breakdown shows who
// each row is: "tickets by agent" stays answered) (found from outside: "top 3 agents by
// csat" ranked engineers with three escalated tickets first); the value
// said whole ranks the rows that hold it.
func TestLinkWordIsValue(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	// Each option is the question asked one way (the web page sends the
	// option picked as the next question), where both ways rank the
	// employees; the two words alone where one does not ("which support
	// agent closed the most tickets" is refused: it groups by the day).
	for q, want := range map[string][]string{
		"top 3 agents by csat":                {"top 3 assignees by csat", "top 3 support agents by csat"},
		"the agent with the best csat":        {"the assignees with the best csat", "the support agents with the best csat"},
		"which agent closed the most tickets": {"assignees", "support agents"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || !slices.Equal(pl.Options, want) {
			t.Errorf("%q: kind %s (%s) options %q; want a clarification between %q", q, pl.Kind, pl.Reason, pl.Options, want)
			continue
		}
		for i, o := range pl.Options {
			if qs := strings.Fields(q); !strings.HasSuffix(o, qs[len(qs)-1]) {
				continue // a word alone
			}
			again := p.Plan(o, asOf)
			if again.Kind != KindMetric {
				t.Errorf("%q: option %q is %s (%s); want it answered", q, o, again.Kind, again.Reason)
				continue
			}
			c, err := semantic.Compile(again.Model(p.m), *again.Query, "sqlite")
			if err != nil || strings.Contains(c.SQL, "employees.title = 'Support Agent'") != (i == 1) || !strings.Contains(c.SQL, "GROUP BY employees.id") {
				t.Errorf("%q: option %q: %v; want employees ranked, with the title condition only in the second:\n%s", q, o, err, c.SQL)
			}
		}
	}
	for q, want := range map[string]string{
		"top 3 support agents by csat":             "employees.title = 'Support Agent'",
		"top 3 assignees by csat":                  "GROUP BY employees.id, employees.name",
		"average csat by agent for support agents": "employees.title = 'Support Agent'",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: kind %s (%s); want a metric", q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil || !strings.Contains(c.SQL, want) {
			t.Errorf("%q: %v; SQL does not hold %q:\n%s", q, err, want, c.SQL)
		}
	}
}

// TestValueBeforeNamePart: "cats" is the species Cat (in both its
// spellings), not the word "cat" of the column treatment_cat (found from
// outside: "how many cats are registered" counted treatment categories).
func TestValueBeforeNamePart(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "pets", Table: "pets", PrimaryKey: "pet_id", Columns: []semantic.Column{col("pet_id", quarry.TypeInt), col("pet_name", quarry.TypeText),
				{Name: "species", Type: quarry.TypeText, Values: []string{"Bird", "Cat", "Dog", "cat"}}}},
			{Name: "treatments", Table: "treatments", PrimaryKey: "treatment_id", Columns: []semantic.Column{col("treatment_id", quarry.TypeInt), col("treatment_name", quarry.TypeText),
				{Name: "treatment_cat", Type: quarry.TypeText, Values: []string{"Dental", "Surgery"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many cats are registered", "number of cats", "how many dogs"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: kind %s (%s); want a count of pets", q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
		if err != nil || !strings.Contains(c.SQL, "COUNT(pets.pet_id)") || !strings.Contains(c.SQL, "pets.species") || strings.Contains(c.SQL, "treatment_cat") {
			t.Errorf("%q: %v\n%s", q, err, c.SQL)
		}
	}
	if pl := p.Plan("number of treatment cats", asOf); pl.Kind == KindMetric {
		c, _ := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
		if !strings.Contains(c.SQL, "treatment_cat") {
			t.Errorf("the column said whole is still the column:\n%s", c.SQL)
		}
	}
}

// TestSelfLinkRoleValue: a value said right after the key column or the
// word of a table's link to itself is the linked row's: "customers
// referred by Priya Dawson" are those whose referrer is Priya Dawson (found
// from outside: the customers named Priya Dawson were listed at confidence
// 1). A value said elsewhere stays the row's own.
func TestSelfLinkRoleValue(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	vals := []Value{{Entity: "customers", Column: "name", Value: "Grace Dawson"}, {Entity: "employees", Column: "name", Value: "Grace Moreau"}}
	for q, want := range map[string][]string{
		"customers referred by Grace Dawson":                    {"referrer.name = [Grace Dawson]"},
		"customers whose referrer is Grace Dawson":              {"referrer.name = [Grace Dawson]"},
		"customers in Germany referred by Grace Dawson":         {"country = [Germany]", "referrer.name = [Grace Dawson]"},
		"customers with a referrer in Germany":                  {"referrer.country = [Germany]"},
		"customers referred by someone in Germany":              {"referrer.country = [Germany]"},
		"list employees managed by Grace Moreau":                {"manager.name = [Grace Moreau]"},
		"customers named Grace Dawson":                          {"customer = [Grace Dawson]"},
		"how many customers have a referrer and are in Germany": {"country = [Germany]", "referrer some []"},
		// A role said alone is the rows that have one; a copula after it
		// says the next value of the subject, unless "whose" went first.
		"how many customers have a referrer":                {"referrer some []"},
		"how many customers with a referrer are in Germany": {"country = [Germany]", "referrer some []"},
		"customers whose referrer lives in Germany":         {"referrer.country = [Germany]"},
		// The link's participle: its key column says whose the value is
		// (found from outside: "how many customers were referred by
		// Grace Dawson" refused), or alone that the link is set.
		"how many customers were referred by Grace Dawson": {"referrer.name = [Grace Dawson]"},
		"customers who were referred by Grace Dawson":      {"referrer.name = [Grace Dawson]"},
		"number of customers referred by Grace Dawson":     {"referrer.name = [Grace Dawson]"},
		"how many customers were referred":                 {"customers.referred_by is_not_null []"},
		"employees who are managed by Grace Moreau":        {"manager.name = [Grace Moreau]"},
	} {
		pl := p.PlanValues(q, asOf, vals)
		got := filterTexts(pl)
		if !slices.Equal(got, want) {
			t.Errorf("%q: %s %q, filters %v; want %v", q, pl.Kind, pl.Reason, got, want)
		}
		if strings.HasPrefix(q, "how many") || strings.HasPrefix(q, "number of") {
			if pl.Kind != KindMetric {
				t.Errorf("%q: %s; want a count", q, pl.Kind)
			}
		}
	}
}

// TestValueAlsoOwnLink: a value of another table, said in a word that
// also names a link of the subject's own, is asked back: the two readings
// count different rows (found from outside: "customers who came through a
// referral" counted those with a referral web session, at 1.00, where
// customers.referred_by says who was referred). Naming the value's table
// settles it.
func TestValueAlsoOwnLink(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many customers came through a referral", "customers who came through referral"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || len(pl.Options) != 2 || !strings.HasSuffix(pl.Options[0], "customers with a referrer") || !strings.HasSuffix(pl.Options[1], "customers with a referral web session") {
			t.Errorf("%q: %s (%s) %q; want a choice between the referrer and the sessions' source", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		// Each option is a question of its own, answered when asked.
		for _, o := range pl.Options {
			if got := p.Plan(o, asOf); got.Kind != KindMetric && got.Kind != KindRows {
				t.Errorf("%q: option %q is %s (%s)", q, o, got.Kind, got.Reason)
			}
		}
	}
	for _, q := range []string{"number of customers with a referral web session", "how many customers have a referral session", "web sessions from referral"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindMetric {
			t.Errorf("%q: %s (%s) %q; want a metric", q, pl.Kind, pl.Reason, pl.Question)
		}
	}
}
