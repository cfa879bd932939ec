package semantic

import "testing"

// TestPartWhere: a condition on the rows one part of a derived measure
// counts is not laid on a part whose rows reach them only through a join
// that repeats its own: "revenue per customer" of store orders divides
// by every customer, not by those with a store order (found from
// outside: claims per policy, deleted claims left out, lost the policies
// whose only claim was deleted from its divisor). A condition on a table
// above both parts still keeps each to it.
func TestPartWhere(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	revenue := "SUM(i.quantity * i.unit_price * (1 - i.discount))"
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"revenue per customer of store orders", Query{Metrics: []string{"revenue_per_customer"}, Filters: []Filter{{Field: "orders.channel", Op: OpEq, Values: []any{"store"}}}},
			"SELECT (SELECT " + revenue + " FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.channel = 'store' AND o.status = 'completed') / CAST((SELECT COUNT(*) FROM customers) AS REAL)"},
		{"revenue per customer in Germany", Query{Metrics: []string{"revenue_per_customer"}, Filters: []Filter{{Field: "customers.country", Op: OpEq, Values: []any{"Germany"}}}},
			"SELECT (SELECT " + revenue + " FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.country = 'Germany' AND o.status = 'completed') / CAST((SELECT COUNT(*) FROM customers WHERE country = 'Germany') AS REAL)"},
		{"average order value of store orders", Query{Metrics: []string{"average_order_value"}, Filters: []Filter{{Field: "orders.channel", Op: OpEq, Values: []any{"store"}}}},
			"SELECT (SELECT " + revenue + " FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.channel = 'store' AND o.status = 'completed') / CAST((SELECT COUNT(*) FROM orders WHERE channel = 'store' AND status = 'completed') AS REAL)"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, "SELECT") })
	}
}
