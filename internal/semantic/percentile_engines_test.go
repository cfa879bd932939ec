package semantic

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// percentileOf is percentile p of xs, interpolated between the two
// values around rank 1 + p·(n−1)/100 (the median of an even count is the
// mean of the middle two); NaN for none. Written apart from the compiler.
func percentileOf(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	h := float64(p) * float64(len(s)-1) / 100
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// The engine table: group a has 5 values (odd) with a tie, b 4 (even)
// with a tie in the middle, c one value beside two NULLs, d only NULLs;
// decimals, so that MariaDB's decimal arithmetic is exercised.
func percentileSetup() []string {
	stmts := []string{"CREATE TABLE qm_values (id INTEGER PRIMARY KEY, grp VARCHAR(8), v DECIMAL(10,2))"}
	rows := []struct {
		grp string
		v   string
	}{
		{"a", "7.25"}, {"a", "1.50"}, {"a", "3.00"}, {"a", "3.00"}, {"a", "10.75"},
		{"b", "2.00"}, {"b", "8.50"}, {"b", "4.25"}, {"b", "4.25"},
		{"c", "NULL"}, {"c", "6.10"}, {"c", "NULL"},
		{"d", "NULL"},
		{"e", "1.25"}, {"e", "2.50"},
	}
	for i, r := range rows {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO qm_values VALUES (%d, '%s', %s)", i+1, r.grp, r.v))
	}
	return stmts
}

func percentileModel() *Model {
	return &Model{
		Entities:   []Entity{{Name: "qm_values", PrimaryKey: "id", Columns: []Column{{Name: "id", Type: quarry.TypeInt}, {Name: "grp", Type: quarry.TypeText}, {Name: "v", Type: quarry.TypeDecimal}}}},
		Metrics:    []Metric{{Name: "average_v", Entity: "qm_values", Expr: "AVG(qm_values.v)", Format: "number"}},
		Dimensions: []Dimension{{Name: "grp", Entity: "qm_values", Expr: "qm_values.grp"}},
	}
}

func TestPercentileOnSQLite(t *testing.T) {
	db, err := driver.Open("file:" + filepath.ToSlash(filepath.Join(t.TempDir(), "p.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runPercentiles(t, db, quarry.DialectSQLite, percentileSetup())
}

func TestPercentileOnPostgres(t *testing.T) {
	db, err := sql.Open("pgx", connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	schema := []string{"DROP SCHEMA IF EXISTS qm_test CASCADE", "CREATE SCHEMA qm_test", "SET search_path TO qm_test"}
	t.Cleanup(func() { db.Exec("DROP SCHEMA qm_test CASCADE") })
	runPercentiles(t, db, quarry.DialectPostgres, append(schema, percentileSetup()...))
}

func TestPercentileOnMySQL(t *testing.T) {
	db, err := sql.Open("mysql", connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Exec("DROP TABLE IF EXISTS qm_values") })
	runPercentiles(t, db, quarry.DialectMySQL, append([]string{"DROP TABLE IF EXISTS qm_values"}, percentileSetup()...))
}

// runPercentiles compiles medians and percentiles for dialect d, runs
// them on db and compares them with percentileOf over the raw rows.
func runPercentiles(t *testing.T, db *sql.DB, d quarry.Dialect, setup []string) {
	t.Helper()
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	raw := map[string][]float64{}
	var all []float64
	for _, r := range sqlRows(t, db, "SELECT grp, v FROM qm_values WHERE v IS NOT NULL") {
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		raw[r[0]] = append(raw[r[0]], v)
		all = append(all, v)
	}
	m := percentileModel()
	for _, p := range []int{50, 90, 25} {
		c, err := Compile(m, Query{Metrics: []string{"average_v"}, Percentile: p}, d)
		if err != nil {
			t.Fatal(err)
		}
		got := sqlRows(t, db, c.SQL)
		if len(got) != 1 || !near(got[0][0], percentileOf(all, p)) {
			t.Errorf("%s p%d overall: %v, want %v\n%s", d, p, got, percentileOf(all, p), c.SQL)
		}
		c, err = Compile(m, Query{Metrics: []string{"average_v"}, Dimensions: []DimRef{{Name: "grp"}}, Percentile: p}, d)
		if err != nil {
			t.Fatal(err)
		}
		got = sqlRows(t, db, c.SQL)
		var groups []string
		for _, r := range got {
			groups = append(groups, r[0])
			if !near(r[1], percentileOf(raw[r[0]], p)) {
				t.Errorf("%s p%d of %s: %s, want %v\n%s", d, p, r[0], r[1], percentileOf(raw[r[0]], p), c.SQL)
			}
		}
		// Group d has no value: no row, rather than a made-up one.
		if want := []string{"a", "b", "c", "e"}; !slices.Equal(groups, want) {
			t.Errorf("%s p%d groups %v, want %v", d, p, groups, want)
		}
	}
}

func near(got string, want float64) bool {
	g, err := strconv.ParseFloat(got, 64)
	return err == nil && math.Abs(g-want) <= 1e-9*math.Max(1, math.Abs(want))
}
