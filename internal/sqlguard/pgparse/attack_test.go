//go:build cgo

package pgparse_test

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

// testCatalog is a connection's schema for the attribute-notation tests.
var testCatalog = &quarry.Catalog{Dialect: quarry.DialectPostgres, Tables: []quarry.TableInfo{
	{Schema: "public", Name: "orders", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "total"}, {Name: "status"}, {Name: "Mixed"}}},
	{Schema: "public", Name: "items", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "order_id"}, {Name: "price"}}},
	{Schema: "public", Name: "people", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "orders"}}},
}}

// TestAttributeNotation: t.f and (x).f are PostgreSQL's spellings of the
// call f(t) and f(x) when f is not a column; each is decided without and
// with the connection's catalog.
func TestAttributeNotation(t *testing.T) {
	tests := []struct {
		sql             string
		bare, withCatal bool // allowed without a catalog, allowed with testCatalog
	}{
		// Ordinary qualified columns.
		{"SELECT o.id, o.total FROM orders o", true, true},
		{"SELECT orders.id, public.orders.total FROM public.orders", true, true},
		{"SELECT o.id FROM orders o JOIN items i ON i.order_id = o.id WHERE i.price > 1", true, true},
		{"SELECT o.\"Mixed\" FROM orders o", true, true},
		{"SELECT x.id FROM orders o, LATERAL (SELECT o.id) x", true, true},
		{"WITH c AS (SELECT 1 AS n) SELECT c.n FROM c", true, true},
		{"SELECT s.n FROM (SELECT 1 AS n) s", true, true},
		{"SELECT v.column1 FROM (VALUES (1)) v", true, true},
		{"SELECT o.count FROM orders o", true, true}, // count(o): an allowed function
		// An alias's column list renames the columns by position: the new
		// names are columns, the old ones are not any more.
		{"SELECT o.a, o.b FROM orders AS o(a, b)", true, true},
		{"SELECT o.total FROM orders AS o(a, b)", true, false},
		// Not a column of the table: a call, unknown without the catalog.
		{"SELECT o.total_with_tax FROM orders o", true, false},
		{"SELECT public.orders.total_with_tax FROM public.orders", true, false},
		{"SELECT o.\"TOTAL\" FROM orders o", true, false},
		{"SELECT o.\"mixed\" FROM orders o", true, false},
		// A CTE in a nested scope named like the table does not hide it.
		{"SELECT orders.total_with_tax FROM orders, (WITH orders AS (SELECT 1) SELECT 1) s", true, false},
		// Functions that take a whole row are refused either way.
		{"SELECT o.pg_column_compression FROM orders o", false, false},
		{"SELECT o.hash_record FROM orders o", false, false},
		{"SELECT t.hash_record FROM (SELECT 1 AS a) t", false, false},
		{"SELECT o.pg_read_file FROM orders o", true, false}, // pg_read_file takes text, not a row
		// A function in FROM: its whole row is its (scalar) result.
		{"SELECT g.pg_read_file FROM unnest(ARRAY['/etc/hostname']) g", false, false},
		{"SELECT g.evil FROM generate_series(1, 3) AS g", false, false},
		{"SELECT g.evil FROM reports.monthly(1) AS g", true, true}, // columns unknown, evil not a built-in
		{"SELECT g.lo_import FROM reports.monthly(1) AS g", false, false},
		{"SELECT g.g, g.ordinality FROM generate_series(1, 3) WITH ORDINALITY AS g", true, true},
		{"SELECT e.key, e.value FROM json_each('{}') AS e", true, true},
		{"SELECT r.a, r.b FROM ROWS FROM (json_to_record('{}') AS (a int), unnest(ARRAY[1])) AS r(x, b)", true, true},
		// (x).f: a field only when the catalog proves it.
		{"SELECT (o).total FROM orders o", false, true},
		{"SELECT (o).total FROM orders o, items i", false, true},
		{"SELECT (o).evil FROM orders o", false, false},
		{"SELECT (o).total FROM orders o, (SELECT 1 AS o) s", false, false},          // o may be the column s.o
		{"SELECT (orders).total FROM orders, people", false, false},                  // people has a column orders
		{"SELECT (o).total FROM orders o, generate_series(1, 2) AS g", false, false}, // unknown columns in scope
		{"WITH o AS (SELECT 1 AS total) SELECT (o).total FROM o", false, false},
		{"SELECT (o).total FROM orders o, (WITH orders AS (SELECT 1) SELECT 1) s", false, false},
		{"SELECT (o.*).total FROM orders o", false, false},
		{"SELECT (o).* FROM orders o", true, true},
		{"SELECT (' x'::text).length, ('a'::text).upper", true, true},
		{"SELECT ('/etc/hostname'::text).pg_read_file", false, false},
		{"SELECT (ARRAY[ROW(1, 2)])[1].f1", false, false},
		{"SELECT (o).total.pg_read_file FROM orders o", false, false},
	}
	bare := sqlguard.Options{ExtraFunctions: []string{"reports.monthly"}}
	withCatalog := sqlguard.Options{ExtraFunctions: bare.ExtraFunctions, Catalog: testCatalog}
	for _, tt := range tests {
		if v := pgparse.Check(tt.sql, bare); v.Allowed != tt.bare {
			t.Errorf("without a catalog %q: allowed=%v, want %v: %v", tt.sql, v.Allowed, tt.bare, v)
		} else if !v.Allowed && !v.Has(sqlguard.CodeFunctionNotAllowed) {
			t.Errorf("without a catalog %q: want function_not_allowed, got %v", tt.sql, v)
		}
		if v := pgparse.Check(tt.sql, withCatalog); v.Allowed != tt.withCatal {
			t.Errorf("with a catalog %q: allowed=%v, want %v: %v", tt.sql, v.Allowed, tt.withCatal, v)
		}
	}
}

// TestAttributeNotationVerdict: the violation is placed at the reference,
// names the function and says how to rewrite the query.
func TestAttributeNotationVerdict(t *testing.T) {
	for sql, pos := range map[string]int{
		"SELECT ('/etc/hostname'::text).pg_read_file":                    8,
		"SELECT 1, g.pg_read_file FROM unnest(ARRAY['/etc/hostname']) g": 10,
	} {
		v := pgparse.Check(sql, pgOpts)
		if v.Allowed || len(v.Violations) != 1 {
			t.Fatalf("%q: want one violation, got %v", sql, v)
		}
		x := v.Violations[0]
		if x.Code != sqlguard.CodeFunctionNotAllowed || x.Pos != pos ||
			!strings.Contains(x.Message, "pg_read_file(...), which is never allowed") ||
			!strings.Contains(x.Message, "call the function directly") {
			t.Errorf("%q: got %s at %d: %s", sql, x.Code, x.Pos, x.Message)
		}
		if len(v.Functions) == 0 || v.Functions[len(v.Functions)-1] != "pg_read_file" {
			t.Errorf("%q: functions %v", sql, v.Functions)
		}
	}
	opts := sqlguard.Options{ExtraFunctions: []string{"my_report"}}
	if v := pgparse.Check("SELECT (1).my_report, g.my_report FROM generate_series(1, 2) g", opts); !v.Allowed {
		t.Errorf("a function of extra_functions in attribute notation: %v", v)
	}
}

// TestImplicitCallNodes: every node the grammar builds that holds an
// expression is walked, so a call inside it is checked; the nodes that
// name a function, operator or type themselves are checked by name; and a
// node the walk does not know is refused.
func TestImplicitCallNodes(t *testing.T) {
	rejects := map[string]string{
		"aggregate ORDER BY":    "SELECT string_agg(status, ',' ORDER BY pg_read_file('x')) FROM orders",
		"aggregate FILTER":      "SELECT count(*) FILTER (WHERE nextval('s') > 0) FROM orders",
		"WITHIN GROUP":          "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY nextval('s')) FROM orders",
		"window PARTITION BY":   "SELECT sum(total) OVER (PARTITION BY nextval('s')) FROM orders",
		"named window":          "SELECT sum(total) OVER w FROM orders WINDOW w AS (ORDER BY nextval('s'))",
		"XMLELEMENT":            "SELECT XMLELEMENT(name a, pg_read_file('x'))",
		"XMLSERIALIZE":          "SELECT XMLSERIALIZE(CONTENT pg_read_file('x')::xml AS text)",
		"XMLTABLE":              "SELECT * FROM XMLTABLE('/r' PASSING (pg_read_file('x')::xml) COLUMNS a text)",
		"IS DOCUMENT":           "SELECT pg_read_file('x')::xml IS DOCUMENT",
		"JSON_VALUE":            "SELECT JSON_VALUE(pg_read_file('x')::jsonb, '$')",
		"JSON_TABLE":            "SELECT * FROM JSON_TABLE(pg_read_file('x')::jsonb, '$' COLUMNS (a int PATH '$.a')) jt",
		"JSON_OBJECT":           "SELECT JSON_OBJECT('a': nextval('s'))",
		"JSON_ARRAY":            "SELECT JSON_ARRAY(nextval('s'))",
		"JSON_ARRAY subquery":   "SELECT JSON_ARRAY(SELECT nextval('s'))",
		"JSON_ARRAYAGG":         "SELECT JSON_ARRAYAGG(nextval('s'))",
		"JSON_OBJECTAGG":        "SELECT JSON_OBJECTAGG('k': nextval('s'))",
		"IS JSON":               "SELECT pg_read_file('x') IS JSON",
		"JSON()":                "SELECT JSON(pg_read_file('x'))",
		"JSON_SCALAR":           "SELECT JSON_SCALAR(nextval('s'))",
		"JSON_SERIALIZE":        "SELECT JSON_SERIALIZE(JSON(pg_read_file('x')))",
		"COLLATE":               "SELECT pg_read_file('x') COLLATE \"C\"",
		"row comparison":        "SELECT ROW(1, nextval('s')) < ROW(1, 2)",
		"GREATEST":              "SELECT GREATEST(1, nextval('s'))",
		"COALESCE":              "SELECT COALESCE(NULL, nextval('s'))",
		"NULLIF":                "SELECT NULLIF(1, nextval('s'))",
		"CASE":                  "SELECT CASE WHEN true THEN nextval('s') END",
		"IS TRUE":               "SELECT pg_try_advisory_lock(1) IS TRUE",
		"IS NULL":               "SELECT nextval('s') IS NULL",
		"ARRAY[]":               "SELECT ARRAY[nextval('s')]",
		"subscript":             "SELECT (ARRAY[1])[nextval('s')]",
		"cast":                  "SELECT nextval('s')::text",
		"type modifier":         "SELECT 1::numeric(nextval('s'))",
		"GROUPING SETS":         "SELECT 1 FROM orders GROUP BY ROLLUP (nextval('s'))",
		"named argument":        "SELECT make_interval(days => nextval('s')::int)",
		"TABLESAMPLE argument":  "SELECT * FROM orders TABLESAMPLE SYSTEM (nextval('s'))",
		"TABLESAMPLE method":    "SELECT * FROM orders TABLESAMPLE public.evil (1)",
		"DISTINCT ON":           "SELECT DISTINCT ON (nextval('s')) id FROM orders",
		"LIMIT":                 "SELECT 1 LIMIT nextval('s')",
		"AT TIME ZONE":          "SELECT now() AT TIME ZONE pg_read_file('x')",
		"TREAT":                 "SELECT TREAT('x' AS pg_read_file)",
		"OPERATOR() schema":     "SELECT 1 OPERATOR(public.+) 1",
		"OPERATOR() ANY":        "SELECT 1 OPERATOR(public.=) ANY (ARRAY[1])",
		"OPERATOR() subquery":   "SELECT 1 WHERE 1 OPERATOR(public.=) ANY (SELECT 1)",
		"ORDER BY USING":        "SELECT id FROM orders ORDER BY id USING OPERATOR(public.<)",
		"qualified type":        "SELECT 'x'::public.mytype",
		"qualified type CAST":   "SELECT CAST('x' AS public.mytype)",
		"column definition":     "SELECT * FROM json_to_record('{}') AS r(a public.mytype)",
		"JSON_TABLE column":     "SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a public.mytype PATH '$.a')) jt",
		"RETURNING type":        "SELECT JSON_VALUE('{}'::jsonb, '$' RETURNING public.mytype)",
		"three-part type":       "SELECT 'x'::db.pg_catalog.text",
		"MERGE support":         "SELECT merge_action()",
		"field selection":       "SELECT ('x'::text).pg_read_file",
		"whole-row field":       "SELECT g.pg_read_file FROM unnest(ARRAY['x']) g",
		"ROWS FROM":             "SELECT * FROM ROWS FROM (unnest(ARRAY[1]), pg_ls_dir('.')) r",
		"LATERAL function":      "SELECT * FROM orders o, LATERAL pg_ls_dir('.') f",
		"CTE SEARCH":            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < nextval('s')) SEARCH DEPTH FIRST BY n SET o SELECT * FROM r",
		"scalar subquery":       "SELECT (SELECT nextval('s'))",
		"EXISTS":                "SELECT EXISTS (SELECT pg_read_file('x'))",
		"VALUES":                "VALUES (nextval('s'))",
		"EXPLAIN":               "EXPLAIN SELECT nextval('s')",
		"function-style cast":   "SELECT public.mytype('x')",
		"IN list":               "SELECT 1 IN (nextval('s'))",
		"BETWEEN":               "SELECT 1 BETWEEN 0 AND nextval('s')",
		"LIKE ESCAPE":           "SELECT 'a' LIKE 'a' ESCAPE pg_read_file('x')",
		"IS DISTINCT FROM":      "SELECT 1 IS DISTINCT FROM nextval('s')",
		"SIMILAR TO":            "SELECT 'a' SIMILAR TO pg_read_file('x')",
		"OVERLAPS":              "SELECT (now(), now()) OVERLAPS (now(), pg_read_file('x')::timestamptz)",
		"array subquery":        "SELECT ARRAY(SELECT nextval('s'))",
		"window frame offset":   "SELECT sum(total) OVER (ORDER BY id ROWS nextval('s') PRECEDING) FROM orders",
		"XMLATTRIBUTES":         "SELECT XMLELEMENT(name a, XMLATTRIBUTES(pg_read_file('x') AS b))",
		"XMLPARSE":              "SELECT XMLPARSE(DOCUMENT pg_read_file('x'))",
		"XMLEXISTS":             "SELECT XMLEXISTS('/a' PASSING (pg_read_file('x')::xml))",
		"JSON_EXISTS":           "SELECT JSON_EXISTS('{}'::jsonb, '$' PASSING nextval('s') AS x)",
		"JSON_QUERY":            "SELECT JSON_QUERY('{}'::jsonb, '$' DEFAULT nextval('s')::text::jsonb ON EMPTY)",
		"GROUPING()":            "SELECT GROUPING(nextval('s')) FROM orders GROUP BY 1",
		"parameter subscript":   "SELECT ($1)[nextval('s')]",
		"FETCH FIRST":           "SELECT 1 FETCH FIRST nextval('s') ROWS ONLY",
		"OFFSET":                "SELECT 1 OFFSET nextval('s')",
		"HAVING":                "SELECT 1 FROM orders GROUP BY id HAVING nextval('s') > 0",
		"JOIN ON":               "SELECT 1 FROM orders a JOIN items b ON nextval('s') > 0",
		"set operation":         "SELECT 1 UNION SELECT nextval('s')",
		"SQL/JSON path passing": "SELECT * FROM JSON_TABLE('{}'::jsonb, '$' PASSING nextval('s') AS x COLUMNS (a int PATH '$.a')) jt",
	}
	for name, sql := range rejects {
		v := pgparse.Check(sql, pgOpts)
		if v.Allowed {
			t.Errorf("%s: allowed %q", name, sql)
			continue
		}
		if v.Has(sqlguard.CodeSyntax) {
			t.Errorf("%s: %q does not parse: %v", name, sql, v)
		}
	}
	allows := []string{
		"SELECT CURRENT_USER, CURRENT_DATE, LOCALTIMESTAMP, CURRENT_ROLE, SESSION_USER",
		"SELECT 1 OPERATOR(pg_catalog.+) 1, 1 = ANY (ARRAY[1])",
		"SELECT id FROM orders ORDER BY id USING <",
		"SELECT now() AT TIME ZONE 'UTC', 'a' LIKE 'a' ESCAPE '!', 'a' SIMILAR TO 'a'",
		"SELECT 'x'::pg_catalog.text, 'orders'::regclass, '1 day'::interval, CAST(1 AS numeric(10, 2))",
		"SELECT XMLELEMENT(name a, XMLATTRIBUTES('1' AS b)), XMLPARSE(CONTENT '<a/>'), '<a/>'::xml IS DOCUMENT",
		"SELECT JSON_OBJECT('a': 1), JSON_ARRAY(1, 2), '{}' IS JSON, JSON_VALUE('{}'::jsonb, '$.a' RETURNING int)",
		"SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a int PATH '$.a', NESTED PATH '$.b[*]' COLUMNS (c text PATH '$'))) jt",
		"SELECT ROW(1, 2) < ROW(1, 3), GREATEST(1, 2), NULLIF(1, 2), COALESCE(NULL, 1)",
		"SELECT count(*) FILTER (WHERE total > 0), percentile_cont(0.5) WITHIN GROUP (ORDER BY total) FROM orders",
		"SELECT status, GROUPING(status) FROM orders GROUP BY ROLLUP (status)",
		"SELECT $1::int",
		"SELECT B'101', X'1F'",
		"SELECT true IS NOT FALSE",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) CYCLE n SET c USING p SELECT * FROM r",
	}
	for _, sql := range allows {
		if v := pgparse.Check(sql, pgOpts); !v.Allowed {
			t.Errorf("over-blocked %q: %v", sql, v)
		}
	}
}
