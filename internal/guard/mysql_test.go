package guard

import (
	"context"
	"os"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// mysqlCorpusFiles hold the rows the combined MySQL guard is held to: the
// shared corpus, the lexical guard's extra cases and the MySQL engine
// check's own cases (rows for any and mysql).
var mysqlCorpusFiles = []string{
	"../sqlguard/testdata/guard-corpus.tsv",
	"../sqlguard/testdata/extra-cases.tsv",
	"../sqlguard/mysqlparse/testdata/mysql-cases.tsv",
}

// TestMySQLCorpus: through the combined guard (lexical guard, then the
// MySQL parser), every reject row is rejected and every allow row allowed.
func TestMySQLCorpus(t *testing.T) {
	g, err := New(sqlguard.Options{Dialect: quarry.DialectMySQL})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !g.Engine() {
		t.Fatal("the mysql guard has no engine check")
	}
	ctx := context.Background()
	for _, f := range mysqlCorpusFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := sqlguard.ParseCorpus(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var allow, allowOK, rej, rejOK, lexOnly int
		for _, c := range cases {
			if c.Dialect != quarry.DialectGeneric && c.Dialect != quarry.DialectMySQL {
				continue
			}
			v := g.Check(ctx, c.SQL)
			if c.Allow {
				allow++
			} else {
				rej++
			}
			if v.Allowed != c.Allow {
				t.Errorf("%s:%d want allow=%v, got %s\n\tsql: %q\n\twhy: %s", f, c.Line, c.Allow, v, c.SQL, c.Why)
				continue
			}
			if c.Allow {
				allowOK++
				continue
			}
			rejOK++
			if lex := sqlguard.Check(c.SQL, sqlguard.Options{Dialect: quarry.DialectMySQL}); !lex.Allowed {
				lexOnly++
			}
		}
		t.Logf("%s: allow %d/%d, reject %d/%d (%d of them already by the lexical guard)", f, allowOK, allow, rejOK, rej, lexOnly)
	}
}

// mysqlBenchStatements are typical analytics statements for MySQL (the same
// as mysqlparse's benchmark).
var mysqlBenchStatements = []string{
	"SELECT COUNT(*) FROM orders WHERE status = 'completed'",
	"SELECT DATE_FORMAT(o.ordered_at, '%Y-%m') AS month, SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) AS revenue FROM orders o JOIN order_items oi ON oi.order_id = o.id WHERE o.status = 'completed' GROUP BY month ORDER BY month",
	"SELECT c.country, COUNT(DISTINCT c.id) AS customers, ROUND(AVG(o.total), 2) AS avg_order FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.country HAVING COUNT(*) > 10 ORDER BY customers DESC LIMIT 10",
	"WITH monthly AS (SELECT customer_id, DATE_FORMAT(ordered_at, '%Y-%m') AS m, COUNT(*) AS n FROM orders GROUP BY 1, 2) SELECT m, AVG(n) AS avg_orders, MAX(n) FROM monthly GROUP BY m ORDER BY m",
	"SELECT p.category, p.name, SUM(oi.quantity) AS units, RANK() OVER (PARTITION BY p.category ORDER BY SUM(oi.quantity) DESC) AS rnk FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category, p.name",
	"SELECT e.name, m.name AS manager FROM employees e LEFT JOIN employees m ON m.id = e.manager_id WHERE e.department = 'Engineering' ORDER BY e.hired_on",
	"SELECT priority, SUM(CASE WHEN closed_at IS NULL THEN 1 ELSE 0 END) AS open, AVG(satisfaction) AS csat FROM support_tickets GROUP BY priority",
	"SELECT source, device, SUM(converted) * 1.0 / COUNT(*) AS rate FROM web_sessions WHERE started_at >= CURDATE() - INTERVAL 90 DAY GROUP BY source, device ORDER BY rate DESC",
}

// BenchmarkMySQLGuard measures the combined MySQL guard (lexical guard and
// MySQL parser) on one core.
func BenchmarkMySQLGuard(b *testing.B) {
	g, err := New(sqlguard.Options{Dialect: quarry.DialectMySQL})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if v := g.Check(ctx, mysqlBenchStatements[i%len(mysqlBenchStatements)]); !v.Allowed {
			b.Fatal(v)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "stmts/s")
}
