package privacy

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// The engine tests run each statement and its companion on a real engine
// and judge them: Atlantis has 6 people, Lemuria 5, Hyperborea 1 with 6
// orders.
var engineCases = []struct {
	sql      string
	released bool
}{
	{"SELECT country, count(*) AS n FROM qp_people GROUP BY country HAVING count(*) >= 5", true},
	{"SELECT country AS c, count(*) AS n, avg(salary) AS mean FROM qp_people p GROUP BY 1 HAVING count(*) >= 5 ORDER BY n DESC", true},
	{"SELECT count(*), sum(salary) FROM qp_people WHERE country = 'Atlantis'", true},
	{"SELECT p.country, count(*) AS orders FROM qp_orders o JOIN qp_people p ON p.id = o.person_id GROUP BY p.country HAVING count(DISTINCT p.id) >= 5", true},
	{"SELECT country, count(*) FROM qp_people GROUP BY country", false},                                          // Hyperborea is a group of one
	{"SELECT country, count(*) FROM qp_people GROUP BY country ORDER BY count(*) LIMIT 1", false},                // the smallest group
	{"SELECT country, count(*) FROM qp_people GROUP BY country ORDER BY count(*) DESC LIMIT 1", true},            // the largest
	{"SELECT country FROM qp_people GROUP BY country, email", false},                                             // a unique key beside
	{"SELECT email, count(*) FROM qp_people GROUP BY email HAVING count(*) >= 1", false},                         // groups of one
	{"SELECT p.email, count(*) FROM qp_people p, qp_people q GROUP BY p.email", false},                           // one row repeated
	{"SELECT p.email, count(*) FROM qp_people p JOIN qp_orders o ON o.person_id = p.id GROUP BY p.email", false}, // one row fanned out
	{"SELECT count(*) FROM qp_people WHERE salary > 900000", false},                                              // a filter down to one row
	{"SELECT country, max(email) FROM qp_people GROUP BY country HAVING count(*) = 1", false},
	// F1: the engine groups by the column country; name is one row's.
	{"SELECT name AS country, count(*) FROM qp_people GROUP BY country HAVING count(*) >= 5", false},
	// F4: a group of 5 rows whose sum rests on one value, NULLs beside.
	{"SELECT country, count(*), sum(referred_by), count(referred_by) FROM qp_people WHERE id IN (1, 2, 3, 4, 5) GROUP BY country", false},
	{"SELECT country, count(*), sum(salary) FROM qp_people WHERE id IN (1, 2, 3, 4, 5) GROUP BY country", true},
}

const engineRows = 12

func engineSetup(pk string) []string {
	stmts := []string{
		"CREATE TABLE qp_people (id INTEGER " + pk + ", name VARCHAR(40), email VARCHAR(60), country VARCHAR(20), salary INTEGER, referred_by INTEGER)",
		"CREATE TABLE qp_orders (id INTEGER " + pk + ", person_id INTEGER, amount DECIMAL(10,2))",
	}
	for i := 1; i <= engineRows; i++ {
		country := map[bool]string{true: "Atlantis", false: "Lemuria"}[i <= 6]
		if i == engineRows {
			country = "Hyperborea"
		}
		referred := "NULL"
		if i == 3 {
			referred = "448" // the one referral of Atlantis's first five
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO qp_people VALUES (%d, 'n%d', 'e%d@example.test', '%s', %d, %s)", i, i, i, country, 500000+i*7919, referred))
	}
	for i := 1; i <= 17; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO qp_orders VALUES (%d, %d, %d.25)", i, min(i, engineRows), 100+i))
	}
	return stmts
}

var engineCatalog = &quarry.Catalog{Tables: []quarry.TableInfo{{Name: "qp_people", PrimaryKey: []string{"id"}}, {Name: "qp_orders", PrimaryKey: []string{"id"}}}}

func TestAggregatesOnSQLite(t *testing.T) {
	db, err := driver.Open("file:" + filepath.ToSlash(filepath.Join(t.TempDir(), "e.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runEngine(t, db, quarry.DialectSQLite, engineSetup("PRIMARY KEY"))
}

func TestAggregatesOnPostgres(t *testing.T) {
	db, err := sql.Open("pgx", connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	schema := []string{"DROP SCHEMA IF EXISTS qp_test CASCADE", "CREATE SCHEMA qp_test", "SET search_path TO qp_test"}
	t.Cleanup(func() { db.Exec("DROP SCHEMA qp_test CASCADE") })
	runEngine(t, db, quarry.DialectPostgres, append(schema, engineSetup("PRIMARY KEY")...))
}

func TestAggregatesOnMySQL(t *testing.T) {
	db, err := sql.Open("mysql", connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	drop := []string{"DROP TABLE IF EXISTS qp_people", "DROP TABLE IF EXISTS qp_orders"}
	t.Cleanup(func() {
		for _, s := range drop {
			db.Exec(s)
		}
	})
	runEngine(t, db, quarry.DialectMySQL, append(drop, engineSetup("PRIMARY KEY")...))
}

// runEngine sets the tables up, then runs every case and its companion
// and judges them with k = 5.
func runEngine(t *testing.T, db *sql.DB, d quarry.Dialect, setup []string) {
	t.Helper()
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for _, tc := range engineCases {
		why := judgeOn(t, db, d, tc.sql)
		if (why == "") != tc.released {
			t.Errorf("%s: %s: released %v (%s), want %v", d, tc.sql, why == "", why, tc.released)
		}
	}
}

func judgeOn(t *testing.T, db *sql.DB, d quarry.Dialect, stmt string) string {
	t.Helper()
	p, err := Aggregated(d, stmt, engineCatalog)
	if err != nil {
		return quarry.Message(err)
	}
	result := query(t, db, stmt)
	companion := query(t, db, p.Companion)
	return Judge(p, result, companion, 5)
}

func query(t *testing.T, db *sql.DB, stmt string) *quarry.Table {
	t.Helper()
	rows, err := db.Query(stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	tb := &quarry.Table{}
	for _, c := range cols {
		tb.Columns = append(tb.Columns, quarry.Column{Name: c})
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = strings.Clone(string(b))
			}
		}
		tb.Rows = append(tb.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return tb
}
