package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// learnedDB writes schema (SQL statements) into a new SQLite database
// named file, makes a project of it with quarry init and learn (with
// policy as knowledge/policy.yaml first, when not empty), and returns the
// project's folder and a function that runs an independent query on the
// database: one "cell|cell" string per row, in the query's order.
func learnedDB(t *testing.T, file, schema, policy string) (string, func(sql string) []string) {
	t.Helper()
	if raceEnabled {
		// The tests that learn a database and grade quarry's answers on
		// it run the planner and the checks on one goroutine, which the
		// race detector has nothing to say of and slows tenfold; the
		// plain pass grades them, and the ask, serve and MCP tests run
		// the runtime's goroutines under it.
		t.Skip("grades answers on one goroutine; the plain test pass runs it")
	}
	// Each in a project of its own, side by side with the others like it
	// (the package's other tests run one at a time, before them).
	t.Parallel()
	return learnedProject(t, file, schema, policy)
}

// learnedProject is learnedDB under the race detector too, for the tests
// whose model and runtime work is worth its checks.
func learnedProject(t *testing.T, file, schema, policy string) (string, func(sql string) []string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, file)
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "init", dir); r.code != 0 {
		t.Fatalf("init: exit %d: %s", r.code, r.stderr)
	}
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--url", path, "-q"); r.code != 0 {
		t.Fatalf("learn: exit %d: %s", r.code, r.stderr)
	}
	rows := func(sql string) []string {
		t.Helper()
		st, _, err := db.Prepare(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer st.Close()
		var out []string
		for st.Step() {
			var cells []string
			for i := range st.ColumnCount() {
				cells = append(cells, st.ColumnText(i))
			}
			out = append(out, strings.Join(cells, "|"))
		}
		return out
	}
	return dir, rows
}

// answersAsHand asks each question of the learned project in dir, as of
// 2026-06-30, and checks its rows against those of the SQL written by hand
// beside it (rows runs SQL on the project's database).
func answersAsHand(t *testing.T, dir string, rows func(sql string) []string, cases []struct{ q, want string }) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.q, func(t *testing.T) {
			out := askAt(t, dir, "2026-06-30", tt.q)
			got, want := strings.Join(out.rowStrings(), " "), strings.Join(rows(tt.want), " ")
			if out.Status != "succeeded" || got != want {
				t.Errorf("status %s %q\nSQL %s\nrows %v\nwant %v", out.Status, out.Message, out.SQL, got, want)
			}
		})
	}
}

// refusalsSay asks each question of the learned project in dir and checks
// that it is refused with a message that says what is beside it.
func refusalsSay(t *testing.T, dir string, cases []struct{ q, says string }) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.q, func(t *testing.T) {
			out := askAt(t, dir, "2026-06-30", tt.q)
			if out.Status == "succeeded" || !strings.Contains(out.Message, tt.says) {
				t.Errorf("status %s %q, SQL %s, rows %v; want a refusal saying %q", out.Status, out.Message, out.SQL, out.Rows, tt.says)
			}
		})
	}
}
