package planner

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// helpdeskModel: tickets reach teams through their agent and through
// their product, routes of the same length, the products' declared first.
func helpdeskModel() *semantic.Model {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "teams", Table: "teams", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"),
				{Name: "name", Type: quarry.TypeText, Values: []string{"Billing", "Mobile"}}}},
			{Name: "products", Table: "products", PrimaryKey: "id", Label: "product_name", Columns: []semantic.Column{id("id"), id("team_id"),
				{Name: "product_name", Type: quarry.TypeText}}},
			{Name: "agents", Table: "agents", PrimaryKey: "id", Label: "surname", Columns: []semantic.Column{id("id"), id("team_id"),
				{Name: "first_name", Type: quarry.TypeText, Values: []string{"Alex", "Wei"}},
				{Name: "surname", Type: quarry.TypeText, Values: []string{"Kim", "Chen"}}}},
			{Name: "tickets", Table: "tickets", PrimaryKey: "id", TimeColumn: "submitted_at", Columns: []semantic.Column{id("id"), id("product_id"), id("agent_id"),
				{Name: "submitted_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{
			{From: "tickets", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "products", FromColumn: "team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "tickets", FromColumn: "agent_id", To: "agents", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "agents", FromColumn: "team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestViaNamedTables: a table the question names on the way to another
// (found from outside: "tickets handled by agents in the Billing team"
// counted tickets by their products' team; "tickets for products of the
// Billing team" and "orders from customers in Austin" were refused) is
// the route the answer takes; a question that names none takes the one
// declared first, and the join_path check warns on it.
func TestViaNamedTables(t *testing.T) {
	m := helpdeskModel()
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	const byAgents, byProducts = "LEFT JOIN teams ON teams.id = agents.team_id", "LEFT JOIN teams ON teams.id = products.team_id"
	for _, tt := range []struct {
		q, join string
	}{
		{"how many tickets handled by agents in the Billing team", byAgents},
		{"tickets by agent team", byAgents},
		{"tickets by the agent's team", byAgents},
		{"how many tickets for products of the Billing team", byProducts},
		{"tickets of agents in the Billing team last month", byAgents},
		{"list tickets from agents in the Billing team", byAgents},
		{"tickets by team through agents", byAgents},
		{"tickets by team via agents", byAgents},
		{"tickets by the team of their agents", byAgents},
		{"tickets by team of the product", byProducts},
		{"how many tickets in the Billing team through agents", byAgents},
		{"how many tickets last month in the Billing team through products", byProducts},
		{"how many tickets in the Billing team", byProducts},
		{"tickets by team", byProducts},
	} {
		pl := p.Plan(tt.q, asOf)
		if (pl.Kind != KindMetric && pl.Kind != KindRows) || pl.Query == nil {
			t.Errorf("%q: %s %s %s %v", tt.q, pl.Kind, pl.Reason, pl.Question, pl.Unknown)
			continue
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		if err != nil {
			t.Errorf("%q: %v", tt.q, err)
			continue
		}
		if !strings.Contains(c.SQL, tt.join) {
			t.Errorf("%q: want %q (via %v):\n%s", tt.q, tt.join, pl.Query.Via, c.SQL)
		}
		// The way is no group of its own.
		if strings.Contains(c.SQL, "GROUP BY") && (strings.Contains(c.SQL, "agents.surname") || strings.Contains(c.SQL, "products.product_name")) {
			t.Errorf("%q: grouped by the way too:\n%s", tt.q, c.SQL)
		}
	}
}

// TestNameBeforeDoVerb: a person's name at the end of a question with
// do-support is the name, not the verb (found from outside: "how many
// leave requests did Alex Kim have" was refused, "kim" read as a verb).
func TestNameBeforeDoVerb(t *testing.T) {
	m := helpdeskModel()
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many tickets did Alex Kim have", "which team does Wei Chen work in", "how many tickets did Kim have"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %s %v", q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		if err != nil || !strings.Contains(c.SQL, "agents.surname = ") {
			t.Errorf("%q: %v\n%v", q, err, c)
		}
	}
}

// TestRankWithoutAMeasure: a ranking that names no measure ("who are our
// top 10 customers this year", asked as a manager and refused) asks what
// to rank by, each option a question that ranks; one option alone is no
// choice, and the question is refused as before.
func TestRankWithoutAMeasure(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string][]string{
		"who are our top 10 customers this year": {"who are our top 10 customers this year by revenue", "who are our top 10 customers this year by orders", "who are our top 10 customers this year by subscriptions"},
		"top 5 products this year":               {"top 5 products this year by revenue", "top 5 products this year by units sold"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify || !slices.Equal(pl.Options, want) {
			t.Errorf("%q: %s %q %q", q, pl.Kind, pl.Question, pl.Options)
			continue
		}
		for _, o := range pl.Options {
			if op := p.Plan(o, asOf); op.Kind != KindMetric || op.Query == nil || len(op.Query.Order) == 0 {
				t.Errorf("option %q: %s %s", o, op.Kind, op.Reason)
			}
		}
	}
}

// TestNameOfTwoTables: a surname both doctors and patients have is asked
// back with whole questions that each answer ("how many admissions for
// doctor Price"), not "doctors.last_name = Price", which asked as given
// listed doctors (found from outside); a first name beside it that only
// one table has decides ("Emma Price", no patient being Emma).
func TestNameOfTwoTables(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	text := func(n string, vs ...string) semantic.Column {
		return semantic.Column{Name: n, Type: quarry.TypeText, Values: vs}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "doctors", Table: "doctors", PrimaryKey: "id", Columns: []semantic.Column{id("id"), text("first_name", "Emma", "Raj"), text("last_name", "Price", "Carter")}},
			{Name: "patients", Table: "patients", PrimaryKey: "id", Columns: []semantic.Column{id("id"), text("first_name", "Sam", "Ruth"), text("last_name", "Price", "Carter")}},
			{Name: "admissions", Table: "admissions", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("doctor_id"), id("patient_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "admissions", FromColumn: "doctor_id", To: "doctors", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "admissions", FromColumn: "patient_id", To: "patients", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("how many admissions for Price", asOf)
	want := []string{"how many admissions for doctor Price", "how many admissions for patient Price"}
	if pl.Kind != KindClarify || !slices.Equal(pl.Options, want) {
		t.Fatalf("%s %q", pl.Kind, pl.Options)
	}
	for i, o := range want {
		ent := []string{"doctors", "patients"}[i]
		sql, err := metricSQL(p, m, o, asOf)
		if err != nil || !strings.Contains(sql, ent+".last_name = 'Price'") {
			t.Errorf("%q: %v\n%s", o, err, sql)
		}
	}
	for q, ent := range map[string]string{"how many admissions for Emma Price": "doctors", "how many admissions for Sam Carter": "patients"} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || !strings.Contains(sql, ent+".last_name = ") {
			t.Errorf("%q: %v\n%s", q, err, sql)
		}
	}
}
