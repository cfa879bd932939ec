package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// The leak test's fixture: the restricted values carry markers that no
// statement of the corpus spells, so finding a marker anywhere means a
// value leaked. The salary marker is 8 digits: a 6-digit one turned up by
// chance inside the nanoseconds of an event's timestamp in the state
// database, about once in a hundred runs.
const (
	leakMailMarker   = "hidden-mail"
	leakSalaryMarker = "19283746"
)

// leakSchema is the fixture's schema in the SQL the three engines share.
var leakSchema = []string{
	"CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50), email VARCHAR(80), country VARCHAR(40))",
	"CREATE TABLE employees (id INT PRIMARY KEY, name VARCHAR(50), title VARCHAR(50), salary INT)",
	"CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, total DECIMAL(10,2))",
	"CREATE TABLE leads (id INT PRIMARY KEY, email VARCHAR(80), source VARCHAR(20))",
	"CREATE INDEX employees_salary ON employees(salary)",
	"CREATE VIEW customer_contacts AS SELECT name, email FROM customers",
	"CREATE VIEW customer_countries AS SELECT name, country FROM customers",
	"CREATE VIEW gmail_customers AS SELECT name FROM customers WHERE email LIKE '%@gmail.example'",
	// A view whose definition copies a restricted value as a literal.
	"CREATE VIEW one_customer AS SELECT name FROM customers WHERE email = 'x7q-3@" + leakMailMarker + ".example'",
	"INSERT INTO customers VALUES (1, 'Ada', 'x7q-1@" + leakMailMarker + ".example', 'DE'), (2, 'Linus', 'x7q-2@" + leakMailMarker + ".example', 'FI'), (3, 'Grace', 'x7q-3@" + leakMailMarker + ".example', 'US')",
	"INSERT INTO employees VALUES (1, 'Ken', 'engineer', " + leakSalaryMarker + "1), (2, 'Barbara', 'manager', " + leakSalaryMarker + "2)",
	"INSERT INTO orders VALUES (1, 1, 12.50), (2, 1, 30.00), (3, 2, 7.25), (4, 3, 99.99)",
	"INSERT INTO leads VALUES (1, 'lead-1@public.example', 'web'), (2, 'lead-2@public.example', 'fair')",
}

// leakSchemaPostgres are views only PostgreSQL can define: a whole row in
// a column, and a column whose computation fails with the value in the
// error while the view is not flattened (DISTINCT).
var leakSchemaPostgres = []string{
	"CREATE VIEW v_row AS SELECT c.id, c AS whole FROM customers c",
	"CREATE VIEW v_json AS SELECT c.id, row_to_json(c)::text AS j FROM customers c",
	"CREATE VIEW v_err AS SELECT DISTINCT id, name, email::int AS e FROM customers",
	"CREATE VIEW class_rows AS SELECT relname, reltuples FROM pg_class",
	// Definitions that carry literals: a publication's row filter, an
	// extended statistics object's expression, a trigger's WHEN condition.
	"CREATE PUBLICATION pub_mail FOR TABLE customers WHERE (email = 'x7q-1@" + leakMailMarker + ".example')",
	"CREATE STATISTICS st_pay ON (salary > " + leakSalaryMarker + "0), name FROM employees",
	"CREATE FUNCTION trg_noop() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
	"CREATE TRIGGER t_mail BEFORE UPDATE ON customers FOR EACH ROW WHEN (NEW.email = 'x7q-2@" + leakMailMarker + ".example') EXECUTE FUNCTION trg_noop()",
	// A sequence that fills the restricted column: its last value is the
	// largest salary.
	"CREATE SEQUENCE salary_seq OWNED BY employees.salary",
	"SELECT setval('salary_seq', " + leakSalaryMarker + "2)",
	// A materialized view over the restricted column: its row count (in
	// pg_class.reltuples once analyzed) counts the employees paid over a
	// bound; describe must not list it, nor learn record its row count.
	"CREATE MATERIALIZED VIEW mrich AS SELECT id, name FROM employees WHERE salary > 1000",
	"ANALYZE mrich",
	// A generated column computed from the restricted one.
	"ALTER TABLE employees ADD sal2 text GENERATED ALWAYS AS (salary::text || '-g') STORED",
	"ALTER TABLE orders ADD total2 numeric GENERATED ALWAYS AS (total * 2) STORED",
}

// leakSchemaMariaDB makes the restricted column an AUTO_INCREMENT one:
// information_schema.TABLES.AUTO_INCREMENT is then its maximum plus one.
var leakSchemaMariaDB = []string{
	"ALTER TABLE employees MODIFY salary INT NOT NULL AUTO_INCREMENT",
	// A generated column computed from the restricted one.
	"ALTER TABLE employees ADD sal2 VARCHAR(20) AS (CONCAT(salary, '-g')) VIRTUAL",
}

const leakPolicy = `restricted:
  - column: customers.email
    reason: personal contact data
  - column: employees.salary
    reason: individual pay
`

type leakCase struct {
	refuse bool
	sql    string
	where  string
}

// leakCases reads the policy's leak corpus for one dialect.
func leakCases(t *testing.T, d quarry.Dialect) []leakCase {
	t.Helper()
	f, err := os.Open("../../internal/policy/testdata/leaks.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []leakCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		if cols[0] != "all" && !strings.Contains(","+cols[0]+",", ","+string(d)+",") {
			continue
		}
		out = append(out, leakCase{refuse: cols[1] == "refuse", sql: cols[2], where: fmt.Sprintf("leaks.tsv:%d (%s)", n, cols[3])})
	}
	return out
}

// noLeak fails when text holds a restricted value.
func noLeak(t *testing.T, where, text string) {
	t.Helper()
	for _, m := range []string{leakMailMarker, leakSalaryMarker} {
		if i := strings.Index(text, m); i >= 0 {
			t.Errorf("%s: a restricted value (%s) leaked, at byte %d: %q", where, m, i, text[max(0, i-120):min(len(text), i+120)])
		}
	}
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// leakProject builds the fixture on one engine and a project over it with
// the policy, learned by quarry learn.
func leakProject(t *testing.T, d quarry.Dialect) string {
	t.Helper()
	dir := t.TempDir()
	conn := ""
	switch d {
	case quarry.DialectSQLite:
		db, err := sqlite3.Open(filepath.Join(dir, "shop.db"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range leakSchema {
			if err := db.Exec(strings.ReplaceAll(s, "DECIMAL(10,2)", "REAL")); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		conn = "    driver: sqlite\n    path: shop.db\n"
	case quarry.DialectPostgres:
		conn = "    driver: postgres\n    url: ${DB_URL}\n    allow_privileged_role: true\n"
		writeEnv(t, dir, leakPostgres(t))
	case quarry.DialectMySQL:
		conn = "    driver: mysql\n    url: ${DB_URL}\n    allow_privileged_role: true\n"
		writeEnv(t, dir, leakMariaDB(t))
	}
	yaml := "version: 1\nconnections:\n  shop:\n" + conn
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(leakPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	// The first learn, before the policy, recorded the e-mail addresses as
	// known values; a learn under the policy removes them, and reads no
	// values through the views over them.
	r := quarryCmd(t, "", "-C", dir, "learn", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "customers.email") {
		t.Fatalf("learn under the policy: exit %d, removed values not reported\n%s%s", r.code, r.stdout, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "knowledge", "*.yaml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		noLeak(t, "knowledge file "+filepath.Base(f), string(b))
	}
	if d == quarry.DialectPostgres {
		// The row count of a relation the policy withholds whole counts
		// the rows that meet a condition on a restricted column.
		b, err := os.ReadFile(filepath.Join(dir, "knowledge", "model.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if rc := entityRowCount(string(b), "mrich"); rc != "" {
			t.Errorf("learn recorded the row count of mrich, a withheld materialized view: %s", rc)
		}
	}
	return dir
}

func writeEnv(t *testing.T, dir, u string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("DB_URL="+u+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// leakPostgres makes a database of its own on the test server and returns
// its URL.
func leakPostgres(t *testing.T) string {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("quarry_leak_%d", rand.IntN(1e9))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, base); err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	c, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, s := range append(leakSchema, leakSchemaPostgres...) {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return u.String()
}

// leakMariaDB makes a database of its own on the test server and returns
// its DSN.
func leakMariaDB(t *testing.T) string {
	t.Helper()
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("quarry_leak_%d", rand.IntN(1e9))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("mysql", dsn); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + name)
			db.Close()
		}
	})
	cfg.DBName = name
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range append(leakSchema, leakSchemaMariaDB...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return cfg.FormatDSN()
}

// TestNoRestrictedValueLeaks runs the leak corpus on SQLite, PostgreSQL
// and MariaDB through every channel — quarry run, POST /api/run and GET
// /api/results, quarry mcp's run_query and get_result, and the agent with
// a scripted model — and asserts that every statement of the corpus that
// reads a restricted column is refused before it runs, that ordinary
// analytics still run, and that no restricted value appears in any output,
// any request to the model or the state database.
func TestNoRestrictedValueLeaks(t *testing.T) {
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		t.Run(string(d), func(t *testing.T) {
			if d != quarry.DialectSQLite {
				env := "QUARRY_TEST_POSTGRES_URL"
				if d == quarry.DialectMySQL {
					env = "QUARRY_TEST_MYSQL_DSN"
				}
				connectortest.URL(t, env, os.LookupEnv) // skips, or fails in CI, without the server
			}
			dir := leakProject(t, d)
			cases := leakCases(t, d)
			if len(cases) < 50 {
				t.Fatalf("only %d corpus cases for %s", len(cases), d)
			}
			// The command line and the agent ask case after case in one
			// goroutine: under the race detector (a minute of the
			// package's run on other engines) they are read on SQLite
			// alone; the plain test pass reads them on every engine.
			serial := func(t *testing.T) {
				if raceEnabled && d != quarry.DialectSQLite {
					t.Skip("runs in the plain test pass")
				}
			}
			t.Run("cli", func(t *testing.T) { serial(t); leakCLI(t, dir, cases) })
			t.Run("http", func(t *testing.T) { leakHTTP(t, dir, cases) })
			t.Run("mcp", func(t *testing.T) { leakMCP(t, dir, cases) })
			t.Run("agent", func(t *testing.T) { serial(t); leakAgent(t, dir, cases) })
			t.Run("connector", func(t *testing.T) { leakConnector(t, dir, d, cases) })
			if d != quarry.DialectSQLite {
				t.Run("governor", func(t *testing.T) { leakGovernor(t, dir) })
			}
			// Nothing unredacted was ever written to the state database.
			files, _ := filepath.Glob(filepath.Join(dir, ".quarry", "*"))
			if len(files) == 0 {
				t.Fatal("no state database")
			}
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				noLeak(t, "state file "+filepath.Base(f), string(b))
			}
		})
	}
}

func leakCLI(t *testing.T, dir string, cases []leakCase) {
	for _, c := range cases {
		r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", c.sql)
		noLeak(t, c.where, r.stdout+r.stderr)
		switch {
		case c.refuse && r.code != quarry.ExitRejected:
			t.Errorf("%s: exit %d, want %d (refused)\n%s%s", c.where, r.code, quarry.ExitRejected, short(r.stdout, 300), r.stderr)
		case c.refuse && r.stdout != "":
			t.Errorf("%s: refused, but printed %q", c.where, short(r.stdout, 300))
		case !c.refuse && r.code != 0:
			t.Errorf("%s: exit %d, want 0\n%s", c.where, r.code, r.stderr)
		}
	}
}

func leakHTTP(t *testing.T, dir string, cases []leakCase) {
	base := serveForTest(t, dir, nil)
	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, c := range cases {
		body, _ := json.Marshal(map[string]string{"sql": c.sql})
		res, err := http.Post(base+"/api/run", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		noLeak(t, c.where+" POST /api/run", string(b))
		var out struct {
			Status   string `json:"status"`
			ResultID string `json:"result_id"`
		}
		json.Unmarshal(b, &out)
		if c.refuse != (out.Status == "rejected") || (!c.refuse && res.StatusCode != 200) {
			t.Errorf("%s: POST /api/run answered %d, status %q (refuse %v)\n%s", c.where, res.StatusCode, out.Status, c.refuse, short(string(b), 400))
		}
		if out.ResultID != "" {
			_, body := get("/api/results/" + out.ResultID)
			noLeak(t, c.where+" GET /api/results", body)
			_, body = get("/api/results/" + out.ResultID + "?format=csv")
			noLeak(t, c.where+" GET /api/results csv", body)
		}
	}
	_, runs := get("/api/runs")
	noLeak(t, "GET /api/runs", runs)
}

func leakMCP(t *testing.T, dir string, cases []leakCase) {
	p := mcpInProcess(t, nil, "-C", dir, "mcp")
	for _, c := range cases {
		res, out := callJSON(t, p.cs, "run_query", map[string]any{"sql": c.sql})
		noLeak(t, c.where+" run_query", textOf(res))
		if c.refuse != res.IsError {
			t.Errorf("%s: run_query error %v, want %v\n%s", c.where, res.IsError, c.refuse, short(textOf(res), 400))
		}
		if id, _ := out["result_id"].(string); id != "" {
			res, _ := callJSON(t, p.cs, "get_result", map[string]any{"result_id": id})
			noLeak(t, c.where+" get_result", textOf(res))
		}
	}
	res, desc := callJSON(t, p.cs, "describe", nil)
	noLeak(t, "describe", textOf(res))
	// A view over a restricted column is withheld whole: not listed (its
	// row count counts the rows that meet its condition); restricted
	// columns of tables are marked, clean views are listed.
	marked, listed := map[string]bool{}, map[string]bool{}
	tables, _ := desc["tables"].([]any)
	for _, tb := range tables {
		tm, _ := tb.(map[string]any)
		listed[tm["name"].(string)] = true
		cols, _ := tm["columns"].([]any)
		for _, c := range cols {
			cm, _ := c.(map[string]any)
			if r, _ := cm["restricted"].(bool); r {
				marked[tm["name"].(string)+"."+cm["name"].(string)] = true
			}
		}
	}
	for _, want := range []string{"customers.email", "employees.salary"} {
		if !marked[want] {
			t.Errorf("describe does not mark %s restricted (marked: %v)", want, marked)
		}
	}
	for _, withheld := range []string{"customer_contacts", "gmail_customers", "v_row", "mrich"} {
		if listed[withheld] {
			t.Errorf("describe lists %s, a relation the policy withholds whole", withheld)
		}
	}
	if !listed["customer_countries"] || !listed["customers"] {
		t.Errorf("describe leaves out clean relations: %v", listed)
	}
	if marked["customer_countries.name"] || marked["customers.name"] {
		t.Errorf("describe marks clean columns restricted: %v", marked)
	}
}

// leakConnector serves the database with quarry connector, given the
// project with -C, which applies the project's column policy.
func leakConnector(t *testing.T, dir string, d quarry.Dialect, cases []leakCase) {
	args := []string{"-C", dir, "connector", string(d)}
	env := map[string]string{}
	if d == quarry.DialectSQLite {
		args = append(args, filepath.Join(dir, "shop.db"))
	} else {
		b, err := os.ReadFile(filepath.Join(dir, ".env"))
		if err != nil {
			t.Fatal(err)
		}
		env["DATABASE_URL"] = strings.TrimSpace(strings.TrimPrefix(string(b), "DB_URL="))
		args = append(args, "--allow-privileged-role")
	}
	p := mcpInProcess(t, env, args...)
	// The schema it serves: no view definition (its literals can copy
	// restricted values), no relation the policy withholds whole.
	for _, uri := range []string{"quarry://schema", "quarry://schema/one_customer", "quarry://schema/customers"} {
		r, err := p.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		var text string
		if err != nil {
			text = err.Error()
		} else {
			for _, c := range r.Contents {
				text += c.Text
			}
		}
		noLeak(t, "connector "+uri, text)
		if strings.Contains(text, "one_customer") && uri != "quarry://schema/one_customer" {
			t.Errorf("connector %s lists one_customer, a view the policy withholds: %s", uri, short(text, 400))
		}
	}
	for _, c := range cases {
		res, _ := callJSON(t, p.cs, "run_query", map[string]any{"sql": c.sql})
		noLeak(t, c.where+" connector run_query", textOf(res))
		if c.refuse != res.IsError {
			t.Errorf("%s: connector run_query error %v, want %v\n%s", c.where, res.IsError, c.refuse, short(textOf(res), 400))
		}
	}
}

// leakAgent scripts a model that tries every refused statement of the
// corpus through run_query, two per question, and asserts that no request
// it received held a restricted value.
func leakAgent(t *testing.T, dir string, cases []leakCase) {
	var refused []string
	for _, c := range cases {
		if c.refuse {
			refused = append(refused, c.sql)
		}
	}
	var script []llmtest.Answer
	var questions int
	for i := 0; i < len(refused); i += 2 {
		for j := i; j < min(i+2, len(refused)); j++ {
			in, _ := json.Marshal(map[string]string{"sql": refused[j]})
			script = append(script, llmtest.Answer{ToolUses: []llm.ToolUse{{ID: fmt.Sprintf("t%d", j), Name: "run_query", Input: in}}})
		}
		final := "SELECT count(*) AS n FROM orders"
		in, _ := json.Marshal(map[string]string{"sql": final})
		script = append(script,
			llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "c", Name: "run_query", Input: in}}},
			llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "s", Name: "submit_answer", Input: json.RawMessage(`{"answer":"There are 4 orders.","sql":"` + final + `"}`)}}})
		questions++
	}
	srv := llmtest.NewAnthropicServer(t, "sk-test", script...)
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	for q := range questions {
		r := quarryEnv(t, env, "", "-C", dir, "ask", "--json", fmt.Sprintf("tell me what the contact book says, part %d", q+1))
		noLeak(t, fmt.Sprintf("ask %d", q+1), r.stdout+r.stderr)
		if r.code != 0 {
			t.Errorf("ask %d: exit %d\n%s", q+1, r.code, short(r.stderr, 400))
		}
	}
	reqs := srv.Requests()
	if len(reqs) != len(script) {
		t.Errorf("the model was called %d times, want %d", len(reqs), len(script))
	}
	sawRefusal := false
	for i, req := range reqs {
		noLeak(t, fmt.Sprintf("model request %d", i+1), string(req.Body))
		// Views the policy withholds are not in the schema the model sees
		// (the statements the script sends may name them).
		if i == 0 && (strings.Contains(string(req.Body), "gmail_customers") || strings.Contains(string(req.Body), "customer_contacts")) {
			t.Errorf("the first model request lists a withheld view")
		}
		sawRefusal = sawRefusal || strings.Contains(string(req.Body), "restrict")
	}
	if !sawRefusal {
		t.Error("the model was never told that a statement was refused for a restricted column")
	}
}

// leakGovernor checks that the cost governor's own EXPLAIN still runs
// while the policy refuses a user's EXPLAIN: a clean statement runs under
// a generous ceiling and is refused as too costly under a tiny one.
func leakGovernor(t *testing.T, dir string) {
	path := filepath.Join(dir, "quarry.yaml")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.WriteFile(path, orig, 0o644) })
	const clean = "SELECT id, name FROM customers ORDER BY id"
	for _, c := range []struct {
		limits string
		ok     bool
	}{
		{"limits:\n  max_cost: 1000000000\n  max_estimated_rows: 1000000000\n", true},
		{"limits:\n  max_estimated_rows: 1\n", false},
	} {
		if err := os.WriteFile(path, append(append([]byte(nil), orig...), c.limits...), 0o644); err != nil {
			t.Fatal(err)
		}
		r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", clean)
		noLeak(t, "governor", r.stdout+r.stderr)
		switch {
		case c.ok && r.code != 0:
			t.Errorf("%q under %q: exit %d, want it run\n%s", clean, c.limits, r.code, r.stderr)
		case !c.ok && (r.code == 0 || !strings.Contains(r.stderr, "max_estimated_rows")):
			t.Errorf("%q under %q: exit %d, want refused as too costly\n%s", clean, c.limits, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "not allowed: EXPLAIN") {
			t.Errorf("the governor's EXPLAIN went through the policy: %s", r.stderr)
		}
	}
}

// entityRowCount returns the row_count line of the entity called name in a
// model.yaml, or "".
func entityRowCount(model, name string) string {
	in := false
	for _, line := range strings.Split(model, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "- name:") {
			in = strings.TrimSpace(strings.TrimPrefix(trimmed, "- name:")) == name
		}
		if in && strings.HasPrefix(trimmed, "row_count:") {
			return trimmed
		}
	}
	return ""
}
