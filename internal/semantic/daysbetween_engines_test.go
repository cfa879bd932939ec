package semantic

import (
	"context"
	"database/sql"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// spanModel is one entity of rows that start and may end, with the
// average and the longest of their durations.
func spanModel() *Model {
	return &Model{
		Entities: []Entity{{Name: "spans", PrimaryKey: "id", TimeColumn: "started_at", Columns: []Column{
			{Name: "id", Type: "int"}, {Name: "started_at", Type: "timestamp", TimeRole: TimeRoleStart},
			{Name: "ended_at", Type: "timestamp", TimeRole: TimeRoleEnd}}}},
		Metrics: []Metric{
			{Name: "average_days", Entity: "spans", Expr: "AVG(days_between(spans.started_at, spans.ended_at))"},
			{Name: "longest_hours", Entity: "spans", Expr: "MAX(DAYS_BETWEEN( spans.started_at , spans.ended_at ) * 24)"},
		},
	}
}

// TestDaysBetweenEveryEngine runs days_between on each engine: ten days,
// half a day and a row that has not ended (NULL, left out of the
// average), on dates stored as each engine stores them (text on SQLite).
func TestDaysBetweenEveryEngine(t *testing.T) {
	rows := "INSERT INTO spans VALUES (1, '2025-01-01 00:00:00', '2025-01-11 00:00:00'), (2, '2025-03-01 06:00:00', '2025-03-01 18:00:00'), (3, '2025-04-01 00:00:00', NULL)"
	q := Query{Metrics: []string{"average_days", "longest_hours"}}
	want := []float64{5.25, 240}
	check := func(t *testing.T, d quarry.Dialect, run func(string) [][]string) {
		c, err := Compile(spanModel(), q, d)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(c.SQL), "days_between") {
			t.Fatalf("days_between left in the SQL:\n%s", c.SQL)
		}
		got := run(c.SQL)
		if len(got) != 1 || len(got[0]) != 2 {
			t.Fatalf("rows %v; want one row of two\n%s", got, c.SQL)
		}
		for i, w := range want {
			f, err := strconv.ParseFloat(got[0][i], 64)
			if err != nil || math.Abs(f-w) > 1e-6 {
				t.Errorf("column %d = %q; want %v\n%s", i, got[0][i], w, c.SQL)
			}
		}
	}
	servers := []struct {
		d      quarry.Dialect
		open   func(t *testing.T) *sql.Conn
		create string
	}{
		{quarry.DialectPostgres, func(t *testing.T) *sql.Conn {
			return openServer(t, "pgx", "QUARRY_TEST_POSTGRES_URL", "scripts/services.sh (PostgreSQL)")
		}, "CREATE TEMPORARY TABLE spans (id INTEGER PRIMARY KEY, started_at TIMESTAMP, ended_at TIMESTAMP)"},
		{quarry.DialectMySQL, func(t *testing.T) *sql.Conn {
			return openServer(t, "mysql", "QUARRY_TEST_MYSQL_DSN", "scripts/services.sh (MariaDB)")
		}, "CREATE TEMPORARY TABLE spans (id INTEGER PRIMARY KEY, started_at DATETIME, ended_at DATETIME)"},
		{quarry.DialectDuckDB, func(t *testing.T) *sql.Conn { return openConn(t, "duckdb", "") },
			"CREATE TABLE spans (id INTEGER PRIMARY KEY, started_at TIMESTAMP, ended_at TIMESTAMP)"},
	}
	for _, e := range servers {
		t.Run(string(e.d), func(t *testing.T) {
			conn := e.open(t)
			for _, s := range []string{e.create, rows} {
				if _, err := conn.ExecContext(context.Background(), s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			check(t, e.d, func(q string) [][]string { return collect(t, conn, q) })
		})
	}
	t.Run("sqlite", func(t *testing.T) {
		conn, err := sqlite3.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		for _, s := range []string{"CREATE TABLE spans (id INTEGER PRIMARY KEY, started_at TEXT, ended_at TEXT)", rows} {
			if err := conn.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		check(t, quarry.DialectSQLite, func(q string) [][]string { return query(t, conn, q) })
	})
}

// TestDaysBetweenMisused: days_between with other than two arguments is
// a knowledge error that says how to write it; the name in a string or
// as a column's part is left alone.
func TestDaysBetweenMisused(t *testing.T) {
	m := spanModel()
	m.Metrics[0].Expr = "AVG(days_between(spans.started_at))"
	if _, err := Compile(m, Query{Metrics: []string{"average_days"}}, quarry.DialectSQLite); err == nil || !strings.Contains(err.Error(), "days_between takes two dates") {
		t.Errorf("err %v; want days_between takes two dates", err)
	}
	d, _ := newDialect(quarry.DialectSQLite)
	for _, x := range []string{"'days_between(a, b)'", `"days_between"`, "my_days_between + 1", "days_betweenx(a)"} {
		if got, err := expandFunctions(x, d, "x"); err != nil || got != x {
			t.Errorf("expandFunctions(%q) = %q, %v; want it unchanged", x, got, err)
		}
	}
	got, err := expandFunctions("days_between(a, days_between(b, 'x,)'))", d, "x")
	if want := "(julianday((julianday('x,)') - julianday(b))) - julianday(a))"; err != nil || got != want {
		t.Errorf("nested: %q, %v; want %q", got, err, want)
	}
}
