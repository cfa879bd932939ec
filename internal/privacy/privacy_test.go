package privacy

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// shapes are statements and what Aggregated says of them: "" for a plan,
// otherwise words of the refusal. The engine tests run the plans.
var shapes = []struct{ sql, refused string }{
	{"SELECT country, count(*) FROM people GROUP BY country", ""},
	{"SELECT country AS c, count(*) AS n FROM people p GROUP BY 1 ORDER BY n DESC LIMIT 3", ""},
	{"SELECT strftime('%Y', born) AS y, count(*) FROM people GROUP BY y", ""},
	{"SELECT upper(country), round(avg(salary), 2) AS mean, stddev(salary) FROM people GROUP BY country", ""},
	{"SELECT country, max(salary) FROM people GROUP BY country HAVING count(*) >= 100", "one row's value"},
	{"SELECT country, min(name) FROM people GROUP BY country", "one row's value"},
	{"SELECT count(*), sum(salary) FROM people WHERE country = 'Atlantis'", ""},
	{"SELECT p.country, count(DISTINCT o.id) FROM people p JOIN orders o ON o.person_id = p.id WHERE o.amount > (SELECT avg(amount) FROM orders) GROUP BY p.country", ""},
	{"SELECT country, CASE WHEN count(*) > 5 THEN 'big' ELSE 'small' END FROM people GROUP BY country", ""},

	{"SELECT * FROM people", "selects *"},
	{"SELECT p.* FROM people p", "selects *"},
	{"SELECT email FROM people", "neither a GROUP BY key"},
	{"SELECT name, max(salary) FROM people", "neither a GROUP BY key"},
	{"SELECT min(email, 'zzz') FROM people", "neither a GROUP BY key"},
	{"SELECT country, group_concat(email) FROM people GROUP BY country", "group_concat"},
	{"SELECT country, string_agg(email, ',') FROM people GROUP BY country", "string_agg"},
	{"SELECT country, array_agg(email) FROM people GROUP BY country", "array_agg"},
	{"SELECT country, json_group_array(name) FROM people GROUP BY country", "json_group_array"},
	{"SELECT country, json_agg(name) FROM people GROUP BY country", "json_agg"},
	{"SELECT country, mode() WITHIN GROUP (ORDER BY salary) FROM people GROUP BY country", "mode"},
	{"SELECT sum(CASE WHEN id = 3 THEN salary END) FROM people", "aggregates an expression"},
	{"SELECT sum(salary) FILTER (WHERE id = 3) FROM people", "FILTER"},
	{"SELECT sum(salary ORDER BY id) FROM people", "FILTER, ORDER BY"},
	{"SELECT name, row_number() OVER () FROM people", "neither a GROUP BY key"},
	{"SELECT country, count(*) OVER () FROM people GROUP BY country", "window"},
	{"SELECT (SELECT email FROM people LIMIT 1), count(*) FROM people", "subquery"},
	{"SELECT country, count(*) FROM people GROUP BY country HAVING sum(salary) > (SELECT 1)", "subquery"},
	{"WITH x AS (SELECT * FROM people) SELECT count(*) FROM x", "WITH"},
	{"SELECT country, count(*) FROM people GROUP BY country UNION SELECT email, 1 FROM people", "combines"},
	{"SELECT e, count(*) FROM (SELECT email AS e FROM people) s GROUP BY e", "other than tables"},
	{"SELECT count(*) FROM generate_series(1, 10)", "other than tables"},
	{"SELECT count(*)", "reads no table"},
	{"SELECT country, count(*) FROM people GROUP BY ROLLUP (country)", "ROLLUP"},
	{"SELECT DISTINCT ON (country) country, name FROM people", "neither a GROUP BY key"},
	{"SELECT country FROM people GROUP BY country, email", ""},
	{"SELECT DISTINCT country FROM people", "neither a GROUP BY key"},
	{"SELECT 1 FROM people", "does not aggregate"},
	{"SELECT myschema.count(email) FROM people", "another schema"},
	{"SELECT count(*) FROM people; SELECT 1", "exactly one"},
	{"DELETE FROM people", "not a SELECT"},
	{"SELECT [name], count(*) FROM people GROUP BY [name]", "parser"},

	// An output named as a column: the engine groups by the column, and
	// the output is one row's value (F1).
	{"SELECT name AS country, count(*) FROM people GROUP BY country", "names both an output"},
	{"SELECT name AS Country, count(*) FROM people GROUP BY COUNTRY", "names both an output"},
	{"SELECT name || ' / ' || id AS country, count(*) FROM people GROUP BY country", "names both an output"},
	{"SELECT c.name AS country, count(*) FROM people c JOIN orders o ON o.person_id = c.id GROUP BY country HAVING count(DISTINCT c.id) >= 5", "names both an output"},
	{"SELECT name AS rowid, count(*) FROM people GROUP BY rowid", "names both an output"},
	{"SELECT name AS y, count(*) FROM mystery GROUP BY y", "names both an output"},
	{"SELECT country AS country, count(*) FROM people GROUP BY country", ""},
	{"SELECT p.country AS country, count(*) FROM people p GROUP BY country", ""},
	// LIMIT and OFFSET are numbers written out (F6).
	{"SELECT country, count(*) FROM people GROUP BY country LIMIT (SELECT salary FROM people LIMIT 1)", "LIMIT or OFFSET"},
	{"SELECT country, count(*) FROM people GROUP BY country LIMIT 3 OFFSET (SELECT count(*) FROM people WHERE salary > 700000)", "LIMIT or OFFSET"},
	{"SELECT country, count(*) FROM people GROUP BY country LIMIT 1 + 1", "LIMIT or OFFSET"},
	{"SELECT country, count(*) FROM people GROUP BY country LIMIT 3 OFFSET 1", ""},
}

// shapesCatalog gives the tables of shapes their primary keys, which the
// MySQL companion needs (MySQL has no row identity of its own).
var shapesCatalog = &quarry.Catalog{Tables: []quarry.TableInfo{
	{Name: "people", PrimaryKey: []string{"id"}, Columns: columns("id", "name", "email", "country", "salary", "born", "referred_by")},
	{Name: "orders", PrimaryKey: []string{"id"}, Columns: columns("id", "person_id", "amount")},
	{Name: "t", PrimaryKey: []string{"id"}}, {Name: "mystery", PrimaryKey: []string{"id"}}}}

func columns(names ...string) []quarry.ColumnInfo {
	var out []quarry.ColumnInfo
	for _, n := range names {
		out = append(out, quarry.ColumnInfo{Name: n})
	}
	return out
}

func TestAggregated(t *testing.T) {
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres} {
		for _, tc := range shapes {
			p, err := Aggregated(d, tc.sql, shapesCatalog)
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("%s: %s: refused: %v", d, tc.sql, err)
			case tc.refused != "" && err == nil:
				t.Errorf("%s: %s: a plan (%s), want a refusal about %q", d, tc.sql, p.Companion, tc.refused)
			case err != nil && !strings.Contains(quarry.Message(err), tc.refused):
				t.Errorf("%s: %s: refused with %q, want words %q", d, tc.sql, quarry.Message(err), tc.refused)
			case err != nil && quarry.KindOf(err) != quarry.KindForbidden:
				t.Errorf("%s: %s: error kind %s", d, tc.sql, quarry.KindOf(err))
			}
		}
	}
	// The MySQL grammar: the same verdicts (the refusals of PostgreSQL's
	// own syntax for the grammar's reasons).
	for _, tc := range shapes {
		_, err := Aggregated(quarry.DialectMySQL, tc.sql, shapesCatalog)
		if (err == nil) != (tc.refused == "") {
			t.Errorf("mysql: %s: error %v, want a refusal: %v", tc.sql, err, tc.refused != "")
		}
	}
	// Without the catalog, any name may be a column: an output's name in
	// GROUP BY is refused unless the output is that column.
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		if _, err := Aggregated(d, "SELECT strftime('%Y', born) AS y, count(*) FROM people GROUP BY y", nil); err == nil || !strings.Contains(quarry.Message(err), "names both an output") {
			t.Errorf("%s: an output's name in GROUP BY without a catalog: %v", d, err)
		}
		if _, err := Aggregated(d, "SELECT country AS country, count(*) FROM people GROUP BY country", nil); err != nil && d != quarry.DialectMySQL {
			t.Errorf("%s: a column grouped by its own name without a catalog: %v", d, err)
		}
	}
	if _, err := Aggregated(quarry.DialectGeneric, "SELECT count(*) FROM t", nil); err == nil {
		t.Error("a dialect quarry cannot read was not refused")
	}
}

// TestCompanionIdentity: rows are told apart by SQLite's and DuckDB's row
// identity (by a name no column takes), by PostgreSQL's primary key where
// the catalog has one, else ctid; MySQL needs a primary key.
func TestCompanionIdentity(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{{Name: "people", PrimaryKey: []string{"id"}}, {Name: "lines", PrimaryKey: []string{"order_id", "n"}},
		{Name: "shadow", Columns: []quarry.ColumnInfo{{Name: "rowid"}, {Name: "x"}}}}}
	for _, tc := range []struct {
		d         quarry.Dialect
		sql, want string
	}{
		{quarry.DialectSQLite, "SELECT count(*) FROM people p", "count(DISTINCT p.rowid) AS quarry_t1"},
		{quarry.DialectSQLite, "SELECT count(*) FROM shadow", "count(DISTINCT shadow._rowid_)"},
		{quarry.DialectPostgres, "SELECT count(*) FROM people p", "count(DISTINCT p.id) AS quarry_t1"},
		{quarry.DialectSQLite, "SELECT count(*) FROM lines", "count(DISTINCT lines.rowid)"},
		{quarry.DialectSQLite, "SELECT count(*) FROM main.other", "count(DISTINCT main.other.rowid)"},
		{quarry.DialectPostgres, "SELECT count(*) FROM lines l", "count(DISTINCT ROW(l.order_id, l.n))"},
		{quarry.DialectPostgres, "SELECT count(*) FROM other", "count(DISTINCT other.ctid)"},
		{quarry.DialectDuckDB, "SELECT count(*) FROM other", "count(DISTINCT other.rowid)"},
	} {
		p, err := Aggregated(tc.d, tc.sql, cat)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if !strings.Contains(p.Companion, tc.want) || !strings.Contains(p.Companion, "count(*) AS quarry_rows") {
			t.Errorf("%s: companion %s, want %s", tc.sql, p.Companion, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	p := &Plan{Columns: 2, Tables: []string{"people", "orders o"}}
	cols := func(n int) []quarry.Column { return make([]quarry.Column, n) }
	result := &quarry.Table{Columns: cols(2), Rows: [][]any{{"Atlantis", int64(6)}, {"Lemuria", int64(5)}}}
	for _, tc := range []struct {
		name      string
		companion [][]any
		want      string
	}{
		{"big groups", [][]any{{"Lemuria", int64(5), int64(5), int64(5), int64(7)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, ""},
		{"no rows of a left-joined table", [][]any{{"Lemuria", int64(5), int64(5), int64(5), int64(0)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, ""},
		{"a small group", [][]any{{"Lemuria", int64(5), int64(4), int64(4), int64(4)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, "fewer than 5 rows"},
		{"one row repeated", [][]any{{"Lemuria", int64(5), int64(5), int64(1), int64(5)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, "fewer than 5 rows"},
		{"another group", [][]any{{"Mu", int64(5), int64(5), int64(5), int64(5)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, "other groups"},
		{"more groups", [][]any{{"Lemuria", int64(5), int64(5), int64(5), int64(5)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}, {"Mu", int64(5), int64(5), int64(5), int64(5)}}, "returned 3 groups"},
		{"not a count", [][]any{{"Lemuria", int64(5), "five", int64(5), int64(5)}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}, "not a number"},
	} {
		got := Judge(p, result, &quarry.Table{Columns: cols(5), Rows: tc.companion}, 5)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Judge(p, result, &quarry.Table{Columns: cols(4)}, 5); got == "" {
		t.Error("a companion without the count columns was judged aggregated")
	}
	// An empty result is withheld as a small group is, so that which of
	// the two a condition on one row gives says nothing of it (found from
	// outside: "… WHERE id = 1 AND city = 'Paris' GROUP BY country" came
	// back empty, the same with 'Seattle' withheld).
	if got := Judge(p, &quarry.Table{Columns: cols(2)}, &quarry.Table{Columns: cols(5)}, 5); !strings.Contains(got, "no group") {
		t.Errorf("an empty result: %q; want it withheld", got)
	}
	// NULL padding (F4): a group of 5 rows whose sum rests on one value
	// that is not NULL is one row's value.
	p = &Plan{Columns: 2, Tables: []string{"people"}, Inputs: []string{"referred_by"}}
	for _, tc := range []struct {
		name  string
		count int64
		want  string
	}{
		{"one value padded by NULLs", 1, "fewer than 5 values that are not NULL"},
		{"four values", 4, "fewer than 5 values that are not NULL"},
		{"no value at all", 0, ""},
		{"five values", 5, ""},
	} {
		companion := [][]any{{"Lemuria", int64(5), int64(5), int64(5), tc.count}, {"Atlantis", int64(6), int64(6), int64(6), int64(6)}}
		got := Judge(p, result, &quarry.Table{Columns: cols(5), Rows: companion}, 5)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCompanionRegroups: a GROUP BY name read as an output's alias is
// grouped by the output's expression in the companion, so that an engine
// that reads the name as a column (a catalog out of date) groups otherwise
// and returns other rows.
func TestCompanionRegroups(t *testing.T) {
	const sql = "SELECT name AS nick, count(*) FROM people GROUP BY nick HAVING count(*) >= 5"
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		p, err := Aggregated(d, sql, shapesCatalog)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if c := strings.ToLower(p.Companion); !strings.Contains(c, "group by name") && !strings.Contains(c, "group by `name`") {
			t.Errorf("%s: companion %s", d, p.Companion)
		}
	}
}

// TestCompanionInputs: the companion counts the values that are not NULL
// of every column aggregated, once each.
func TestCompanionInputs(t *testing.T) {
	const sql = "SELECT country, count(*), sum(referred_by), count(referred_by), avg(salary) FROM people GROUP BY country HAVING sum(salary) > 0"
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		p, err := Aggregated(d, sql, shapesCatalog)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if len(p.Inputs) != 2 || !strings.Contains(strings.ToLower(p.Companion), "count(referred_by) as quarry_a1") && !strings.Contains(strings.ToLower(p.Companion), "count(`referred_by`) as `quarry_a1`") {
			t.Errorf("%s: inputs %v, companion %s", d, p.Inputs, p.Companion)
		}
	}
}

// FuzzAggregated: reading never panics; a plan's companion is itself read
// as aggregated (the counts appended keep it so), with the same columns
// plus the counts.
func FuzzAggregated(f *testing.F) {
	for _, tc := range shapes {
		f.Add(tc.sql)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
			p, err := Aggregated(d, sql, shapesCatalog)
			if err != nil {
				if quarry.KindOf(err) != quarry.KindForbidden {
					t.Fatalf("%s: %q: error of kind %s", d, sql, quarry.KindOf(err))
				}
				continue
			}
			again, err := Aggregated(d, p.Companion, shapesCatalog)
			if err != nil {
				t.Fatalf("%s: %q: its companion %q is refused: %v", d, sql, p.Companion, err)
			}
			if want := p.Columns + 1 + len(p.Tables) + len(p.Inputs); again.Columns != want {
				t.Fatalf("%s: %q: companion of %d columns, want %d", d, sql, again.Columns, want)
			}
		}
	})
}
