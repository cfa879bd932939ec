package analyst

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/verify"
)

// sqliteAnalyst is an Analyst over a new SQLite database made by schema,
// read through the real connector and guard.
func sqliteAnalyst(t *testing.T, schema string) *Analyst {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c, err := sqlite.Open(context.Background(), path, sqlite.Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &Analyst{Conn: c, Connection: "test", Clock: fixedClock(),
		Guard: GuardFunc(func(_ context.Context, sql string) sqlguard.Verdict {
			return sqlguard.Check(sql, sqlguard.Options{Dialect: quarry.DialectSQLite})
		})}
}

// runCheck answers q on a's database and runs a check of the answer.
func runCheck(t *testing.T, a *Analyst, m *semantic.Model, q semantic.Query, check func(context.Context, *semantic.Model, *semantic.Query, *Result, *semantic.Compiled) verify.Check) verify.Check {
	t.Helper()
	c, err := semantic.Compile(m, q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.read(context.Background(), c.SQL, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return check(context.Background(), m, &q, res, c)
}

// reconcileShop is a shop in which order 4 belongs to no known customer
// and order 5 has two tags, so that a grouping can lose rows or count some
// twice.
const reconcileShop = `CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL);
CREATE TABLE tags (order_id INTEGER, tag TEXT);
INSERT INTO customers VALUES (1, 'DE'), (2, 'FR'), (3, 'DE');
INSERT INTO orders VALUES (1, 1, 10), (2, 2, 20), (3, 3, 30), (4, 99, 40), (5, 1, 50);
INSERT INTO tags VALUES (1, 'gift'), (2, 'sale'), (3, 'gift'), (4, 'sale'), (5, 'gift'), (5, 'sale');`

func reconcileModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Table: "customers", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "country", Type: quarry.TypeText}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "customer_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}}},
			{Name: "tags", Table: "tags", Columns: []semantic.Column{{Name: "order_id", Type: quarry.TypeInt}, {Name: "tag", Type: quarry.TypeText}}},
		},
		Relationships: []semantic.Relationship{
			{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: "many_to_one"},
			{From: "tags", FromColumn: "order_id", To: "orders", ToColumn: "id", Cardinality: "many_to_one"},
		},
		Metrics: []semantic.Metric{
			{Name: "revenue", Entity: "orders", Expr: "SUM(orders.amount)"},
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"},
			{Name: "buyers", Entity: "orders", Expr: "COUNT(DISTINCT orders.customer_id)"},
			{Name: "average_amount", Entity: "orders", Expr: "AVG(orders.amount)"},
		},
		Dimensions: []semantic.Dimension{
			{Name: "country", Entity: "customers", Expr: "customers.country"},
			{Name: "tag", Entity: "tags", Expr: "tags.tag"},
		},
	}
}

// TestReconcileCheck holds grouped results to the same measure without
// the grouping, on a real SQLite database: a grouping that loses an
// order, one that counts an order twice, and one that adds up.
func TestReconcileCheck(t *testing.T) {
	a := sqliteAnalyst(t, reconcileShop)
	m := reconcileModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	run := func(q semantic.Query) (string, string) {
		t.Helper()
		ch := runCheck(t, a, m, q, a.ReconcileCheck)
		return ch.Status, ch.Detail
	}
	for _, tc := range []struct {
		name   string
		q      semantic.Query
		status string
		detail string
	}{
		{"an order of no known customer is a group of its own", semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "country"}}}, "pass", "the 3 groups of revenue add up to the total of 150"},
		{"orders by tag count order 5 under each of its tags", semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "tag"}}}, "pass", "add up to 6, more than the 5 in all: some are counted in more than one group"},
		{"distinct buyers by tag may overlap", semantic.Query{Metrics: []string{"buyers"}, Dimensions: []semantic.DimRef{{Name: "tag"}}}, "pass", "more than one group"},
		{"a ratio does not add up and is not held to it", semantic.Query{Metrics: []string{"average_amount"}, Dimensions: []semantic.DimRef{{Name: "tag"}}}, "", ""},
		{"a top 1 is a part of the whole", semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "country"}}, Order: []semantic.Order{{Field: "revenue", Desc: true}}, Limit: 1}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, detail := run(tc.q)
			if status != tc.status || !strings.Contains(detail, tc.detail) {
				t.Errorf("got %s %q, want %s containing %q", status, detail, tc.status, tc.detail)
			}
			if status != "" && !strings.Contains(detail, "control query: SELECT") {
				t.Errorf("the check does not name its control query: %q", detail)
			}
		})
	}
}

func TestReconcileArithmetic(t *testing.T) {
	for _, tc := range []struct {
		kind       string
		sum, total float64
		status     string
		detail     string
	}{
		{"sum", 110, 150, "warn", "40 is in no group shown"},
		{"sum", 149.999, 150, "pass", "add up to the total of 150"},
		{"count", 6, 5, "warn", "counted in more than one group"},
		{"distinct", 6, 5, "pass", "counted in more than one group"},
		{"distinct", 4, 5, "warn", "1 is in no group shown"},
	} {
		status, detail := reconcile("m", tc.kind, 3, tc.sum, tc.total)
		if status != tc.status || !strings.Contains(detail, tc.detail) {
			t.Errorf("reconcile(%s, %v, %v) = %s %q, want %s containing %q", tc.kind, tc.sum, tc.total, status, detail, tc.status, tc.detail)
		}
	}
}
