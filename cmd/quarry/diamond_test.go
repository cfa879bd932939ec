package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestOwnerReachedTwice asks of a helpdesk and a marketplace where the
// rows measured reach a table of test rows two ways: an attempt names its
// own agent and its ticket names one too; an order line's listing has a
// seller and its order has one too. The rows of a test owner either way
// are left out (found from outside: "how many failed ticket attempts"
// 287 for 238 and "total quantity of order items" 1,231 for 1,116, the
// first at 1.00, as only the shorter way was joined).
func TestOwnerReachedTwice(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE agents (id INTEGER PRIMARY KEY, name TEXT NOT NULL, is_test INTEGER NOT NULL);
CREATE TABLE tickets (id INTEGER PRIMARY KEY, agent_id INTEGER REFERENCES agents(id), opened_at TEXT NOT NULL, is_test INTEGER NOT NULL);
CREATE TABLE ticket_attempts (id INTEGER PRIMARY KEY, ticket_id INTEGER NOT NULL REFERENCES tickets(id), agent_id INTEGER REFERENCES agents(id), attempted_at TEXT NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE sellers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, is_test INTEGER NOT NULL);
CREATE TABLE listings (id INTEGER PRIMARY KEY, seller_id INTEGER NOT NULL REFERENCES sellers(id), title TEXT NOT NULL, category TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, seller_id INTEGER NOT NULL REFERENCES sellers(id), ordered_at TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), listing_id INTEGER NOT NULL REFERENCES listings(id), quantity INTEGER NOT NULL);
`)
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "INSERT INTO agents VALUES (%d, 'Agent %d', %d);\n", i, i, b2i(i%5 == 0))
		fmt.Fprintf(&b, "INSERT INTO sellers VALUES (%d, 'Seller %d', %d);\n", i, i, b2i(i%4 == 0))
	}
	for i := 1; i <= 150; i++ {
		// A ticket of a test agent is a test ticket; its attempts are
		// made by other agents, real ones mostly.
		fmt.Fprintf(&b, "INSERT INTO tickets VALUES (%d, %d, '2026-%02d-%02d', %d);\n", i, i%12+1, i%6+1, i%27+1, b2i(i%31 == 0))
		for k := 0; k < 1+i%3; k++ {
			outcome := []string{"resolved", "failed", "failed", "escalated"}[(i+k)%4]
			fmt.Fprintf(&b, "INSERT INTO ticket_attempts VALUES (%d, %d, %d, '2026-%02d-%02d', '%s');\n", i*10+k, i, (i+k+3)%12+1, i%6+1, i%27+1, outcome)
		}
	}
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "INSERT INTO listings VALUES (%d, %d, 'Item %d', '%s');\n", i, (i*7)%12+1, i, []string{"books", "toys", "garden"}[i%3])
	}
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&b, "INSERT INTO orders VALUES (%d, %d, '2026-%02d-%02d', '%s');\n", i, i%12+1, i%6+1, i%27+1, []string{"paid", "paid", "shipped", "refunded"}[i%4])
		for k := 0; k < 1+i%2; k++ {
			fmt.Fprintf(&b, "INSERT INTO order_items VALUES (%d, %d, %d, %d);\n", i*10+k, i, (i*3+k)%40+1, 1+(i+k)%5)
		}
	}
	dir, rows := learnedDB(t, "diamond.db", b.String(), "")
	realAttempts := `FROM ticket_attempts x JOIN tickets t ON t.id = x.ticket_id LEFT JOIN agents ta ON ta.id = t.agent_id LEFT JOIN agents a ON a.id = x.agent_id
WHERE t.is_test = 0 AND ta.is_test IS NOT 1 AND a.is_test IS NOT 1`
	realLines := `FROM order_items i JOIN orders o ON o.id = i.order_id JOIN sellers os ON os.id = o.seller_id JOIN listings l ON l.id = i.listing_id JOIN sellers ls ON ls.id = l.seller_id
WHERE os.is_test = 0 AND ls.is_test = 0`
	answersAsHand(t, dir, rows, []struct{ q, want string }{
		{"how many failed ticket attempts", "SELECT count(*) " + realAttempts + " AND x.outcome = 'failed'"},
		{"how many ticket attempts", "SELECT count(*) " + realAttempts},
		{"how many ticket attempts by outcome", "SELECT x.outcome, count(*) " + realAttempts + " GROUP BY 1 ORDER BY 1"},
		{"how many ticket attempts by agent", "SELECT a.name, count(*) " + realAttempts + " GROUP BY a.id ORDER BY a.id"},
		{"total quantity of order items", "SELECT sum(i.quantity) " + realLines},
		{"total quantity of order items by category", "SELECT l.category, sum(i.quantity) " + realLines + " GROUP BY 1 ORDER BY 1"},
	})
	// The hand-written answers are not those of the shorter ways alone.
	for _, c := range []struct{ ours, shorter string }{
		{"SELECT count(*) " + realAttempts, "SELECT count(*) FROM ticket_attempts x JOIN tickets t ON t.id = x.ticket_id LEFT JOIN agents a ON a.id = x.agent_id WHERE t.is_test = 0 AND a.is_test IS NOT 1"},
		{"SELECT sum(i.quantity) " + realLines, "SELECT sum(i.quantity) FROM order_items i JOIN listings l ON l.id = i.listing_id JOIN sellers ls ON ls.id = l.seller_id WHERE ls.is_test = 0"},
	} {
		if a, b := rows(c.ours), rows(c.shorter); fmt.Sprint(a) == fmt.Sprint(b) {
			t.Errorf("the fixture does not tell the ways apart: %v for %s", a, c.ours)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
