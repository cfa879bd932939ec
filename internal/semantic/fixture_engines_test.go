package semantic

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// The compile cases' rows, hand-computed on the fixture, hold on every
// server engine too: the fixture is loaded into PostgreSQL and MariaDB
// and each case's SQL for that dialect is run there. Golden SQL alone
// never ran (found from outside: two measures by a group failed on
// PostgreSQL).

// fixtureFor is the fixture's SQL in a server's types: REAL as DOUBLE
// PRECISION (float4 would round the discounts), and for MySQL DATETIME
// for TIMESTAMP (whose defaults and range differ).
func fixtureFor(t *testing.T, d quarry.Dialect) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/fixture.sql")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), " REAL", " DOUBLE PRECISION")
	if d == quarry.DialectMySQL {
		s = strings.ReplaceAll(s, " TIMESTAMP", " DATETIME")
	}
	var out []string
	for _, stmt := range strings.Split(s, ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out
}

func engineText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05")
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return roundText(x)
	case float32:
		return roundText(float64(x))
	case []byte:
		return numberOrText(string(x))
	case string:
		return numberOrText(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	default:
		return numberOrText(fmt.Sprint(x))
	}
}

func roundText(f float64) string {
	return strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64)
}

// numberOrText writes a decimal as a number ("90.000000" is 90), a
// date-time at midnight as its day, and anything else as it is.
func numberOrText(s string) string {
	if f, err := strconv.ParseFloat(s, 64); err == nil && strings.ContainsAny(s, ".") {
		return roundText(f)
	}
	if len(s) == 19 && strings.HasSuffix(s, " 00:00:00") {
		return s[:10]
	}
	return s
}

func sortedRows(rows [][]string) [][]string {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
	return out
}

func runFixtureCases(t *testing.T, db *sql.DB, d quarry.Dialect, setup []string) {
	t.Helper()
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	m := loadModel(t)
	for _, tc := range compileCases() {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(m, tc.q, d)
			if err != nil {
				t.Fatal(err)
			}
			want, got := tc.want, engineRows(t, db, c.SQL)
			if len(tc.q.Order) == 0 {
				// Groups in their own order: where a NULL group goes
				// (first on SQLite and MySQL, last on PostgreSQL) is the
				// engine's; an asked-for order puts NULLs last everywhere.
				want, got = sortedRows(want), sortedRows(got)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s rows differ (-want +got):\n%s\n%s", d, diff, c.SQL)
			}
		})
	}
}

func TestFixtureCasesOnPostgres(t *testing.T) {
	db, err := sql.Open("pgx", connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	schema := []string{"DROP SCHEMA IF EXISTS qf_test CASCADE", "CREATE SCHEMA qf_test", "SET search_path TO qf_test"}
	t.Cleanup(func() { db.Exec("DROP SCHEMA qf_test CASCADE") })
	runFixtureCases(t, db, quarry.DialectPostgres, append(schema, fixtureFor(t, quarry.DialectPostgres)...))
}

func TestFixtureCasesOnMySQL(t *testing.T) {
	db, err := sql.Open("mysql", connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)+"?parseTime=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var drop []string
	for _, tb := range []string{"customers", "products", "orders", "order_items", "plans", "subscriptions", "employees", "support_tickets", "web_sessions"} {
		drop = append(drop, "DROP TABLE IF EXISTS "+tb)
	}
	t.Cleanup(func() {
		for _, s := range drop {
			db.Exec(s)
		}
	})
	runFixtureCases(t, db, quarry.DialectMySQL, append(drop, fixtureFor(t, quarry.DialectMySQL)...))
}
