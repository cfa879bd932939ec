//go:build cgo

package pgparse_test

import (
	"encoding/json"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

// FuzzPGCheck: Check never panics, and whatever it allows parses to
// exactly one SelectStmt, or an ExplainStmt of one, whose tree (read
// independently, as JSON) holds no INTO clause, no locking clause, no
// data-modifying statement and no field selection (x).f whose f is not an
// allowed function name. What a catalog allows that is rejected without
// one differs only in attribute-notation fields.
func FuzzPGCheck(f *testing.F) {
	for _, file := range corpusFiles {
		for _, c := range loadCases(f, file) {
			f.Add(c.SQL)
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		v := pgparse.Check(sql, pgOpts)
		if !v.Allowed {
			// A catalog can prove (t).col a column, nothing else.
			if cv := pgparse.Check(sql, catalogOpts); cv.Allowed {
				for _, x := range v.Violations {
					if x.Code != sqlguard.CodeFunctionNotAllowed || !strings.Contains(x.Message, "attribute notation") {
						t.Fatalf("rejected without a catalog for %s, allowed with one: %q", x.Code, sql)
					}
				}
			}
			if len(v.Violations) == 0 {
				t.Fatalf("rejected without a violation: %q", sql)
			}
			for _, x := range v.Violations {
				if x.Pos < 0 || x.Pos > len(sql) {
					t.Fatalf("violation %s at %d, outside the %d-byte text %q", x.Code, x.Pos, len(sql), sql)
				}
			}
			return
		}
		tree, err := pg_query.Parse(sql)
		if err != nil {
			t.Fatalf("allowed, but does not parse: %v: %q", err, sql)
		}
		if len(tree.Stmts) != 1 {
			t.Fatalf("allowed, but %d statements: %q", len(tree.Stmts), sql)
		}
		n := tree.Stmts[0].GetStmt()
		if e := n.GetExplainStmt(); e != nil {
			n = e.GetQuery()
		}
		if n.GetSelectStmt() == nil {
			t.Fatalf("allowed, but not a query: %q", sql)
		}
		js, err := pg_query.ParseToJSON(sql)
		if err != nil {
			t.Fatalf("allowed, but no JSON tree: %v", err)
		}
		var doc any
		if err := json.Unmarshal([]byte(js), &doc); err != nil {
			t.Fatalf("the JSON tree does not decode: %v", err)
		}
		if bad := forbiddenKey(doc); bad != "" {
			t.Fatalf("allowed, but the tree has %s: %q", bad, sql)
		}
		for _, fn := range v.Functions {
			if sqlguard.Never(fn[strings.LastIndexByte(fn, '.')+1:]) {
				t.Fatalf("allowed, but calls %s: %q", fn, sql)
			}
		}
		for _, f := range indirectionFields(doc, nil) {
			if !pgOpts.AllowsFunction(f) || f != strings.ToLower(f) {
				t.Fatalf("allowed, but (x).%s may call %s: %q", f, f, sql)
			}
		}
	})
}

var catalogOpts = sqlguard.Options{Dialect: quarry.DialectPostgres, Catalog: testCatalog}

// indirectionFields appends the field names of every A_Indirection in the
// JSON tree ((x).f, (x)[1].f): PostgreSQL may read each as a call.
func indirectionFields(doc any, out []string) []string {
	switch d := doc.(type) {
	case map[string]any:
		for k, v := range d {
			if k == "A_Indirection" {
				if m, ok := v.(map[string]any); ok {
					items, _ := m["indirection"].([]any)
					for _, it := range items {
						if s, ok := it.(map[string]any)["String"].(map[string]any); ok {
							name, _ := s["sval"].(string)
							out = append(out, name)
						}
					}
				}
			}
			out = indirectionFields(v, out)
		}
	case []any:
		for _, v := range d {
			out = indirectionFields(v, out)
		}
	}
	return out
}

// forbiddenKey returns the first object key in the JSON tree that names
// a node an allowed statement cannot have, or an EXPLAIN option "analyze"
// that is not explicitly off.
func forbiddenKey(doc any) string {
	switch d := doc.(type) {
	case map[string]any:
		for k, v := range d {
			switch k {
			case "IntoClause", "intoClause", "LockingClause", "lockingClause",
				"InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt":
				return k
			case "DefElem":
				if e, ok := v.(map[string]any); ok && e["defname"] == "analyze" {
					if s, _ := json.Marshal(e["arg"]); !strings.Contains(strings.ToLower(string(s)), "off") &&
						!strings.Contains(strings.ToLower(string(s)), "false") && string(s) != "{\"Integer\":{}}" {
						return "EXPLAIN ANALYZE " + string(s)
					}
				}
			}
			if bad := forbiddenKey(v); bad != "" {
				return bad
			}
		}
	case []any:
		for _, v := range d {
			if bad := forbiddenKey(v); bad != "" {
				return bad
			}
		}
	}
	return ""
}

// BenchmarkPGCheck measures pgparse.Check on typical analytics statements
// and reports statements per second (one core: run with -cpu 1).
func BenchmarkPGCheck(b *testing.B) {
	stmts := benchStatements()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if v := pgparse.Check(stmts[n%len(stmts)], pgOpts); !v.Allowed {
			b.Fatal(v)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "stmts/s")
}

// BenchmarkPGParseOnly is the parser's share of BenchmarkPGCheck: the same
// statements through pg_query.Parse alone.
func BenchmarkPGParseOnly(b *testing.B) {
	stmts := benchStatements()
	n := 0
	for b.Loop() {
		if _, err := pg_query.Parse(stmts[n%len(stmts)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "stmts/s")
}

// benchStatements are typical analytics statements.
func benchStatements() []string {
	return []string{
		"SELECT c.country, date_trunc('month', o.ordered_at) AS month, SUM(oi.quantity * oi.unit_price) AS revenue " +
			"FROM orders o JOIN customers c ON c.id = o.customer_id JOIN order_items oi ON oi.order_id = o.id " +
			"WHERE o.status = 'completed' GROUP BY 1, 2 ORDER BY revenue DESC LIMIT 20",
		"WITH monthly AS (SELECT customer_id, date_trunc('month', created_at) AS m, sum(total) AS t FROM orders GROUP BY 1, 2) " +
			"SELECT customer_id, m, t, lag(t) OVER (PARTITION BY customer_id ORDER BY m) AS prev FROM monthly ORDER BY 1, 2",
		"SELECT status, count(*) FILTER (WHERE total > 100) AS big, percentile_cont(0.5) WITHIN GROUP (ORDER BY total) " +
			"FROM orders WHERE created_at >= now() - interval '90 days' GROUP BY ROLLUP (status)",
		"SELECT DISTINCT ON (customer_id) customer_id, id, total FROM orders ORDER BY customer_id, created_at DESC",
		"SELECT p.name, x.qty FROM products p CROSS JOIN LATERAL (SELECT sum(quantity) AS qty FROM order_items i WHERE i.product_id = p.id) x WHERE x.qty > 10",
	}
}
