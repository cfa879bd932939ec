package semantic

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
	_ "github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// weekModel is one entity of dated events with an amount: enough to cut
// by the day and the part of the week on every engine.
func weekModel() *Model {
	return &Model{
		Entities: []Entity{{Name: "wk_events", PrimaryKey: "id", TimeColumn: "happened_at", Columns: []Column{
			{Name: "id", Type: "int"}, {Name: "happened_at", Type: "timestamp"}, {Name: "amount", Type: "int"}}}},
		Metrics: []Metric{
			{Name: "events", Entity: "wk_events", Expr: "COUNT(wk_events.id)"},
			{Name: "amount", Entity: "wk_events", Expr: "SUM(wk_events.amount)"},
		},
	}
}

// weekRows are the events: one at 23:30 on each day from Monday
// 2025-06-02 to Sunday 2025-06-15 (two whole weeks, the amount its place
// 1 to 14), so that a day read in another zone or numbering lands on the
// wrong side of a weekend, and one without a date, which is on no day.
func weekRows() (ats []string, amounts []int) {
	start := time.Date(2025, 6, 2, 23, 30, 0, 0, time.UTC)
	for i := range 14 {
		ats = append(ats, start.AddDate(0, 0, i).Format("2006-01-02 15:04:05"))
		amounts = append(amounts, i+1)
	}
	return ats, amounts
}

// weekCases are the queries and their rows, computed in Go from weekRows, by time.Weekday.
func weekCases() []struct {
	name string
	q    Query
	want [][]string
} {
	ats, amounts := weekRows()
	sum := func(keep func(time.Weekday) bool) (n, s int) {
		for i, at := range ats {
			d, _ := time.Parse("2006-01-02 15:04:05", at)
			if keep(d.Weekday()) {
				n++
				s += amounts[i]
			}
		}
		return n, s
	}
	weekend := func(d time.Weekday) bool { return d == time.Saturday || d == time.Sunday }
	weekday := func(d time.Weekday) bool { return !weekend(d) }
	monday := func(d time.Weekday) bool { return d == time.Monday }
	nd, sd := sum(weekday)
	ne, se := sum(weekend)
	nm, _ := sum(monday)
	itoa := func(n int) string { return fmt.Sprint(n) }
	return []struct {
		name string
		q    Query
		want [][]string
	}{
		{"events by part of week", Query{Metrics: []string{"events"}, Dimensions: []DimRef{{Name: "part_of_week"}}},
			[][]string{{"NULL", "1"}, {"weekday", itoa(nd)}, {"weekend", itoa(ne)}}},
		{"amount by part of week", Query{Metrics: []string{"amount"}, Dimensions: []DimRef{{Name: "time", Grain: GrainPartOfWeek}}},
			[][]string{{"NULL", "100"}, {"weekday", itoa(sd)}, {"weekend", itoa(se)}}},
		{"on weekends", Query{Metrics: []string{"events", "amount"}, Filters: []Filter{{Field: "part_of_week", Op: OpEq, Values: []any{"weekend"}}}},
			[][]string{{itoa(ne), itoa(se)}}},
		{"on weekdays", Query{Metrics: []string{"amount"}, Filters: []Filter{{Field: "wk_events.happened_at", Grain: GrainPartOfWeek, Op: OpIn, Values: []any{"weekday"}}}},
			[][]string{{itoa(sd)}}},
		{"not on weekends", Query{Metrics: []string{"events"}, Filters: []Filter{{Field: "part_of_week", Op: OpNe, Values: []any{"weekend"}}}},
			[][]string{{itoa(nd)}}},
		{"on Mondays", Query{Metrics: []string{"events"}, Filters: []Filter{{Field: "day_of_week", Op: OpEq, Values: []any{"Monday"}}}},
			[][]string{{itoa(nm)}}},
		{"weekend by day of week", Query{Metrics: []string{"events"}, Dimensions: []DimRef{{Name: "day_of_week"}}, Filters: []Filter{{Field: "part_of_week", Op: OpEq, Values: []any{"weekend"}}}},
			[][]string{{"Saturday", "2"}, {"Sunday", "2"}}},
		{"weekend events listed", Query{Rows: &RowsQuery{Entity: "wk_events", Columns: []string{"id"}}, Filters: []Filter{{Field: "part_of_week", Op: OpEq, Values: []any{"weekend"}}}, Order: []Order{{Field: "id"}}},
			[][]string{{"6"}, {"7"}, {"13"}, {"14"}}},
	}
}

// TestWeekendEveryEngine runs the part of the week and the filters by day
// on each engine the compiler knows — SQLite with its dates stored as
// text, PostgreSQL, MariaDB (their servers from scripts/services.sh;
// skipped without them, failed in CI) and DuckDB — and compares the rows
// with the same figures computed in Go. Each engine numbers the days its
// own way (strftime('%w') 0 for Sunday, ISODOW 7 for Sunday, WEEKDAY 0
// for Monday).
func TestWeekendEveryEngine(t *testing.T) {
	ats, amounts := weekRows()
	insert := func(ts func(string) string) []string {
		var vals []string
		for i, at := range ats {
			vals = append(vals, fmt.Sprintf("(%d, %s, %d)", i+1, ts(at), amounts[i]))
		}
		vals = append(vals, "(99, NULL, 100)")
		return []string{"INSERT INTO wk_events VALUES " + strings.Join(vals, ", ")}
	}
	quote := func(s string) string { return "'" + s + "'" }
	engines := []struct {
		d      quarry.Dialect
		open   func(t *testing.T) *sql.Conn
		create string
		ts     func(string) string
	}{
		{quarry.DialectPostgres, func(t *testing.T) *sql.Conn {
			return openServer(t, "pgx", "QUARRY_TEST_POSTGRES_URL", "scripts/services.sh (PostgreSQL)")
		},
			"CREATE TEMPORARY TABLE wk_events (id INTEGER PRIMARY KEY, happened_at TIMESTAMP, amount INTEGER)", quote},
		{quarry.DialectMySQL, func(t *testing.T) *sql.Conn {
			return openServer(t, "mysql", "QUARRY_TEST_MYSQL_DSN", "scripts/services.sh (MariaDB)")
		},
			"CREATE TEMPORARY TABLE wk_events (id INTEGER PRIMARY KEY, happened_at DATETIME, amount INTEGER)", quote},
		{quarry.DialectDuckDB, func(t *testing.T) *sql.Conn { return openConn(t, "duckdb", "") },
			"CREATE TABLE wk_events (id INTEGER PRIMARY KEY, happened_at TIMESTAMP, amount INTEGER)", quote},
	}
	for _, e := range engines {
		t.Run(string(e.d), func(t *testing.T) {
			conn := e.open(t)
			ctx := context.Background()
			for _, s := range append([]string{e.create}, insert(e.ts)...) {
				if _, err := conn.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			for _, tc := range weekCases() {
				c, err := Compile(weekModel(), tc.q, e.d)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if diff := cmp.Diff(tc.want, nullFirst(collect(t, conn, c.SQL))); diff != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", tc.name, diff, c.SQL)
				}
			}
		})
	}
	t.Run("sqlite", func(t *testing.T) {
		conn, err := sqlite3.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		// Text, as SQLite databases mostly store dates, in both of the
		// forms its date functions read.
		iso := func(s string) string { return quote(strings.Replace(s, " ", "T", 1)) }
		for _, s := range append([]string{"CREATE TABLE wk_events (id INTEGER PRIMARY KEY, happened_at TEXT, amount INTEGER)"}, insert(iso)...) {
			if err := conn.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range weekCases() {
			c, err := Compile(weekModel(), tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got := nullFirst(query(t, conn, c.SQL))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s\n%s", tc.name, diff, c.SQL)
			}
		}
	})
}

// testServer is an engine the compiler's SQL is run on in a test.
type testServer struct {
	d    quarry.Dialect
	open func(t *testing.T) *sql.Conn
}

// testServers are PostgreSQL and MariaDB (their servers from
// scripts/services.sh; skipped without them, failed in CI) and DuckDB.
func testServers() []testServer {
	return []testServer{
		{quarry.DialectPostgres, func(t *testing.T) *sql.Conn {
			return openServer(t, "pgx", "QUARRY_TEST_POSTGRES_URL", "scripts/services.sh (PostgreSQL)")
		}},
		{quarry.DialectMySQL, func(t *testing.T) *sql.Conn {
			return openServer(t, "mysql", "QUARRY_TEST_MYSQL_DSN", "scripts/services.sh (MariaDB)")
		}},
		{quarry.DialectDuckDB, func(t *testing.T) *sql.Conn { return openConn(t, "duckdb", "") }},
	}
}

// openServer opens one session on the test server whose address is in
// the environment variable env, skipping the test without one (failing
// it in CI, which must start the servers).
func openServer(t *testing.T, driver, env, how string) *sql.Conn {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set; CI must start the servers with %s before the tests", env, how)
		}
		t.Skipf("%s is not set; start the servers with %s to run this test", env, how)
	}
	return openConn(t, driver, dsn)
}

// openConn opens one session (temporary tables live in it).
func openConn(t *testing.T, driver, dsn string) *sql.Conn {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// nullFirst moves the rows whose first column is NULL to the front: the
// engines sort NULL first (SQLite, MariaDB) or last (PostgreSQL, DuckDB).
func nullFirst(rows [][]string) [][]string {
	var out, rest [][]string
	for _, r := range rows {
		if len(r) > 0 && r[0] == "NULL" {
			out = append(out, r)
		} else {
			rest = append(rest, r)
		}
	}
	return append(out, rest...)
}
