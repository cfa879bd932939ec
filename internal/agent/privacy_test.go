package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// people is a table whose every value of a row is distinctive enough to
// be searched for in a request body: names, e-mail addresses, salaries,
// birth dates and order amounts. Atlantis has 6 people and Lemuria 5
// (groups an aggregates-only connection may show); Hyperborea has one
// person with 6 orders (a group of one, however its rows are joined).
type people struct {
	names, emails, salaries, born, amounts []string
}

func peopleData() people {
	p := people{
		names: []string{"Zebulon Quist", "Ottoline Varga", "Peregrine Okafor", "Isolde Marchetti", "Thaddeus Wren", "Marisol Achterberg",
			"Casimir Lindqvist", "Henrietta Obiora", "Leopold Szabolcs", "Wilhelmina Chowdry", "Barnaby Kowalczyk", "Seraphina Dunleavy"},
		salaries: []string{"731947", "658213", "812459", "594371", "703859", "689147", "776923", "621589", "845317", "567893", "798431", "912743"},
	}
	for i, n := range p.names {
		p.emails = append(p.emails, strings.ToLower(strings.ReplaceAll(n, " ", "."))+"@example.test")
		p.born = append(p.born, fmt.Sprintf("19%02d-%02d-%02d", 51+i*3, 1+i%12, 3+i*2))
	}
	for i := range 17 {
		p.amounts = append(p.amounts, fmt.Sprintf("%d.%02d", 4471+i*389, 13+i*5))
	}
	return p
}

// forbidden are every value of a row that no request may carry under a
// restricted tier: every cell of people and orders except the countries
// of groups of at least 5, which aggregates-only may show as keys.
func (p people) forbidden() []string {
	out := append(append(append(append(append([]string{"Hyperborea", referral}, p.names...), p.emails...), p.salaries...), p.born...), p.amounts...)
	for _, n := range p.names {
		_, last, _ := strings.Cut(n, " ")
		out = append(out, last)
	}
	return out
}

// referral is the one referred_by that is not NULL among Atlantis's first
// five people: a sum over the five that NULLs pad is this one value.
const referral = "918273"

func peopleEnv(t *testing.T) (*env, people) {
	t.Helper()
	p := peopleData()
	dir := t.TempDir()
	path := filepath.Join(dir, "people.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, country TEXT NOT NULL, salary INTEGER NOT NULL, born TEXT NOT NULL, referred_by INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES people(id), amount REAL);
`)
	for i := range p.names {
		country := "Atlantis"
		switch {
		case i == 11:
			country = "Hyperborea"
		case i >= 6:
			country = "Lemuria"
		}
		referred := "NULL"
		if i == 2 {
			referred = referral
		}
		fmt.Fprintf(&b, "INSERT INTO people VALUES (%d, '%s', '%s', '%s', %s, '%s', %s);\n", i+1, p.names[i], p.emails[i], country, p.salaries[i], p.born[i], referred)
	}
	for i, a := range p.amounts {
		fmt.Fprintf(&b, "INSERT INTO orders VALUES (%d, %d, %s);\n", i+1, min(i+1, 12), a)
	}
	err = db.Exec(b.String())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	kdir := filepath.Join(dir, "knowledge")
	if err := os.MkdirAll(filepath.Join(kdir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	// learn writes the known values of a column into model.yaml: rows'
	// values in the knowledge folder. A link to it is another way in.
	if err := os.WriteFile(filepath.Join(kdir, "model.yaml"), []byte("entities:\n  - name: people\n    columns:\n      - name: name\n        values: ["+strings.Join(p.names, ", ")+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../model.yaml", filepath.Join(kdir, "notes", "m.yaml")); err != nil {
		t.Fatal(err)
	}
	// learn copies a dimension's known values into metrics.yaml too
	// (found from outside: read under schema-only).
	if err := os.WriteFile(filepath.Join(kdir, "metrics.yaml"), []byte("dimensions:\n  - name: person\n    entity: people\n    expr: people.name\n    values: ["+strings.Join(p.names, ", ")+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &semantic.Model{Dimensions: []semantic.Dimension{{Name: "person", Entity: "people", Expr: "people.name", Values: p.names}}, Entities: []semantic.Entity{
		{Name: "people", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText, Values: p.names[:4]}, {Name: "email", Type: quarry.TypeText},
			{Name: "country", Type: quarry.TypeText, Values: []string{"Atlantis", "Lemuria", "Hyperborea"}}, {Name: "salary", Type: quarry.TypeInt}, {Name: "born", Type: quarry.TypeDate}}},
		{Name: "orders", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "person_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}}},
	}}
	e := &env{db: path, kdir: kdir, k: &analyst.Knowledge{Model: m, Hash: "test"}}
	e.open(t)
	return e, p
}

// echoingConn fails one statement the way PostgreSQL fails a cast of a
// text column, quoting the row's value in its message.
type echoingConn struct {
	*sqlite.Conn
	value string
}

func (c echoingConn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if strings.Contains(sql, "CAST(email AS integer)") {
		return nil, quarry.Wrap(quarry.KindQuery, errors.New(`ERROR: invalid input syntax for type integer: "`+c.value+`" (SQLSTATE 22P02)`), "the database refused the query")
	}
	return c.Conn.Query(ctx, sql, opts)
}

// grouped is a real grouped count whose groups are all at least 5 rows.
const grouped = `SELECT country, count(*) AS n, avg(salary) AS mean_salary FROM people GROUP BY country HAVING count(*) >= 5 ORDER BY country`

// attacks are statements that try to pull rows or a row's values past an
// aggregates-only tier, each with how.
var attacks = []struct{ why, sql string }{
	{"raw rows", `SELECT * FROM people`},
	{"raw columns", `SELECT name, email, salary FROM people ORDER BY id LIMIT 3`},
	{"group by a unique key", `SELECT email, count(*) FROM people GROUP BY email`},
	{"group by the primary key", `SELECT id, max(name), sum(salary) FROM people GROUP BY id`},
	{"group_concat", `SELECT country, group_concat(email) FROM people GROUP BY country`},
	{"json_group_array", `SELECT country, json_group_array(name) FROM people GROUP BY country`},
	{"min and max of a group of one", `SELECT country, max(email), min(born) FROM people GROUP BY country HAVING count(*) = 1`},
	{"max of a large group, still one row's", `SELECT country, max(name), max(salary) FROM people GROUP BY country HAVING count(*) >= 5`},
	{"HAVING count(*) = 1", `SELECT country, count(*) FROM people GROUP BY country HAVING count(*) = 1`},
	{"count distinct in small groups", `SELECT country, count(DISTINCT salary) FROM people GROUP BY country HAVING count(*) < 5`},
	{"CASE on a single row", `SELECT sum(CASE WHEN id = 3 THEN salary END) AS s FROM people`},
	{"arithmetic on a single row", `SELECT sum(salary * (id = 3)) AS s FROM people`},
	{"LIMIT 1 ordered aggregate", `SELECT country, max(salary) FROM people GROUP BY country ORDER BY count(*) LIMIT 1`},
	{"subquery in the select list", `SELECT (SELECT email FROM people LIMIT 1) AS e, count(*) FROM people`},
	{"window function", `SELECT name, row_number() OVER (ORDER BY salary) FROM people`},
	{"aggregate as a window", `SELECT country, sum(salary) OVER (PARTITION BY id) FROM people GROUP BY country, id, salary`},
	{"CTE", `WITH x AS (SELECT email FROM people) SELECT email, count(*) FROM x GROUP BY email`},
	{"UNION with a raw branch", `SELECT country, count(*) FROM people GROUP BY country UNION ALL SELECT email, salary FROM people`},
	{"self-join multiplies one row", `SELECT p.email, count(*) FROM people p, people q GROUP BY p.email`},
	{"join fans one row out", `SELECT p.name, p.born, count(*) FROM people p JOIN orders o ON o.person_id = p.id GROUP BY p.name, p.born`},
	{"scalar min of two arguments", `SELECT min(email, 'zzz') FROM people`},
	{"bare column beside an aggregate", `SELECT name, max(salary) FROM people`},
	{"derived table", `SELECT e, count(*) FROM (SELECT email AS e FROM people) GROUP BY e`},
	{"an error that quotes a value", `SELECT CAST(email AS integer) FROM people`},
	// An output named as the column grouped by: SQLite groups by the
	// column, and the output is one row's value (F1).
	{"an output named as the grouped column", `SELECT name AS country, count(*) FROM people GROUP BY country HAVING count(*) >= 5`},
	{"the same in other case", `SELECT name AS Country, count(*) FROM people GROUP BY COUNTRY HAVING count(*) >= 5`},
	{"a concatenation named as the grouped column", `SELECT name || ' / ' || born AS country, count(*) FROM people GROUP BY country HAVING count(*) >= 5`},
	{"the same over a join", `SELECT c.name AS country, count(*) FROM people c JOIN orders o ON o.person_id = c.id GROUP BY country HAVING count(DISTINCT c.id) >= 5`},
	// A sum over five rows of which four are NULL (F4).
	{"NULLs pad a sum", `SELECT country, count(*), sum(referred_by), count(referred_by) FROM people WHERE id IN (1, 2, 3, 4, 5) GROUP BY country`},
	// How many groups are shown says whether a row's value passes (F6).
	{"a LIMIT that reads a row", `SELECT country, count(*) FROM people GROUP BY country HAVING count(*) >= 5 ORDER BY country LIMIT (SELECT CASE WHEN salary > 700000 THEN 1 ELSE 2 END FROM people WHERE id = 1)`},
	// A withheld result's shape: on SQLite a column's type follows its
	// value, and the row count is a count of the filter (F3).
	{"types that follow a value", `SELECT CASE WHEN salary > 700000 THEN 1 ELSE 'x' END AS bitprobe, CASE WHEN salary > 900000 THEN 1 END AS nullprobe FROM people WHERE id = 1`},
	{"a row count that counts a filter", `SELECT id AS countprobe FROM people WHERE salary > 800000`},
	{"a value through the metric tool", ``},
}

// privacyScript tries every attack, then reads what else could carry
// values (describe, search, the knowledge model and a link to it), runs
// the positive cases and submits.
func privacyScript(t *testing.T) *llmtest.Provider {
	var steps []llmtest.Step
	id := 0
	call := func(tool, input string) {
		id++
		steps = append(steps, llmtest.Reply(llmtest.ToolCall(fmt.Sprintf("p%d", id), tool, input)))
	}
	for _, a := range attacks {
		if a.sql == "" {
			call("query_metric", `{"metrics":["people_count"],"dimensions":[{"name":"people.name"}]}`)
			continue
		}
		call("run_query", fmt.Sprintf(`{"sql":%q}`, a.sql))
	}
	call("describe_table", `{"table":"people"}`)
	call("search_schema", `{"query":"people name country"}`)
	call("read_knowledge", `{"path":"model.yaml"}`)
	call("read_knowledge", `{"path":"notes/m.yaml"}`)
	call("read_knowledge", `{"path":"metrics.yaml"}`)
	call("run_query", `{"sql":"SELECT p.country, count(*) AS orders, count(DISTINCT p.id) AS buyers FROM orders o JOIN people p ON p.id = o.person_id GROUP BY p.country HAVING count(DISTINCT p.id) >= 5"}`)
	call("run_query", fmt.Sprintf(`{"sql":%q}`, grouped))
	call("submit_answer", fmt.Sprintf(`{"answer":"Atlantis and Lemuria are the large countries.","sql":%q}`, grouped))
	return llmtest.NewProviderOver(t, llmtest.Wires()[0], steps...)
}

// TestPrivacyTiers drives the agent under each tier through every attack
// and searches every request body for every value of a row.
func TestPrivacyTiers(t *testing.T) {
	for _, tier := range quarry.Privacies() {
		t.Run(string(tier), func(t *testing.T) {
			e, p := peopleEnv(t)
			e.k.Model.Metrics = []semantic.Metric{{Name: "people_count", Entity: "people", Expr: "COUNT(*)"}}
			fake := privacyScript(t)
			a := e.agent(fake, false)
			a.Conn = echoingConn{Conn: e.conn, value: p.emails[4]}
			a.Privacy = tier
			a.Limits.MaxSteps, a.Limits.RepairAttempts = 41, 20
			// An earlier turn of the builtin planner, whose SQL holds the
			// value the value index matched.
			history := []agent.Turn{{Question: "what does Zeb earn?", SQL: "SELECT salary FROM people WHERE name = '" + p.names[0] + "'",
				Answer: p.names[11] + " earns the most (" + p.salaries[11] + ")", Status: event.StatusSucceeded}}
			out, err := a.Ask(context.Background(), e.recorder(), "which countries have the most people?", clock(), agent.AskOptions{History: history})
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if out.Status != event.StatusSucceeded {
				t.Fatalf("status %q", out.Status)
			}
			if fake.Remaining() != 0 {
				t.Fatalf("%d scripted steps were not used: the run ended early", fake.Remaining())
			}
			var leaked []string
			for _, v := range p.forbidden() {
				if calls := fake.Find(v); len(calls) > 0 {
					leaked = append(leaked, fmt.Sprintf("%q (calls %v)", v, calls))
				}
			}
			st := e.state(t)
			if st.Privacy != string(tier) {
				t.Errorf("the run records privacy %q, want %q", st.Privacy, tier)
			}
			// The user's own view is not restricted: the answer rests on the
			// full result.
			if out.Table == nil || len(out.Table.Rows) != 2 {
				t.Errorf("the user's result: %+v", out.Table)
			}
			switch tier {
			case quarry.PrivacyFull:
				// The control: the same search finds rows that reached the
				// model when nothing withholds them.
				if len(leaked) == 0 {
					t.Fatal("under full, no value of a row reached the model: the search for them cannot fail")
				}
				if len(st.Withheld) != 0 {
					t.Errorf("under full, the run records withheld output: %v", st.Withheld)
				}
			default:
				if len(leaked) > 0 {
					t.Errorf("%d values of rows reached the model under %s: %s", len(leaked), tier, strings.Join(leaked, "; "))
				}
				for i, c := range fake.Calls() {
					for _, tool := range c.Request.Tools {
						if tool.Name == agent.ToolSampleValues {
							t.Errorf("call %d offers sample_values under %s", i, tier)
						}
					}
				}
				if testing.Verbose() {
					for _, w := range st.Withheld {
						t.Log("withheld: " + w)
					}
				}
				// A withheld result is the names of its columns: no type,
				// no NULL-ness, no row count.
				for _, leak := range []string{"bitprobe int", "bitprobe text", "nullprobe unknown", "nullprobe int", "countprobe int", "3 rows", "12 rows"} {
					if calls := fake.Find(leak); len(calls) > 0 {
						t.Errorf("a withheld result's shape carries %q (calls %v)", leak, calls)
					}
				}
				if len(fake.Find("- bitprobe")) == 0 {
					t.Error("the withheld result's columns were not named")
				}
				if len(fake.Find("Privacy tier "+string(tier))) == 0 {
					t.Error("the model was never told why rows are withheld")
				}
				// Every attack is withheld (its rows, or the database's
				// message), and so are the positive cases under schema-only.
				want := len(attacks)
				if tier == quarry.PrivacySchema {
					want += 2
				}
				if len(st.Withheld) != want {
					t.Errorf("the run records %d withheld outputs: %v", len(st.Withheld), st.Withheld)
				}
			}
			atlantis := len(fake.Find("Atlantis,6")) > 0 && len(fake.Find("Lemuria,5")) > 0
			joined := len(fake.Find("Atlantis,6,6")) > 0
			if want := tier != quarry.PrivacySchema; atlantis != want || joined != want {
				t.Errorf("under %s the model saw the grouped counts: %v, the joined counts: %v; want %v", tier, atlantis, joined, want)
			}
		})
	}
}

// TestSampleValuesNotOffered: under a restricted tier the tool is not
// offered, and a model that calls it anyway ends its run.
func TestSampleValuesNotOffered(t *testing.T) {
	e, p := peopleEnv(t)
	fake := llmtest.NewProviderOver(t, llmtest.Wires()[0],
		llmtest.Reply(llmtest.ToolCall("s1", "sample_values", `{"table":"people","column":"name"}`)))
	a := e.agent(fake, false)
	a.Privacy = quarry.PrivacyAggregates
	_, err := a.Ask(context.Background(), e.recorder(), "list the people", clock(), agent.AskOptions{})
	if err == nil || !strings.Contains(err.Error(), "does not offer") {
		t.Fatalf("error %v, want the tool refused", err)
	}
	for _, v := range p.names {
		if len(fake.Find(v)) > 0 {
			t.Fatalf("%q reached the model", v)
		}
	}
	if !strings.Contains(a.PromptText(), "aggregates-only") || strings.Contains(a.PromptText(), "sample_values:") {
		t.Error("the prompt's tools still offer sample_values, or do not say the tier")
	}
}

// TestFixerUnderATier: the fixer of quarry run is shown the SQL and,
// under a restricted tier, only the class of the error, which a database
// may write with a row's value in it.
func TestFixerUnderATier(t *testing.T) {
	e, p := peopleEnv(t)
	const sql = "SELECT CAST(email AS integer) FROM people"
	errText := `ERROR: invalid input syntax for type integer: "` + p.emails[2] + `" (SQLSTATE 22P02)`
	for _, tier := range quarry.Privacies() {
		fake := llmtest.NewProviderOver(t, llmtest.Wires()[0], llmtest.Reply(llmtest.Text("```sql\nSELECT count(*) FROM people\n```")))
		a := e.agent(fake, false)
		a.Privacy = tier
		f, err := a.Fix(context.Background(), e.recorder(), sql, errText)
		if err != nil || f.SQL != "SELECT count(*) FROM people" {
			t.Fatalf("%s: fix %+v, %v", tier, f, err)
		}
		shown := len(fake.Find(p.emails[2])) > 0
		if want := tier == quarry.PrivacyFull; shown != want {
			t.Errorf("%s: the error's value reached the fixer: %v, want %v", tier, shown, want)
		}
		if tier != quarry.PrivacyFull && len(fake.Find(agent.ClassTypeMismatch)) == 0 {
			t.Errorf("%s: the fixer was not told the error's class", tier)
		}
	}
}
