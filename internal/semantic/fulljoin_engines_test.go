package semantic

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Two measures of two tables by one grouping are computed apart and
// joined on the groups, NULL-safely: a group only one table has keeps
// its row, and the group of customers with no country is one row. On
// PostgreSQL a FULL JOIN on IS NOT DISTINCT FROM is refused by the
// engine ("FULL JOIN is only supported with merge-joinable or
// hash-joinable join conditions"), found from outside.
func twoTablesSetup() []string {
	return []string{
		"CREATE TABLE qj_customers (id INTEGER PRIMARY KEY, country VARCHAR(20))",
		"CREATE TABLE qj_orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount DECIMAL(10,2))",
		"CREATE TABLE qj_tickets (id INTEGER PRIMARY KEY, customer_id INTEGER)",
		"INSERT INTO qj_customers VALUES (1, 'DE'), (2, 'FR'), (3, NULL), (4, 'IT')",
		// DE orders and tickets, FR orders only, IT tickets only, no country both.
		"INSERT INTO qj_orders VALUES (1, 1, 10.50), (2, 1, 4.50), (3, 2, 7.00), (4, 3, 1.25)",
		"INSERT INTO qj_tickets VALUES (1, 1), (2, 4), (3, 4), (4, 3), (5, 3), (6, 3)",
	}
}

func twoTablesModel() *Model {
	ent := func(name string, cols ...Column) Entity {
		return Entity{Name: name, PrimaryKey: "id", Columns: append([]Column{{Name: "id", Type: quarry.TypeInt}}, cols...)}
	}
	return &Model{
		Entities: []Entity{
			ent("qj_customers", Column{Name: "country", Type: quarry.TypeText}),
			ent("qj_orders", Column{Name: "customer_id", Type: quarry.TypeInt}, Column{Name: "amount", Type: quarry.TypeDecimal}),
			ent("qj_tickets", Column{Name: "customer_id", Type: quarry.TypeInt}),
		},
		Relationships: []Relationship{
			{From: "qj_orders", FromColumn: "customer_id", To: "qj_customers", ToColumn: "id", Cardinality: ManyToOne},
			{From: "qj_tickets", FromColumn: "customer_id", To: "qj_customers", ToColumn: "id", Cardinality: ManyToOne},
		},
		Metrics: []Metric{
			{Name: "sales", Entity: "qj_orders", Expr: "SUM(qj_orders.amount)", Format: "number"},
			{Name: "tickets", Entity: "qj_tickets", Expr: "COUNT(qj_tickets.id)", Format: "integer"},
		},
		Dimensions: []Dimension{{Name: "country", Entity: "qj_customers", Expr: "qj_customers.country"}},
	}
}

func runTwoTables(t *testing.T, db *sql.DB, d quarry.Dialect, setup []string) {
	t.Helper()
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	c, err := Compile(twoTablesModel(), Query{Metrics: []string{"sales", "tickets"}, Dimensions: []DimRef{{Name: "country"}}}, d)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"DE": {15, 1}, "FR": {7, 0}, "IT": {0, 2}, "NULL": {1.25, 3}}
	got := sqlRows(t, db, c.SQL)
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows %v, want %d\n%s", d, len(got), got, len(want), c.SQL)
	}
	for _, r := range got {
		w, ok := want[r[0]]
		if !ok {
			t.Errorf("%s: unexpected group %v\n%s", d, r, c.SQL)
			continue
		}
		sales := r[1]
		if sales == "NULL" {
			sales = "0"
		}
		if !near(sales, w[0]) || !near(r[2], w[1]) {
			t.Errorf("%s: %s has %s and %s, want %v\n%s", d, r[0], r[1], r[2], w, c.SQL)
		}
	}
}

func TestTwoTablesByGroupOnSQLite(t *testing.T) {
	db, err := driver.Open("file:" + filepath.ToSlash(filepath.Join(t.TempDir(), "j.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runTwoTables(t, db, quarry.DialectSQLite, twoTablesSetup())
}

func TestTwoTablesByGroupOnPostgres(t *testing.T) {
	db, err := sql.Open("pgx", connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	schema := []string{"DROP SCHEMA IF EXISTS qj_test CASCADE", "CREATE SCHEMA qj_test", "SET search_path TO qj_test"}
	t.Cleanup(func() { db.Exec("DROP SCHEMA qj_test CASCADE") })
	runTwoTables(t, db, quarry.DialectPostgres, append(schema, twoTablesSetup()...))
}

func TestTwoTablesByGroupOnMySQL(t *testing.T) {
	db, err := sql.Open("mysql", connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	drop := []string{"DROP TABLE IF EXISTS qj_orders", "DROP TABLE IF EXISTS qj_tickets", "DROP TABLE IF EXISTS qj_customers"}
	t.Cleanup(func() {
		for _, s := range drop {
			db.Exec(s)
		}
	})
	runTwoTables(t, db, quarry.DialectMySQL, append(drop, twoTablesSetup()...))
}
