package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/goldentest"
)

// TestSummaryGolden pins the data itself: a textual summary of the fixture
// (counts, spans, monthly orders and revenue, value mixes) against
// testdata/summary.golden. Any change to the generated data shows up here
// as a readable diff; rewrite the file with -update when it is intended.
func TestSummaryGolden(t *testing.T) {
	db := openTest(t, fixture.path)
	queries := []string{
		"SELECT 'rows', '" + strings.Join(tableNames, "','") + "'",
		`SELECT 'rows', (SELECT count(*) FROM customers), (SELECT count(*) FROM products), (SELECT count(*) FROM orders),
			(SELECT count(*) FROM order_items), (SELECT count(*) FROM plans), (SELECT count(*) FROM subscriptions),
			(SELECT count(*) FROM employees), (SELECT count(*) FROM support_tickets), (SELECT count(*) FROM web_sessions)`,
		"SELECT 'orders span', min(ordered_at), max(ordered_at) FROM orders",
		`SELECT 'month', strftime('%Y-%m', o.ordered_at) m, count(DISTINCT o.id), printf('%.2f', sum(i.quantity * i.unit_price * (1 - i.discount)))
			FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.status = 'completed' GROUP BY m ORDER BY m`,
		"SELECT 'status', status, count(*) FROM orders GROUP BY status ORDER BY status",
		"SELECT 'channel', channel, count(*) FROM orders GROUP BY channel ORDER BY channel",
		"SELECT 'code', coalesce(discount_code, 'NULL'), count(*) FROM orders GROUP BY 2 ORDER BY 2",
		"SELECT 'country', country, count(*) FROM customers GROUP BY country ORDER BY country",
		"SELECT 'category', category, count(*), printf('%.2f', avg(unit_price)) FROM products GROUP BY category ORDER BY category",
		"SELECT 'plan', p.name, s.status, count(*) FROM subscriptions s JOIN plans p ON p.id = s.plan_id GROUP BY 2, 3 ORDER BY 2, 3",
		"SELECT 'department', department, count(*) FROM employees GROUP BY department ORDER BY department",
		"SELECT 'ticket', priority, count(*), sum(closed_at IS NULL), printf('%.2f', avg(satisfaction)) FROM support_tickets GROUP BY priority ORDER BY priority",
		"SELECT 'source', source, count(*), printf('%.4f', avg(converted)) FROM web_sessions GROUP BY source ORDER BY source",
		"SELECT 'device', device, count(*) FROM web_sessions GROUP BY device ORDER BY device",
	}
	var b strings.Builder
	for _, q := range queries {
		for _, row := range queryRows(t, db, q) {
			b.WriteString(strings.Join(row, "\t"))
			b.WriteByte('\n')
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "summary.golden")
	if goldentest.Update() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("summary differs from %s (-want +got); rerun with -update if the change is intended:\n%s", path, diff)
	}
}
