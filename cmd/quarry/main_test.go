package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"

	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// result is what one invocation of the CLI did.
type result struct {
	code           int
	stdout, stderr string
}

// quarryCmd runs the CLI in process with the given stdin and a fixed
// environment (no variables), the way a user's shell would run it.
func quarryCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return quarryCtx(t, context.Background(), stdin, args...)
}

func quarryCtx(t *testing.T, ctx context.Context, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	env := func(string) (string, bool) { return "", false }
	code := run(ctx, args, strings.NewReader(stdin), &out, &errb, env)
	return result{code, out.String(), errb.String()}
}

// project creates a small SQLite project: a database with a few typed
// tables and a quarry.yaml pointing at it.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := sqlite3.Open(filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, signup_date DATE);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), ordered_at TIMESTAMP, amount REAL, status TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'Germany', '2025-01-03'), (2, 'Linus', 'Finland', '2025-02-11'), (3, 'Grace', 'United States', NULL);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 5000)
INSERT INTO orders SELECT x, 1 + x % 3, datetime('2025-01-01', '+' || (x % 365) || ' days'), round(x * 1.5, 2), CASE x % 4 WHEN 0 THEN 'refunded' ELSE 'completed' END FROM s;`)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	yaml := "version: 1\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var demoOnce struct {
	sync.Once
	dir string
	err error
}

// demoProject returns a demo project built once per test binary, anchored
// on 2026-06-30.
func demoProject(t *testing.T) string {
	t.Helper()
	if raceEnabled {
		t.Skip("the demo database is built in the plain test pass; under the race detector it takes about a minute")
	}
	demoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "quarry-cmd-demo-")
		if err != nil {
			demoOnce.err = err
			return
		}
		demoOnce.dir = filepath.Join(dir, "demo")
		if built := os.Getenv("QUARRY_TEST_DEMO_PROJECT"); built != "" {
			// Built once by scripts/test.sh from this checkout.
			demoOnce.err = os.CopyFS(demoOnce.dir, os.DirFS(built))
			return
		}
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"init", "--demo", "--anchor", "2026-06-30", demoOnce.dir}, nil, &out, &errb, func(string) (string, bool) { return "", false }); code != 0 {
			demoOnce.err = fmt.Errorf("init --demo: exit %d: %s", code, errb.String())
		}
	})
	if demoOnce.err != nil {
		t.Fatal(demoOnce.err)
	}
	return demoOnce.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if demoOnce.dir != "" {
		os.RemoveAll(filepath.Dir(demoOnce.dir))
	}
	if builtOnce.dir != "" {
		os.RemoveAll(builtOnce.dir)
	}
	os.Exit(code)
}

// oneLineError asserts that stderr holds exactly one line that starts
// with "quarry:".
func oneLineError(t *testing.T, r result) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "quarry: ") {
		t.Errorf("stderr is not one quarry: line:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr has a stack trace:\n%s", r.stderr)
	}
}

func TestRunFormats(t *testing.T) {
	dir := project(t)
	sql := "SELECT id, name, country, signup_date FROM customers ORDER BY id"
	cases := []struct {
		format string
		want   []string
	}{
		{"table", []string{"Ada", "Germany", "(3 rows)"}},
		{"csv", []string{"id,name,country,signup_date\n1,Ada,Germany,2025-01-03\n", "3,Grace,United States,\n"}},
		{"tsv", []string{"id\tname\tcountry\tsignup_date\n", "2\tLinus\tFinland\t2025-02-11\n"}},
		{"jsonl", []string{`{"id":1,"name":"Ada","country":"Germany","signup_date":"2025-01-03"}`}},
		{"markdown", []string{"| id | name |", "| 1 | Ada |"}},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			r := quarryCmd(t, "", "-C", dir, "run", "--format", c.format, sql)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		r := quarryCmd(t, "", "-C", dir, "run", "--json", sql)
		var got struct {
			Columns []quarry.Column `json:"columns"`
			Rows    [][]any         `json:"rows"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.stdout)
		}
		if len(got.Rows) != 3 || got.Columns[3].Type != quarry.TypeDate {
			t.Errorf("got %+v", got)
		}
	})
}

func TestRunReadsFileAndStdin(t *testing.T) {
	dir := project(t)
	f := filepath.Join(t.TempDir(), "q.sql")
	os.WriteFile(f, []byte("SELECT count(*) AS n FROM orders\n"), 0o644)
	if r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "-f", f); r.code != 0 || r.stdout != "n\n5000\n" {
		t.Errorf("-f: exit %d, %q %s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "SELECT 7 AS seven", "-C", dir, "run", "--format", "csv", "-"); r.code != 0 || r.stdout != "seven\n7\n" {
		t.Errorf("stdin: exit %d, %q %s", r.code, r.stdout, r.stderr)
	}
}

func TestRunMaxRowsAndPreview(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "--max-rows", "10", "SELECT id FROM orders")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 11 {
		t.Errorf("--max-rows 10: exit %d, %d lines", r.code, strings.Count(r.stdout, "\n"))
	}
	r = quarryCmd(t, "", "-C", dir, "run", "SELECT id FROM orders")
	if r.code != 0 || !strings.Contains(r.stdout, "more rows") {
		t.Errorf("table preview has no notice: exit %d\n%s", r.code, r.stdout)
	}
}

func TestRunRefusesWritesBeforeTheDatabase(t *testing.T) {
	dir := project(t)
	db := filepath.Join(dir, "shop.db")
	before, _ := os.ReadFile(db)
	for _, sql := range []string{
		"DELETE FROM orders",
		"SELECT 1; DELETE FROM orders",
		"WITH x AS (SELECT 1) DELETE FROM orders",
		"ATTACH DATABASE 'x.db' AS x",
		"VACUUM INTO 'copy.db'",
		"PRAGMA query_only=0",
		"/* hi */ DROP TABLE orders",
	} {
		r := quarryCmd(t, "", "-C", dir, "run", sql)
		if r.code != quarry.ExitRejected {
			t.Errorf("%q: exit %d, want %d", sql, r.code, quarry.ExitRejected)
		}
		if !strings.Contains(r.stderr, "nothing was run") || r.stdout != "" {
			t.Errorf("%q: stdout %q stderr %q", sql, r.stdout, r.stderr)
		}
	}
	after, _ := os.ReadFile(db)
	if !bytes.Equal(before, after) {
		t.Fatal("the database file changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.db")); err == nil {
		t.Fatal("VACUUM INTO wrote a file")
	}
	r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct{ Status string }
	json.Unmarshal([]byte(r.stdout), &runs)
	if len(runs) != 7 {
		t.Fatalf("recorded %d runs, want 7", len(runs))
	}
	for _, run := range runs {
		if run.Status != "rejected" {
			t.Errorf("status %q, want rejected", run.Status)
		}
	}
}

func TestBadInput(t *testing.T) {
	dir := project(t)
	garbage := filepath.Join(t.TempDir(), "garbage.sql")
	os.WriteFile(garbage, []byte{0xff, 0xfe, 0x00, 0x01, 'S', 'E', 'L'}, 0o644)
	notSQLite := filepath.Join(t.TempDir(), "fake")
	os.MkdirAll(notSQLite, 0o755)
	os.WriteFile(filepath.Join(notSQLite, "fake.db"), []byte("this is not a database"), 0o644)
	os.WriteFile(filepath.Join(notSQLite, "quarry.yaml"), []byte("version: 1\nconnections:\n  x:\n    driver: sqlite\n    path: fake.db\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "missing")
	os.MkdirAll(missing, 0o755)
	os.WriteFile(filepath.Join(missing, "quarry.yaml"), []byte("version: 1\nconnections:\n  x:\n    driver: sqlite\n    path: nowhere.db\n"), 0o644)
	typo := filepath.Join(t.TempDir(), "typo")
	os.MkdirAll(typo, 0o755)
	os.WriteFile(filepath.Join(typo, "quarry.yaml"), []byte("version: 1\nconnections:\n  x:\n    drvier: sqlite\n    path: a.db\n"), 0o644)
	huge := "SELECT '" + strings.Repeat("x", 10<<20) + "'"

	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"empty argument", "", []string{"-C", dir, "run", "   "}, quarry.ExitInput, "empty"},
		{"empty stdin", "", []string{"-C", dir, "run", "-"}, quarry.ExitInput, "empty"},
		{"no SQL", "", []string{"-C", dir, "run"}, quarry.ExitUsage, "no SQL given"},
		{"unreadable file", "", []string{"-C", dir, "run", "-f", "/nonexistent/q.sql"}, quarry.ExitInput, "cannot read"},
		{"binary garbage", "", []string{"-C", dir, "run", "-f", garbage}, quarry.ExitInput, "not UTF-8"},
		{"10 MB statement", huge, []string{"-C", dir, "run", "-"}, quarry.ExitRejected, "too_large"},
		{"not a SQLite file", "", []string{"-C", notSQLite, "run", "SELECT 1"}, quarry.ExitConnection, "not a SQLite database"},
		{"missing database", "", []string{"-C", missing, "run", "SELECT 1"}, quarry.ExitConnection, "nowhere.db"},
		{"config typo", "", []string{"-C", typo, "run", "SELECT 1"}, quarry.ExitConfig, `quarry.yaml:4: connections.x.drvier: unknown field; did you mean "driver"?`},
		{"no project", "", []string{"-C", t.TempDir(), "run", "SELECT 1"}, quarry.ExitConfig, "quarry init"},
		{"unknown format", "", []string{"-C", dir, "run", "--format", "xml", "SELECT 1"}, quarry.ExitUsage, "csv"},
		{"unknown flag", "", []string{"run", "--nope"}, quarry.ExitUsage, "unknown flag"},
		{"unknown command", "", []string{"frobnicate"}, quarry.ExitUsage, "unknown command"},
		{"database error", "", []string{"-C", dir, "run", "SELECT nope FROM orders"}, quarry.ExitQuery, "no such column"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := quarryCmd(t, c.stdin, c.args...)
			if r.code != c.code {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, c.code, r.stderr)
			}
			if !strings.Contains(r.stderr, c.msg) {
				t.Errorf("stderr lacks %q: %s", c.msg, r.stderr)
			}
			if c.code != quarry.ExitRejected {
				oneLineError(t, r)
			}
		})
	}
}

func TestGuardExitCodes(t *testing.T) {
	r := quarryCmd(t, "", "guard", "--dialect", "sqlite", "SELECT count(*) FROM orders")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "allowed") {
		t.Errorf("allowed: exit %d %q", r.code, r.stdout)
	}
	r = quarryCmd(t, "", "guard", "--dialect", "sqlite", "SELECT 1; DROP TABLE orders")
	if r.code != 1 || !strings.Contains(r.stdout, "multiple_statements") {
		t.Errorf("rejected: exit %d %q", r.code, r.stdout)
	}
	r = quarryCmd(t, "", "guard", "--dialect", "oracle", "SELECT 1")
	if r.code != 2 {
		t.Errorf("bad dialect: exit %d", r.code)
	}
	r = quarryCmd(t, "SELECT 1\nDELETE FROM t\n\nSELECT pg_sleep(1)\n", "guard", "--dialect", "postgres", "--lines", "--json", "-")
	if r.code != 1 {
		t.Errorf("--lines: exit %d", r.code)
	}
	var lines []struct {
		Line    int  `json:"line"`
		Allowed bool `json:"allowed"`
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	for dec.More() {
		var l struct {
			Line    int  `json:"line"`
			Allowed bool `json:"allowed"`
		}
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 3 || !lines[0].Allowed || lines[1].Allowed || lines[2].Allowed {
		t.Errorf("--lines verdicts: %+v", lines)
	}
}

// cancelAfter cancels a context once it has been written n bytes,
// standing in for a user pressing Ctrl-C in the middle of an export.
type cancelAfter struct {
	w      bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if c.w.Len() >= c.n {
		c.cancel()
	}
	return c.w.Write(p)
}

func TestInterruptedExportEndsAtAWholeRow(t *testing.T) {
	dir := project(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelAfter{n: 256 << 10, cancel: cancel}
	var errb bytes.Buffer
	sql := "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 5000000) SELECT x, 'row ' || x AS label, x * 0.5 AS half FROM s"
	code := run(ctx, []string{"-C", dir, "run", "--format", "csv", sql}, nil, out, &errb, func(string) (string, bool) { return "", false })
	if code != quarry.ExitCanceled {
		t.Fatalf("exit %d, want %d; stderr %s", code, quarry.ExitCanceled, errb.String())
	}
	data := out.w.Bytes()
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("output does not end at a whole row (%d bytes)", len(data))
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("partial CSV is not valid: %v", err)
	}
	for i, rec := range recs[1:] {
		if rec[0] != fmt.Sprint(i+1) || rec[1] != "row "+rec[0] {
			t.Fatalf("row %d is %v", i+1, rec)
		}
	}
	if len(recs) > 4_000_000 {
		t.Fatalf("the export was not interrupted (%d rows)", len(recs))
	}
	r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct{ Status string }
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 || runs[0].Status != "canceled" {
		t.Fatalf("runs after interrupt: %s %v", r.stdout, err)
	}
}

func TestRunsShowAndEvents(t *testing.T) {
	dir := project(t)
	quarryCmd(t, "", "-C", dir, "run", "SELECT status, count(*) FROM orders GROUP BY status")
	r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs list: %v %s", err, r.stdout)
	}
	id := runs[0].RunID
	r = quarryCmd(t, "", "-C", dir, "runs", "show", id[:8])
	if r.code != 0 || !strings.Contains(r.stdout, "succeeded") || !regexp.MustCompile(`(?m)^Result  res_\S+  sha256:[0-9a-f]{64}$`).MatchString(r.stdout) {
		t.Errorf("runs show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "events", id)
	for _, typ := range []string{"run.started", "sql.generated", "guard.checked", "query.executed", "run.finished"} {
		if !strings.Contains(r.stdout, typ) {
			t.Errorf("events lack %s:\n%s", typ, r.stdout)
		}
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "show", "r_nope")
	if r.code != quarry.ExitInput || !strings.Contains(r.stderr, "runs list") {
		t.Errorf("unknown run: exit %d %s", r.code, r.stderr)
	}
}

func TestConfigRedactsSecrets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\nconnections:\n  pg:\n    driver: postgres\n    url: ${PG_URL}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("PG_URL=postgres://alice:hunter2@db.example:5432/prod\n"), 0o600)
	r := quarryCmd(t, "", "-C", dir, "config")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "hunter2") || strings.Contains(r.stdout, "alice") {
		t.Fatalf("config printed the secret:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "[redacted]") {
		t.Errorf("no redaction marker:\n%s", r.stdout)
	}
}

func TestDoctorOnASQLiteProject(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "doctor")
	if !strings.Contains(r.stdout, "ok    read-only") {
		t.Errorf("doctor did not report the probe:\n%s", r.stdout)
	}
	// No knowledge folder yet: a warning, not a failure.
	if r.code != 0 || !strings.Contains(r.stdout, "warn  knowledge") {
		t.Errorf("doctor: exit %d\n%s", r.code, r.stdout)
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "init", dir)
	if r.code != quarry.ExitInput || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("exit %d %s", r.code, r.stderr)
	}
	fresh := filepath.Join(t.TempDir(), "p")
	r = quarryCmd(t, "", "init", fresh)
	if r.code != 0 {
		t.Fatalf("init: exit %d %s", r.code, r.stderr)
	}
	for _, f := range []string{"quarry.yaml", "knowledge/README.md"} {
		if _, err := os.Stat(filepath.Join(fresh, f)); err != nil {
			t.Errorf("init did not write %s", f)
		}
	}
	if r := quarryCmd(t, "", "-C", fresh, "config"); r.code != 0 {
		t.Errorf("the written quarry.yaml does not load: %s", r.stderr)
	}
}
