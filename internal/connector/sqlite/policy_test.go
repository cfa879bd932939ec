package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// policyDB is a database whose restricted columns are reachable in every
// way SQLite can store them: a plain column, an index on it, an index on
// an expression over it, a generated column over it, a WITHOUT ROWID
// table, and a view.
func policyDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Exec(`
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, country TEXT,
  domain TEXT GENERATED ALWAYS AS (substr(email, instr(email, '@') + 1)) VIRTUAL);
CREATE INDEX customers_email ON customers(email);
CREATE INDEX customers_lower ON customers(lower(email));
CREATE TABLE leads (id INTEGER PRIMARY KEY, email TEXT, source TEXT);
CREATE TABLE badges (code TEXT PRIMARY KEY, secret TEXT, label TEXT) WITHOUT ROWID;
CREATE VIEW contacts AS SELECT name, email FROM customers;
CREATE VIEW filtered AS SELECT name FROM customers WHERE email LIKE '%@hidden.example';
CREATE VIEW grouped AS SELECT country, count(DISTINCT email) AS n FROM customers GROUP BY country;
INSERT INTO customers (id, name, email, country) VALUES (1, 'Ada', 'ada@hidden.example', 'DE'), (2, 'Linus', 'linus@hidden.example', 'FI');
INSERT INTO leads VALUES (1, 'ada@hidden.example', 'web');
INSERT INTO badges VALUES ('a', 's3cr3t', 'gold');
ANALYZE;`)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPolicyOnSQLite: the authorizer and the compiled program together
// refuse every read of a restricted column, and nothing else.
func TestPolicyOnSQLite(t *testing.T) {
	p := policy.New([]string{"customers.email", "badges.secret"})
	c := open(t, policyDB(t), Options{Policy: p})
	ctx := context.Background()
	for _, sql := range []string{
		`SELECT email FROM customers`,
		`SELECT * FROM customers`,
		`SELECT name FROM customers WHERE email > 'm'`,
		`SELECT name FROM customers ORDER BY email`,
		`SELECT email FROM contacts`,
		`SELECT name FROM contacts`,
		`SELECT * FROM contacts`,
		`SELECT name FROM filtered`,
		`SELECT country FROM grouped`,
		`SELECT name FROM contacts WHERE email IS NULL`,
		`SELECT domain FROM customers`,
		`SELECT name FROM customers WHERE lower(email) = 'x'`,
		`SELECT l.source FROM leads l JOIN customers c USING (email)`,
		`SELECT l.source FROM leads l NATURAL JOIN customers`,
		`SELECT l.source FROM leads l JOIN customers c ON c.email = l.email`,
		`SELECT label FROM badges WHERE secret = 'x'`,
		`SELECT * FROM badges`,
		`SELECT * FROM sqlite_stat1`,
		`SELECT count(*) FROM customers GROUP BY email`,
		`EXPLAIN QUERY PLAN SELECT name FROM contacts WHERE email = 'x'`,
		// The order of an index on a restricted column is an answer too.
		`SELECT id FROM customers INDEXED BY customers_email`,
		`SELECT id FROM customers INDEXED BY customers_lower`,
		// SQLite picks the index on lower(email) to find the rowids: the
		// rows would come out in that order.
		`SELECT l.source FROM leads l JOIN customers c ON c.id = l.id`,
		`EXPLAIN SELECT source FROM leads`,
	} {
		rows, err := c.Query(ctx, sql, connector.QueryOptions{})
		if rows != nil {
			rows.Close()
		}
		if quarry.KindOf(err) != quarry.KindForbidden || !strings.Contains(quarry.Message(err), "restrict") {
			t.Errorf("%s: %v, want refused by the policy", sql, err)
		}
		if v := c.Check(ctx, sql, sqlguard.Options{}); v.Allowed || len(v.Violations) == 0 || v.Violations[0].Code != policy.Code {
			t.Errorf("Check(%s) = %+v, want a %s violation", sql, v, policy.Code)
		}
	}
	for _, sql := range []string{
		`SELECT id, name, country FROM customers`,
		`SELECT count(*) FROM customers`,
		`SELECT email FROM leads`,
		`SELECT code, label FROM badges`,
		`SELECT l.source FROM leads l JOIN customers c NOT INDEXED ON c.id = l.id`,
		`SELECT name FROM customers WHERE id = 1`,
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

// BenchmarkPolicyCheck measures the engine check of a typical analytics
// statement on a connection with and without restricted columns: with
// them, the authorizer's decisions plus the compiled program's reading
// (EXPLAIN) that catches USING and NATURAL joins.
func BenchmarkPolicyCheck(b *testing.B) {
	path := filepath.Join(b.TempDir(), "p.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, country TEXT);
CREATE INDEX customers_email ON customers(email);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total REAL, status TEXT, ordered_at TEXT);`); err != nil {
		b.Fatal(err)
	}
	db.Close()
	sql := `SELECT c.country, strftime('%Y-%m', o.ordered_at) AS month, count(*) AS orders, sum(o.total) AS revenue
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE o.status = 'completed' AND c.id IN (SELECT customer_id FROM orders WHERE total > 10)
GROUP BY 1, 2 ORDER BY 2, 4 DESC LIMIT 100`
	for _, tc := range []struct {
		name string
		p    *policy.Policy
	}{{"no-policy", nil}, {"policy", policy.New([]string{"customers.email"})}} {
		b.Run(tc.name, func(b *testing.B) {
			c := open(b, path, Options{Policy: tc.p})
			for b.Loop() {
				if v := c.Check(context.Background(), sql, sqlguard.Options{}); !v.Allowed {
					b.Fatal(v.String())
				}
			}
		})
	}
}

// TestPolicyFollowsSchemaChanges: an index made on a restricted column
// after the connection opened is known at the next statement.
func TestPolicyFollowsSchemaChanges(t *testing.T) {
	path := policyDB(t)
	c := open(t, path, Options{Policy: policy.New([]string{"leads.email"})})
	ctx := context.Background()
	rows, err := c.Query(ctx, `SELECT id FROM leads`, connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Exec(`CREATE INDEX leads_email ON leads(email)`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := c.Query(ctx, `SELECT id FROM leads INDEXED BY leads_email`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindForbidden {
		t.Errorf("a walk of an index made after the first statement: %v, want refused", err)
	}
}

// TestCheckIsSafeForConcurrentUse: the guard of quarry serve checks the
// statements of concurrent requests on one connection; they wait for one
// another instead of failing as busy.
func TestCheckIsSafeForConcurrentUse(t *testing.T) {
	c := open(t, policyDB(t), Options{Policy: policy.New([]string{"customers.email"})})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 16 {
		wg.Go(func() {
			for range 4 {
				if v := c.Check(context.Background(), `SELECT name, country FROM customers`, sqlguard.Options{}); !v.Allowed {
					errs <- v.String()
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a concurrent check failed: %s", e)
		break
	}
}

// TestPolicyLater: a connection opened before its policy is known runs
// nothing of the user's, nor checks it, until SetPolicy; then the policy
// holds.
func TestPolicyLater(t *testing.T) {
	c := open(t, policyDB(t), Options{Policy: policy.New(nil), PolicyLater: true})
	ctx := context.Background()
	if _, err := c.Query(ctx, `SELECT name FROM customers`, connector.QueryOptions{}); err == nil {
		t.Error("a query before SetPolicy ran")
	}
	if v := c.Check(ctx, `SELECT name FROM customers`, sqlguard.Options{}); v.Allowed {
		t.Error("a check before SetPolicy allowed the statement")
	}
	c.SetPolicy(policy.New([]string{"customers.email"}))
	rows, err := c.Query(ctx, `SELECT name FROM customers`, connector.QueryOptions{})
	if err != nil {
		t.Fatalf("a query after SetPolicy: %v", err)
	}
	rows.Close()
	if _, err := c.Query(ctx, `SELECT email FROM customers`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindForbidden {
		t.Errorf("a restricted column after SetPolicy: %v, want refused", err)
	}
}
