package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// TestPolicyBehindMCPHasTheSchemaItself attacks the column policy on a
// SQLite database behind an MCP server (quarry connector sqlite), with
// what an outside tester read through it: the copy of the schema the
// policy decides on had only the tables' columns, so a rowid that is a
// restricted key, a generated column over a restricted one, the order
// of an index or of a WITHOUT ROWID table on one, and a count of a view
// that filters on one were all answered. Each is refused on a direct
// connection and must be refused through the server alike; statements
// that read nothing restricted are answered the same both ways.
func TestPolicyBehindMCPHasTheSchemaItself(t *testing.T) {
	bin, _ := builtBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "hr.db")
	c, err := sqlite3.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := fts5.Register(c); err != nil {
		t.Fatal(err)
	}
	err = c.Exec(`
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, salary INTEGER);
INSERT INTO employees VALUES (1, 'Ann', 90000), (2, 'Ben', 150000), (3, 'Cid', 120000), (4, 'Dee', 60000);
CREATE VIEW emp_rich AS SELECT id, name FROM employees WHERE salary > 100000;
CREATE TABLE contractors (id INTEGER PRIMARY KEY, name TEXT, rate INTEGER);
CREATE INDEX contractors_rate ON contractors(rate);
INSERT INTO contractors VALUES (1, 'Eve', 50), (2, 'Fay', 200), (3, 'Gus', 120), (4, 'Hal', 80), (5, 'Ivy', 300);
CREATE TABLE badges (bno INTEGER PRIMARY KEY, holder TEXT);
INSERT INTO badges VALUES (4471, 'Ann'), (1203, 'Ben'), (9932, 'Cid'), (5550, 'Dee');
CREATE TABLE vault (code TEXT PRIMARY KEY, owner TEXT) WITHOUT ROWID;
INSERT INTO vault VALUES ('zeta', 'Ann'), ('alpha', 'Ben'), ('mike', 'Cid'), ('delta', 'Dee');
CREATE TABLE bonuses (id INTEGER PRIMARY KEY, name TEXT, bonus INTEGER, bonus2 INTEGER GENERATED ALWAYS AS (bonus * 2));
INSERT INTO bonuses (id, name, bonus) VALUES (1, 'Ann', 1000), (2, 'Ben', 5000), (3, 'Cid', 250), (4, 'Dee', 9999);
CREATE TABLE tokens (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT, secret TEXT UNIQUE);
INSERT INTO tokens (label, secret) VALUES ('a', 's3cr3t-aaa'), ('b', 'hunter2');
CREATE TABLE st (id INTEGER PRIMARY KEY, grade INTEGER, region TEXT, nm TEXT);
CREATE INDEX st_gr ON st(grade, region);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO st SELECT i, (i * 7) % 3, printf('r%02d', i % 20), printf('n%d', i) FROM n;
ANALYZE;
CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT);
INSERT INTO notes VALUES (1, 'a', 'orchid password'), (2, 'b', 'hello world');
CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content='notes', content_rowid='id');
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE copies_fts USING fts5(body);
INSERT INTO copies_fts SELECT body FROM notes;
`)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	policy := "restricted:\n"
	for _, col := range []string{"employees.salary", "contractors.rate", "badges.bno", "vault.code", "bonuses.bonus", "tokens.secret", "st.grade", "notes.body"} {
		policy += "  - column: " + col + "\n    reason: secret\n"
	}
	project := func(conn string) string {
		p := t.TempDir()
		if err := os.MkdirAll(filepath.Join(p, "knowledge"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "knowledge", "policy.yaml"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
		yaml := "version: 1\nknowledge: knowledge\nstate: .quarry/state.db\nmodel:\n  provider: builtin\nconnections:\n  hr:\n" + conn
		if err := os.WriteFile(filepath.Join(p, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	direct := project("    driver: sqlite\n    path: " + db + "\n")
	behind := project("    driver: mcp\n    command: quarry\n    args: [connector, sqlite, " + db + "]\n    dialect: sqlite\n")
	for _, sql := range []string{
		"SELECT rowid AS n, holder FROM badges",
		"SELECT max(_rowid_) AS top FROM badges",
		"SELECT min(oid) FROM badges",
		"SELECT holder FROM badges WHERE rowid = 4471",
		"SELECT bonus2 FROM bonuses",
		"SELECT name FROM bonuses WHERE bonus2 > 5000",
		"SELECT id FROM contractors",
		"SELECT json_group_array(id) FROM contractors",
		"SELECT id FROM contractors LIMIT 1 OFFSET 4",
		"SELECT owner FROM vault",
		"SELECT id FROM tokens",
		"SELECT count(*) FROM emp_rich",
		"SELECT EXISTS (SELECT 1 FROM emp_rich)",
		"SELECT name FROM emp_rich",
		// The real file's statistics make SQLite skip-scan the index on
		// grade, handing the rows out grouped by it (a second attacker's).
		"SELECT nm FROM st WHERE region = 'r01' LIMIT 10",
		"SELECT group_concat(nm) FROM (SELECT nm FROM st WHERE region = 'r01')",
		// The tables SQLite keeps for an FTS index hold the text and the
		// terms of the columns it indexes.
		"SELECT block FROM notes_fts_data",
		"SELECT * FROM notes_fts_idx",
		"SELECT * FROM copies_fts_content",
	} {
		for _, p := range []string{direct, behind} {
			r := quarryProc(t, bin, p, "run", "--format", "csv", sql)
			if r.code != 1 || !strings.Contains(r.stderr, "restricted") && !strings.Contains(r.stderr, "copy of the database's schema") {
				t.Errorf("%s (%s): exit %d, want refused\n%s%s", sql, filepath.Base(p), r.code, r.stdout, r.stderr)
			}
		}
	}
	for _, sql := range []string{
		"SELECT name FROM employees ORDER BY name",
		"SELECT count(*) FROM badges",
		"SELECT name FROM contractors ORDER BY name",
		"SELECT label FROM tokens ORDER BY label",
		"SELECT title FROM notes ORDER BY title",
	} {
		want := quarryProc(t, bin, direct, "run", "--format", "csv", sql)
		got := quarryProc(t, bin, behind, "run", "--format", "csv", sql)
		if want.code != 0 || got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%s: direct exit %d %q, through MCP exit %d %q\n%s%s", sql, want.code, want.stdout, got.code, got.stdout, want.stderr, got.stderr)
		}
	}
}
