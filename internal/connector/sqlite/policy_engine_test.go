package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// TestPolicyHoldsWhereSQLiteSkipsTheAuthorizer: the reads an outside
// tester made through comparisons SQLite builds without asking the
// authorizer (JOIN ... USING, NATURAL JOIN) and through the places SQLite
// keeps facts about restricted values (the rowid order of a table whose
// INTEGER PRIMARY KEY is restricted, the schema's definitions, the
// statistics tables). Each must be refused by the policy.
func TestPolicyHoldsWhereSQLiteSkipsTheAuthorizer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`
CREATE TABLE accounts (acct_no INTEGER PRIMARY KEY, owner TEXT);
INSERT INTO accounts VALUES (12345, 'Cid'), (40017, 'Ann'), (90211, 'Bob');
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, salary REAL);
INSERT INTO employees VALUES (1, 'A', 100000), (2, 'B', 250000), (3, 'C', 90000);
CREATE INDEX employees_high ON employees(id) WHERE salary > 200000;
CREATE VIEW emp_pub AS SELECT id, name FROM employees WHERE salary > 150000;
CREATE TABLE orders (id INTEGER PRIMARY KEY, acct_no INTEGER, total REAL);
CREATE INDEX employees_salary ON employees(salary);
CREATE TABLE tokens (tok TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
CREATE TABLE pay (pid INTEGER PRIMARY KEY, amt INTEGER, note INTEGER GENERATED ALWAYS AS (amt * 2) VIRTUAL, half INTEGER GENERATED ALWAYS AS (amt / 2) STORED, memo TEXT);
CREATE INDEX pay_note ON pay(note);
INSERT INTO pay (pid, amt, memo) VALUES (1, 5, 'a'), (2, 777, 'b');
CREATE TABLE badge (bno INTEGER PRIMARY KEY AUTOINCREMENT, holder TEXT);
INSERT INTO badge VALUES (31337, 'x');
INSERT INTO tokens VALUES ('t1', 'x');
INSERT INTO orders VALUES (1, 12345, 10), (2, 90211, 20);
ANALYZE;`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	p := policy.New([]string{"accounts.acct_no", "employees.salary", "tokens.tok", "pay.amt", "badge.bno"})
	c := open(t, path, Options{Policy: p})
	ctx := context.Background()
	refused := []string{
		// A restricted INTEGER PRIMARY KEY is the rowid: compared through
		// USING without the authorizer, and the order the table is kept in.
		`WITH RECURSIVE r(acct_no, k) AS (SELECT 1, 1 UNION ALL SELECT acct_no + 1, k + 1 FROM r WHERE acct_no < 100000) SELECT r.k AS recovered, owner FROM r JOIN accounts USING (acct_no)`,
		`WITH r(acct_no) AS (VALUES (12345)) SELECT owner FROM r NATURAL JOIN accounts`,
		`SELECT owner FROM accounts`,
		`SELECT owner FROM accounts NOT INDEXED LIMIT 1 OFFSET 1`,
		`SELECT rowid, owner FROM accounts`,
		`SELECT owner FROM accounts WHERE rowid = 12345`,
		`SELECT o.total FROM orders o JOIN accounts a ON a.acct_no = o.acct_no`,
		`SELECT o.total FROM orders o JOIN accounts a USING (acct_no)`,
		// Definitions that copy restricted values as literals, compared
		// through USING.
		`SELECT name FROM sqlite_master JOIN (SELECT 'CREATE VIEW emp_pub AS SELECT id, name FROM employees WHERE salary > 150000' AS sql) USING (sql)`,
		`SELECT name FROM sqlite_schema NATURAL JOIN (SELECT 'CREATE INDEX employees_high ON employees(id) WHERE salary > 200000' AS sql, 'employees_high' AS name)`,
		// Statistics: the row count of a partial index on a restricted
		// condition, directly and through USING.
		`SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'employees'`,
		`SELECT * FROM sqlite_stat1`,
		// Whether a partial index has a row at all says whether any row
		// meets its condition (an attacker's case: tbl, idx read alone).
		`SELECT tbl, idx FROM sqlite_stat1`,
		`SELECT count(*) FROM sqlite_stat1 WHERE idx = 'acc_multimillionaires'`,
		`SELECT count(*) FROM sqlite_stat1`,
		`SELECT count(*) FROM sqlite_stat1 JOIN (SELECT '3 1' AS stat) USING (stat)`,
		// Generated columns computed from a restricted one: a VIRTUAL
		// column's index keeps its values, a STORED column keeps them in
		// the row (found from outside, round 2).
		`SELECT note FROM pay INDEXED BY pay_note`,
		`SELECT min(note) FROM pay`,
		`SELECT pid FROM pay ORDER BY note`,
		`SELECT pid, half FROM pay`,
		`SELECT half * 2 AS x FROM pay`,
		// The largest value an AUTOINCREMENT key (restricted) has had.
		`SELECT name, seq FROM sqlite_sequence`,
		`SELECT count(*) FROM sqlite_sequence WHERE seq > 30000`,
		`SELECT name FROM sqlite_sequence JOIN (SELECT 31337 AS seq) USING (seq)`,
	}
	if hasTable(t, c, "sqlite_stat4") {
		refused = append(refused,
			`SELECT * FROM sqlite_stat4`,
			`SELECT count(*) AS hit FROM sqlite_stat4 JOIN (SELECT x'00' AS sample) USING (sample)`)
	}
	for _, sql := range refused {
		rows, err := c.Query(ctx, sql, connector.QueryOptions{})
		if rows != nil {
			for rows.Next() {
			}
			rows.Close()
		}
		if quarry.KindOf(err) != quarry.KindForbidden || !strings.Contains(quarry.Message(err), "restrict") {
			t.Errorf("%s: %v, want refused by the policy", sql, err)
		}
		if v := c.Check(ctx, sql, sqlguard.Options{}); v.Allowed {
			t.Errorf("Check(%s) allowed it", sql)
		}
	}
	// The advice fits the table: NOT INDEXED where it helps, and naming
	// the table the statement reads.
	for sql, want := range map[string]string{
		`SELECT name FROM employees INDEXED BY employees_salary`: "FROM employees NOT INDEXED",
		`SELECT label FROM tokens NOT INDEXED`:                   "only count(*) of tokens",
		`SELECT owner FROM accounts NOT INDEXED`:                 "only count(*) of accounts",
	} {
		_, err := c.Query(ctx, sql, connector.QueryOptions{})
		if msg := quarry.Message(err); !strings.Contains(msg, want) || sql != `SELECT name FROM employees INDEXED BY employees_salary` && strings.Contains(msg, "NOT INDEXED after") {
			t.Errorf("%s: %q, want advice with %q", sql, msg, want)
		}
	}
	for _, sql := range []string{
		`SELECT count(*) FROM tokens`,
		`SELECT count(*) FROM accounts`,
		`SELECT name FROM employees`,
		`SELECT name, type FROM sqlite_master`,
		`SELECT total FROM orders`,
		`SELECT pid, memo FROM pay NOT INDEXED`,
		`SELECT name FROM sqlite_sequence`,
	} {
		rows, err := c.Query(ctx, sql, connector.QueryOptions{})
		if err != nil {
			t.Errorf("%s: %v, want allowed", sql, err)
			continue
		}
		for rows.Next() {
		}
		rows.Close()
	}
}

func hasTable(t *testing.T, c *Conn, name string) bool {
	t.Helper()
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_ = cat
	c.auth.internal = true
	defer func() { c.auth.internal = false }()
	stmt, _, err := c.db.Prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	stmt.BindText(1, name)
	return stmt.Step()
}
