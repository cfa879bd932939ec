package analyst

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPathCheck: tickets join employees by assignee and by opener, equally
// well; the compiler takes the one declared first. Grouped by the
// employee's department, the two paths give different answers, and the
// check says so; counted without the employees, they agree.
func TestPathCheck(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE employees (id INTEGER PRIMARY KEY, department TEXT);
CREATE TABLE tickets (id INTEGER PRIMARY KEY, assignee_id INTEGER, opener_id INTEGER);
INSERT INTO employees VALUES (1, 'Support'), (2, 'Sales');
INSERT INTO tickets VALUES (1, 1, 2), (2, 1, 2), (3, 2, 2);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "employees", Table: "employees", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "department", Type: quarry.TypeText}}},
			{Name: "tickets", Table: "tickets", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "assignee_id", Type: quarry.TypeInt}, {Name: "opener_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "tickets", FromColumn: "assignee_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "tickets", FromColumn: "opener_id", To: "employees", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics:    []semantic.Metric{{Name: "tickets", Entity: "tickets", Expr: "COUNT(tickets.id)"}},
		Dimensions: []semantic.Dimension{{Name: "department", Entity: "employees", Expr: "employees.department"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(q semantic.Query) (string, string) {
		ch := runCheck(t, a, m, q, a.PathCheck)
		return ch.Status, ch.Detail
	}
	status, detail := check(semantic.Query{Metrics: []string{"tickets"}, Dimensions: []semantic.DimRef{{Name: "department"}}})
	if status != "warn" || !strings.Contains(detail, "tickets.opener_id = employees.id the result differs") || !strings.Contains(detail, "control query: SELECT") {
		t.Errorf("tickets by department: %s %q", status, detail)
	}
	if status, detail := check(semantic.Query{Metrics: []string{"tickets"}}); status != "" {
		t.Errorf("tickets in all, no join: %s %q", status, detail)
	}
}

// TestPathCheckNamedRoute: tickets reach teams through their agent and
// through their product. Asked through the agents ("tickets handled by
// agents in the Billing team"; found from outside: counted by the
// products' team, with a warning), the answer follows the route named and
// the check passes, saying what the other route gives; asked without a
// route, it still warns.
func TestPathCheckNamedRoute(t *testing.T) {
	a := sqliteAnalyst(t, ticketTeamsDB)
	m := ticketTeamsModel()
	billing := []semantic.Filter{{Field: "teams.name", Op: semantic.OpEq, Values: []any{"Billing"}}}
	for _, tt := range []struct {
		name   string
		q      semantic.Query
		count  int64
		status string
		says   string
	}{
		{"through the agents", semantic.Query{Metrics: []string{"tickets"}, Filters: billing, Via: []string{"agents"}}, 4, "pass", "teams reached through agents (tickets.agent_id = agents.id and agents.team_id = teams.id), which the question names; through products"},
		{"through the products", semantic.Query{Metrics: []string{"tickets"}, Filters: billing, Via: []string{"products"}}, 3, "pass", "which the question names"},
		{"no route named", semantic.Query{Metrics: []string{"tickets"}, Filters: billing}, 3, "warn", "the route declared first"},
	} {
		c, err := semantic.Compile(m, tt.q, quarry.DialectSQLite)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.read(context.Background(), c.SQL, Limits{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Table.Rows[0][0]; got != tt.count {
			t.Errorf("%s: %v tickets, want %d\n%s", tt.name, got, tt.count, c.SQL)
		}
		ch := a.PathCheck(context.Background(), m, &tt.q, res, c)
		if ch.Status != tt.status || !strings.Contains(ch.Detail, tt.says) {
			t.Errorf("%s: %s %q", tt.name, ch.Status, ch.Detail)
		}
	}
}

// ticketTeamsDB: tickets reach teams through their agent and through their
// product; for Billing the two routes count 4 and 3 tickets.
const ticketTeamsDB = `CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, team_id INTEGER);
CREATE TABLE agents (id INTEGER PRIMARY KEY, team_id INTEGER);
CREATE TABLE tickets (id INTEGER PRIMARY KEY, product_id INTEGER, agent_id INTEGER);
INSERT INTO teams VALUES (1, 'Billing'), (2, 'Mobile');
INSERT INTO products VALUES (1, 1), (2, 2);
INSERT INTO agents VALUES (1, 1), (2, 2);
INSERT INTO tickets VALUES (1, 1, 1), (2, 1, 2), (3, 2, 1), (4, 1, 1), (5, 2, 1);`

func ticketTeamsModel() *semantic.Model {
	cols := func(names ...string) []semantic.Column {
		out := make([]semantic.Column, len(names))
		for i, n := range names {
			out[i] = semantic.Column{Name: n, Type: quarry.TypeInt}
		}
		return out
	}
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "teams", Table: "teams", PrimaryKey: "id", Label: "name", Columns: append(cols("id"), semantic.Column{Name: "name", Type: quarry.TypeText, Values: []string{"Billing", "Mobile"}})},
			{Name: "products", Table: "products", PrimaryKey: "id", Columns: cols("id", "team_id")},
			{Name: "agents", Table: "agents", PrimaryKey: "id", Columns: cols("id", "team_id")},
			{Name: "tickets", Table: "tickets", PrimaryKey: "id", Columns: cols("id", "product_id", "agent_id")},
		},
		Relationships: []semantic.Relationship{
			{From: "tickets", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "products", FromColumn: "team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "tickets", FromColumn: "agent_id", To: "agents", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "agents", FromColumn: "team_id", To: "teams", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "tickets", Entity: "tickets", Expr: "COUNT(tickets.id)"}},
	}
}

// TestAskWhichRoute: where two routes to a table give different answers
// and the question names neither ("how many tickets in the Billing
// team": found from outside, answered by the products' team with only a
// warning), the builtin planner asks which, with each option a question
// that takes its route; an option asked is answered by it.
func TestAskWhichRoute(t *testing.T) {
	a := sqliteAnalyst(t, ticketTeamsDB)
	m := ticketTeamsModel()
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many tickets in the Billing team", asOf)
	if err == nil || out.Status != "clarify" || out.Plan == nil || out.Table != nil {
		t.Fatalf("status %q, err %v, plan %+v", out.Status, err, out.Plan)
	}
	want := []string{"how many tickets in the Billing team through products", "how many tickets in the Billing team through agents"}
	if !slices.Equal(out.Plan.Options, want) || !strings.Contains(out.Plan.Question, "The answers differ") {
		t.Fatalf("asked %q with %q", out.Plan.Question, out.Plan.Options)
	}
	// A ranking asks with "through …" right after the table reached,
	// where at the end it would not take its route.
	out, err = a.Ask(context.Background(), event.NewRecorder("r3", a.Clock, &memSink{}), k, "top 1 teams by tickets", asOf)
	if err == nil || out.Plan == nil || len(out.Plan.Options) != 2 || !strings.HasPrefix(out.Plan.Options[0], "top 1 teams through ") {
		t.Errorf("top 1 teams by tickets: %v, %+v", err, out.Plan)
	}
	for i, n := range []int64{3, 4} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, want[i], asOf)
		if err != nil || out.Table == nil || out.Table.Rows[0][0] != n {
			t.Errorf("%q: %v %+v", want[i], err, out.Table)
		}
	}
}

// libraryDB has loans that reach a branch two ways: by the member's home
// branch (two joins) and by the branch of the copy's book (three).
const libraryDB = `CREATE TABLE branches (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT, home_branch_id INTEGER REFERENCES branches(id));
CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, branch_id INTEGER REFERENCES branches(id));
CREATE TABLE copies (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES books(id));
CREATE TABLE loans (id INTEGER PRIMARY KEY, member_id INTEGER REFERENCES members(id), copy_id INTEGER REFERENCES copies(id));
INSERT INTO branches VALUES (1, 'Central'), (2, 'Riverside');
INSERT INTO members VALUES (1, 'Ann', 1), (2, 'Bo', 2);
INSERT INTO books VALUES (1, 'Dune', 2), (2, 'Emma', 1);
INSERT INTO copies VALUES (1, 1), (2, 2);
INSERT INTO loans VALUES (1, 1, 1), (2, 1, 1), (3, 2, 2), (4, 1, 2);`

func libraryModel() *semantic.Model {
	col := func(n string, t quarry.Type) semantic.Column { return semantic.Column{Name: n, Type: t} }
	id := col("id", quarry.TypeInt)
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "branches", Table: "branches", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id, {Name: "name", Type: quarry.TypeText, Values: []string{"Central", "Riverside"}}}},
			{Name: "members", Table: "members", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id, col("name", quarry.TypeText), col("home_branch_id", quarry.TypeInt)}},
			{Name: "books", Table: "books", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{id, col("title", quarry.TypeText), col("branch_id", quarry.TypeInt)}},
			{Name: "copies", Table: "copies", PrimaryKey: "id", Columns: []semantic.Column{id, col("book_id", quarry.TypeInt)}},
			{Name: "loans", Table: "loans", PrimaryKey: "id", Columns: []semantic.Column{id, col("member_id", quarry.TypeInt), col("copy_id", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "loans", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "loans", FromColumn: "copy_id", To: "copies", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "copies", FromColumn: "book_id", To: "books", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "members", FromColumn: "home_branch_id", To: "branches", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "books", FromColumn: "branch_id", To: "branches", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}

// TestAskWhichRouteLonger: loans reach branches by the member's home
// branch in two joins and by the book's branch in three; the compiler
// took the shorter at 1.00 though the answers differ (found from
// outside: "top branch by loans" named the last branch by the book's).
// Asked without a route, quarry asks which; each option is answered by
// its route.
func TestAskWhichRouteLonger(t *testing.T) {
	a := sqliteAnalyst(t, libraryDB)
	m := libraryModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many loans at Central", asOf)
	if err == nil || out.Status != "clarify" || out.Plan == nil || len(out.Plan.Options) != 2 {
		t.Fatalf("status %q, err %v, plan %+v", out.Status, err, out.Plan)
	}
	opts := out.Plan.Options
	for i, n := range []int64{3, 2} { // Ann's 3 loans; the 2 of Emma, Central's book
		out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, opts[i], asOf)
		if err != nil || out.Table == nil || out.Table.Rows[0][0] != n {
			t.Errorf("%q: %v %+v", opts[i], err, out.Table)
		}
	}
}

// TestSameRowsByName: the control may show a column the answer leaves
// out; the rows are the same when every column of the answer holds the
// same values (found from outside: a false join_path warning). A column
// of the answer that the control lacks, or another value, is not.
func TestSameRowsByName(t *testing.T) {
	col := func(n string) quarry.Column { return quarry.Column{Name: n, Type: quarry.TypeInt} }
	answer := &quarry.Table{Columns: []quarry.Column{col("id"), col("amount")}, Rows: [][]any{{int64(1), int64(10)}, {int64(2), int64(20)}}}
	control := &quarry.Table{Columns: []quarry.Column{col("id"), col("account_id"), col("amount")}, Rows: [][]any{{int64(1), int64(7), int64(10)}, {int64(2), int64(8), int64(20)}}}
	if !sameRows(answer, control) {
		t.Error("the same rows, one column more in the control: said to differ")
	}
	other := &quarry.Table{Columns: control.Columns, Rows: [][]any{{int64(1), int64(7), int64(10)}, {int64(2), int64(8), int64(21)}}}
	if sameRows(answer, other) {
		t.Error("another amount: said to be the same")
	}
	lacking := &quarry.Table{Columns: []quarry.Column{col("id")}, Rows: [][]any{{int64(1)}, {int64(2)}}}
	if sameRows(answer, lacking) {
		t.Error("a control without the amount: said to be the same")
	}
}
