package demo

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

// The realism the checks and monitors rely on, each shown by a query.

func TestGrowth(t *testing.T) {
	db := openTest(t, fixture.path)
	for _, table := range []struct{ name, col string }{
		{"orders", "ordered_at"}, {"customers", "signup_date"}, {"web_sessions", "started_at"}, {"support_tickets", "opened_at"},
	} {
		first := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s < '2024-07-01'", table.name, table.col))
		last := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s >= '2025-07-01'", table.name, table.col))
		if float64(last) < 1.3*float64(first) {
			t.Errorf("%s: %d in the last year against %d in the first, want growth of at least 30%%", table.name, last, first)
		}
	}
}

func TestYearEndPeak(t *testing.T) {
	db := openTest(t, fixture.path)
	monthly := map[string]int64{}
	for _, r := range queryRows(t, db, "SELECT strftime('%Y-%m', ordered_at), count(*) FROM orders GROUP BY 1") {
		monthly[r[0]] = atoi(t, r[1])
	}
	for _, year := range []string{"2023", "2024", "2025"} {
		for m := 1; m <= 10; m++ {
			month := fmt.Sprintf("%s-%02d", year, m)
			n, ok := monthly[month]
			if !ok {
				continue
			}
			for _, peak := range []string{year + "-11", year + "-12"} {
				if monthly[peak] <= n {
					t.Errorf("%s has %d orders, not more than %s's %d", peak, monthly[peak], month, n)
				}
			}
		}
	}
}

func TestWeeklyRhythm(t *testing.T) {
	db := openTest(t, fixture.path)
	for _, table := range []struct {
		name, col string
		higher    bool // weekends are busier
	}{{"orders", "ordered_at", true}, {"support_tickets", "opened_at", false}} {
		q := fmt.Sprintf(`SELECT avg(n) FROM (SELECT date(%[2]s) d, count(*) n FROM %[1]s GROUP BY d)
			WHERE strftime('%%w', d) IN ('0', '6') = ?`, table.name, table.col)
		weekend := queryFloat(t, db, replaceParam(q, "1"))
		weekday := queryFloat(t, db, replaceParam(q, "0"))
		ratio := weekend / weekday
		if table.higher && ratio < 1.1 || !table.higher && ratio > 0.8 {
			t.Errorf("%s: weekend/weekday daily ratio %.2f", table.name, ratio)
		}
	}
}

func replaceParam(q, v string) string {
	for i := range q {
		if q[i] == '?' {
			return q[:i] + v + q[i+1:]
		}
	}
	return q
}

// TestDipWeek: orders in the week that holds the day ten weeks before the
// anchor fall well below the weeks around it, while visits do not.
func TestDipWeek(t *testing.T) {
	db := openTest(t, fixture.path)
	ten := testAnchor.AddDate(0, 0, -70)
	monday := ten.AddDate(0, 0, -((int(ten.Weekday()) + 6) % 7))
	week := func(table, col string, k int) int64 {
		from := monday.AddDate(0, 0, 7*k).Format(time.DateOnly)
		to := monday.AddDate(0, 0, 7*k+7).Format(time.DateOnly)
		return queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s >= '%s' AND %s < '%s'", table, col, from, col, to))
	}
	for _, tt := range []struct {
		table, col string
		dip        bool
	}{{"orders", "ordered_at", true}, {"web_sessions", "started_at", false}} {
		dip := week(tt.table, tt.col, 0)
		var around int64
		for _, k := range []int{-3, -2, -1, 1, 2, 3} {
			around += week(tt.table, tt.col, k)
		}
		ratio := float64(dip) / (float64(around) / 6)
		if tt.dip && ratio > 0.6 || !tt.dip && ratio < 0.85 {
			t.Errorf("%s: week of %s has %.2f of the surrounding weeks' average", tt.table, monday.Format(time.DateOnly), ratio)
		}
	}
	// No other week of the last two years dips like that.
	rows := queryRows(t, db, `SELECT date(ordered_at, '-6 days', 'weekday 1') w, count(*), date(ordered_at, '-6 days', 'weekday 1') FROM orders
		WHERE ordered_at >= '2024-07-01' AND ordered_at < '2026-06-29' GROUP BY w ORDER BY w`)
	lowest := ""
	for i := 1; i+1 < len(rows); i++ {
		n, prev, next := atoi(t, rows[i][1]), atoi(t, rows[i-1][1]), atoi(t, rows[i+1][1])
		if float64(n) < 0.6*float64(prev+next)/2 {
			if lowest != "" {
				t.Errorf("more than one dip week: %s and %s", lowest, rows[i][2])
			}
			lowest = rows[i][2]
		}
	}
	if lowest != monday.Format(time.DateOnly) {
		t.Errorf("the dip week found starts %q, want %s", lowest, monday.Format(time.DateOnly))
	}
}

func TestOrderStatuses(t *testing.T) {
	db := openTest(t, fixture.path)
	total := float64(queryInt(t, db, "SELECT count(*) FROM orders"))
	for status, lo := range map[string]float64{"refunded": 0.02, "cancelled": 0.02} {
		share := float64(queryInt(t, db, "SELECT count(*) FROM orders WHERE status = '"+status+"'")) / total
		if share < lo || share > 0.1 {
			t.Errorf("%s orders are %.3f of all", status, share)
		}
	}
	recent := queryFloat(t, db, "SELECT avg(status = 'pending') FROM orders WHERE ordered_at >= '2026-06-17'")
	old := queryFloat(t, db, "SELECT avg(status = 'pending') FROM orders WHERE ordered_at < '2026-05-31'")
	if recent < 0.2 || old > 0.01 {
		t.Errorf("pending share %.3f in the last two weeks and %.4f before the last month; want pending orders near the anchor", recent, old)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM orders WHERE status = 'pending' AND ordered_at < '2026-05-31'"); n == 0 {
		t.Error("no old order is still pending; a few stuck ones make the data real")
	}
}

func TestDuplicateCustomers(t *testing.T) {
	db := openTest(t, fixture.path)
	n := queryInt(t, db, "SELECT count(*) FROM (SELECT email FROM customers GROUP BY email HAVING count(DISTINCT id) > 1)")
	if n < 3 || n > 30 {
		t.Errorf("%d e-mails belong to more than one customer id, want a few", n)
	}
}

func TestNulls(t *testing.T) {
	db := openTest(t, fixture.path)
	for _, c := range []struct {
		table, col string
		lo, hi     float64 // share of NULLs
	}{
		{"customers", "referred_by", 0.5, 0.95},
		{"orders", "discount_code", 0.6, 0.95},
		{"subscriptions", "ended_on", 0.3, 0.9},
		{"employees", "manager_id", 0.01, 0.05},
		{"support_tickets", "assignee_id", 0.01, 0.2},
		{"support_tickets", "closed_at", 0.002, 0.1},
		{"support_tickets", "satisfaction", 0.3, 0.7},
		{"web_sessions", "customer_id", 0.3, 0.7},
	} {
		share := queryFloat(t, db, fmt.Sprintf("SELECT avg(%s IS NULL) FROM %s", c.col, c.table))
		if share < c.lo || share > c.hi {
			t.Errorf("%s.%s is NULL in %.3f of rows, want %.2f..%.2f", c.table, c.col, share, c.lo, c.hi)
		}
	}
	// Columns outside the contract's nullable list have no NULLs.
	for table, cols := range contractColumns {
		for _, c := range cols {
			name := c[:len(c)-len(" "+lastWord(c))]
			nullable := map[string]bool{"referred_by": true, "discount_code": true, "ended_on": true, "manager_id": true,
				"assignee_id": true, "closed_at": true, "satisfaction": true}[name] || table == "web_sessions" && name == "customer_id"
			if n := queryInt(t, db, fmt.Sprintf("SELECT count(*) FROM %s WHERE %s IS NULL", table, name)); n > 0 && !nullable {
				t.Errorf("%s.%s has %d NULLs", table, name, n)
			}
		}
	}
}

func lastWord(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[i+1:]
		}
	}
	return s
}

func TestOpenTickets(t *testing.T) {
	db := openTest(t, fixture.path)
	open := queryInt(t, db, "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL")
	recent := queryInt(t, db, "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL AND opened_at >= '2026-06-01'")
	if open < 20 || float64(recent) < 0.3*float64(open) || recent == open {
		t.Errorf("%d open tickets, %d of them from June 2026; want open tickets mostly recent, a few old", open, recent)
	}
	// Urgent tickets close faster than low ones.
	hours := func(p string) float64 {
		return queryFloat(t, db, "SELECT avg((julianday(closed_at) - julianday(opened_at)) * 24) FROM support_tickets WHERE priority = '"+p+"'")
	}
	if u, l := hours("urgent"), hours("low"); u >= l/3 {
		t.Errorf("urgent tickets take %.1f h, low ones %.1f h", u, l)
	}
}

func TestProductsAndClub(t *testing.T) {
	db := openTest(t, fixture.path)
	if n := queryInt(t, db, "SELECT count(*) FROM products WHERE launched_on >= '2026-01-01'"); n < 5 {
		t.Errorf("%d products launched in the anchor's year, want several", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM products WHERE discontinued = 1"); n < 5 || n > 40 {
		t.Errorf("%d discontinued products", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id
		WHERE p.discontinued = 1 AND o.ordered_at >= '2026-05-01'`); n != 0 {
		t.Errorf("%d recent sales of discontinued products", n)
	}
	if share := queryFloat(t, db, "SELECT avg(discount = 0) FROM order_items"); share < 0.6 {
		t.Errorf("only %.2f of items are sold without a discount; want most", share)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM plans a JOIN plans b ON b.id = a.id + 1 WHERE b.monthly_price <= a.monthly_price"); n != 0 {
		t.Errorf("plan prices do not rise from Basic to Premium")
	}
	if share := queryFloat(t, db, "SELECT avg(status = 'active') FROM subscriptions"); share < 0.3 || share > 0.8 {
		t.Errorf("%.2f of subscriptions are active", share)
	}
}

func TestConversion(t *testing.T) {
	db := openTest(t, fixture.path)
	rate := queryFloat(t, db, "SELECT avg(converted) FROM web_sessions")
	if rate < 0.01 || rate > 0.06 {
		t.Errorf("conversion %.3f, want a few percent", rate)
	}
	email := queryFloat(t, db, "SELECT avg(converted) FROM web_sessions WHERE source = 'email'")
	social := queryFloat(t, db, "SELECT avg(converted) FROM web_sessions WHERE source = 'social'")
	if email <= social {
		t.Errorf("email converts at %.3f, social at %.3f; want email higher", email, social)
	}
	mobileLate := queryFloat(t, db, "SELECT avg(device = 'mobile') FROM web_sessions WHERE started_at >= '2026-01-01'")
	mobileEarly := queryFloat(t, db, "SELECT avg(device = 'mobile') FROM web_sessions WHERE started_at < '2024-01-01'")
	if mobileLate <= mobileEarly {
		t.Errorf("mobile share %.2f early and %.2f late; want it growing", mobileEarly, mobileLate)
	}
}

func atoi(t testing.TB, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOrderLines: docs/demo.md promises 1–6 lines per order, 2.5 on
// average, each naming a different product that was on sale that day.
func TestOrderLines(t *testing.T) {
	db := openTest(t, fixture.path)
	if n := queryInt(t, db, "SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)"); n != 0 {
		t.Errorf("%d orders have no lines", n)
	}
	r := queryRows(t, db, "SELECT min(n), max(n), round(avg(n), 1) FROM (SELECT count(*) AS n FROM order_items GROUP BY order_id)")[0]
	if r[0] != "1" || r[1] != "6" || r[2] < "2.3" || r[2] > "2.7" {
		t.Errorf("lines per order: min %s, max %s, mean %s; want 1, 6 and about 2.5", r[0], r[1], r[2])
	}
	if n := queryInt(t, db, "SELECT count(*) FROM (SELECT order_id, product_id FROM order_items GROUP BY 1, 2 HAVING count(*) > 1)"); n != 0 {
		t.Errorf("%d orders name a product twice", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id
		WHERE date(o.ordered_at) < p.launched_on`); n != 0 {
		t.Errorf("%d lines name a product before its launch", n)
	}
}
