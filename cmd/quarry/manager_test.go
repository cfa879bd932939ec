package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// TestManagerQuestions asks the demo questions that an outside test, asking
// as a manager would, found answered wrong at confidence 1.00. Each must
// now be either answered with the figure an independent query gives, or
// refused with a reason; never answered otherwise.
func TestManagerQuestions(t *testing.T) {
	demo := demoProject(t)
	db, err := sqlite3.Open(filepath.Join(demo, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// The questions are asked two at a time (each a run of its own on the
	// one demo project, as people asking side by side are); the
	// independent queries share one connection, one at a time.
	var mu sync.Mutex
	scalar := func(t *testing.T, sql string) string {
		mu.Lock()
		defer mu.Unlock()
		st, _, err := db.Prepare(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer st.Close()
		if !st.Step() {
			t.Fatalf("%s: no row", sql)
		}
		return st.ColumnText(0)
	}
	for _, tt := range []struct {
		q      string
		want   string // an independent query for the one figure; "" when the question must be refused
		rows   string // or an independent query for every row (two columns)
		cols   string // the result's two columns to compare with rows, as "a,b"; the first two when empty, in order
		refuse string // a fragment of the refusal
		says   string // a fragment the answer must hold, where it is answered
	}{
		{q: "revenue and orders by channel", rows: "SELECT channel, count(*) FROM orders GROUP BY channel", cols: "channel,orders"},
		// Found from outside (stop 37): "agents" names the tickets' link
		// and ends the title Support Agent, so it is asked; the title
		// said whole ranks the support agents; money made is revenue.
		{q: "top 3 agents by csat", refuse: "Support Agent"},
		{q: "top 3 support agents by csat", rows: "SELECT e.name, avg(t.satisfaction) FROM support_tickets t JOIN employees e ON e.id = t.assignee_id WHERE e.title = 'Support Agent' GROUP BY e.id HAVING avg(t.satisfaction) IS NOT NULL ORDER BY 2 DESC LIMIT 3", cols: "name,average_satisfaction"},
		{q: "What did we make from Electronics in 2025?", want: "SELECT sum(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE o.status = 'completed' AND p.category = 'Electronics' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'"},
		// What a person is paid is no money taken in.
		{q: "how much did Finn Costa make last year", refuse: "how much"},
		{q: "How much money did we make last month?", want: "SELECT sum(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'"},
		{q: "what was the order total in 2025", refuse: "total of order"},
		// Conditions on rows two tables away are one condition on the
		// same rows: a Toys line of an order placed in Q1.
		// "bought" is a completed purchase (found from outside: cancelled
		// and refunded orders counted); "ordered" any order.
		{q: "how many business customers bought Toys in Q1?", want: "SELECT count(DISTINCT c.id) FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE c.segment = 'business' AND p.category = 'Toys' AND o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01'"},
		{q: "how many business customers ordered Toys in Q1?", want: "SELECT count(DISTINCT c.id) FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE c.segment = 'business' AND p.category = 'Toys' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01'"},
		{q: "Which customers in France ordered Electronics last month?", rows: "SELECT DISTINCT c.name, c.name FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE c.country = 'France' AND p.category = 'Electronics' AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'", cols: "name,name"},
		{q: "how many customers placed more than 2 orders with Toys", refuse: "same orders rows"},
		// Found from outside (stop 37, third tester): conditions on the
		// same rows said together hold on one row; the verb's period and
		// status go with every table on its way; "and" between two
		// values of related rows is asked back.
		{q: "how many customers have refunded mobile orders", want: "SELECT count(DISTINCT customer_id) FROM orders WHERE status = 'refunded' AND channel = 'mobile'"},
		{q: "how many customers bought Toys but not Books in 2025", want: "SELECT count(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.customer_id = c.id AND p.category = 'Toys' AND o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01') AND NOT EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.customer_id = c.id AND p.category = 'Books' AND o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01')"},
		{q: "how many customers bought both Toys and Books in Q1", want: "SELECT count(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.customer_id = c.id AND p.category = 'Toys' AND o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01') AND EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE o.customer_id = c.id AND p.category = 'Books' AND o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01')"},
		{q: "how many customers ordered Beauty and Sports last quarter", refuse: "either"},
		// Two kinds of rows said apart are two rows (fourth tester):
		// a refunded order and a mobile one, maybe not the same; "or"
		// between them is refused.
		{q: "how many customers have a refunded order and a mobile order", want: "SELECT count(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'refunded') AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.channel = 'mobile')"},
		{q: "customers with refunded orders or mobile orders", refuse: "either"},
		// A share of the rows where a column is set, or empty.
		{q: "what share of orders used a promo code?", want: "SELECT avg(discount_code IS NOT NULL) FROM orders", says: "discount code is set"},
		{q: "what share of tickets are unassigned", want: "SELECT avg(assignee_id IS NULL) FROM support_tickets"},
		// "number of X per Y" over a few Ys is a row for each; over
		// thousands (customers), an average, which is asked back.
		// Subscriptions end: every one on record, or those here now?
		// Asked (a clarifying question passes as a refusal here), not
		// answered with the ended ones in (found from outside on other
		// tables: members and customers who had left counted, at 1.00).
		{q: "number of subscriptions per plan", refuse: "here now"},
		{q: "number of orders per customer", refuse: "or the average per customer"},
		{q: "average number of order items per order", want: "SELECT count(*) * 1.0 / (SELECT count(*) FROM orders) FROM order_items"},
		{q: "tickets closed by month in 2025", rows: "SELECT strftime('%Y-%m-01', closed_at), count(*) FROM support_tickets WHERE closed_at >= '2025-01-01' AND closed_at < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		{q: "how many subscriptions ended by month in 2025", rows: "SELECT strftime('%Y-%m-01', ended_on), count(*) FROM subscriptions WHERE ended_on >= '2025-01-01' AND ended_on < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		{q: "how many high priority tickets", want: "SELECT count(*) FROM support_tickets WHERE priority = 'high'"},
		{q: "number of high priority tickets", want: "SELECT count(*) FROM support_tickets WHERE priority = 'high'"},
		{q: "how many low priority tickets last month", want: "SELECT count(*) FROM support_tickets WHERE priority = 'low' AND opened_at >= '2026-05-01' AND opened_at < '2026-06-01'"},
		{q: "how many web channel orders", want: "SELECT count(*) FROM orders WHERE channel = 'web'"},
		{q: "number of Electronics category products", want: "SELECT count(*) FROM products WHERE category = 'Electronics'"},
		{q: "how many discontinued products", want: "SELECT count(*) FROM products WHERE discontinued = 1"},
		{q: "how many discontinued products in Garden", want: "SELECT count(*) FROM products WHERE discontinued = 1 AND category = 'Garden'"},
		{q: "how many business segment customers signed up in 2025", want: "SELECT count(*) FROM customers WHERE segment = 'business' AND signup_date >= '2025-01-01' AND signup_date < '2026-01-01'"},
		{q: "how many customers not in Germany or France", want: "SELECT count(*) FROM customers WHERE country NOT IN ('Germany', 'France')"},
		{q: "orders excluding the web and store channels", want: "SELECT count(*) FROM orders WHERE channel NOT IN ('web', 'store')"},
		{q: "tickets except Billing and Account", want: "SELECT count(*) FROM support_tickets WHERE category NOT IN ('Billing', 'Account')"},
		{q: "orders from 2024", want: "SELECT count(*) FROM orders WHERE ordered_at >= '2024-01-01' AND ordered_at < '2025-01-01'"},
		{q: "how many customers from 2024", want: "SELECT count(*) FROM customers WHERE signup_date >= '2024-01-01' AND signup_date < '2025-01-01'"},
		{q: "how many people", refuse: "or the persons themselves"},
		{q: "number of accounts", refuse: "cannot count a value"},
		{q: "how many people opened tickets last month", refuse: "or the persons themselves"},
		{q: "number of people in each department", rows: "SELECT department, count(*) FROM employees GROUP BY department", cols: "department,headcount"},
		{q: "how many employees in People", want: "SELECT count(*) FROM employees WHERE department = 'People'"},
		{q: "how many products have a price above 100 in Books", want: "SELECT count(*) FROM products WHERE unit_price > 100 AND category = 'Books'"},
		{q: "top 3 products by units sold in each category", refuse: "within each group"},
		{q: "best selling product in each category", refuse: "within each group"},
		{q: "the customer with the fewest orders", refuse: "would be missing"},
		// Every product has sold: a control query shows none is missing
		// from the bottom (everyRowControl).
		{q: "bottom 3 products by units sold", rows: "SELECT p.name, sum(i.quantity) AS s FROM order_items i JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed' GROUP BY p.id ORDER BY s LIMIT 3", cols: "name,units_sold"},
		{q: "open tickets closed last month", refuse: "cannot all hold"},
		{q: "completed orders that were cancelled", refuse: "cannot all hold"},
		// Counted per customer, none counting as 0 (refused before
		// quarry could say it: a grouped count drops the customers with
		// no order).
		{q: "customers with fewer than 2 orders", rows: "SELECT c.name, c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id HAVING count(o.id) < 2 ORDER BY c.id", cols: "name,name"},
		{q: "how many tickets are closed", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NOT NULL"},
		{q: "employees in Sales", want: "SELECT count(*) FROM employees WHERE department = 'Sales'"},
		{q: "how many orders have no discount code", want: "SELECT count(*) FROM orders WHERE discount_code IS NULL"},
		// A name from the value index init --demo writes (a column of
		// thousands of values, which model.yaml does not list).
		{q: "how many orders by Priya Dawson", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = 'Priya Dawson'"},
		// Refused before (2026-12-02's second outside test): rows that
		// have rows a measure counts.
		{q: "how many customers have a refunded order", want: "SELECT count(DISTINCT customer_id) FROM orders WHERE status = 'refunded'"},
		{q: "how many customers have no cancelled orders", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'cancelled')"},
		{q: "how many customers have more than 2 refunded orders", want: "SELECT count(*) FROM (SELECT customer_id FROM orders WHERE status = 'refunded' GROUP BY 1 HAVING count(*) > 2)"},
		// Found by a second outside test (2026-12-02): "non-" before a
		// measure was dropped, and the measure itself answered.
		{q: "how many non-refunded orders", refuse: "cannot negate a measure"},
		{q: "non-members", refuse: "cannot negate a measure"},
		{q: "non-open tickets", refuse: "cannot negate a measure"},
		{q: "how many non-refunded web orders", want: "SELECT count(*) FROM orders WHERE status <> 'refunded' AND channel = 'web'"},
		// Found by an outside test (2026-12-02): the value was read as the
		// column it is known in, not the one the question names. Read as
		// the named column's, it found nothing and answered 0 at 0.85
		// (a third outside test: "tickets with priority Shipping last
		// week"): where the named column lists its values without it, the
		// question is refused, naming the value's column.
		{q: "customers whose city is Germany", refuse: "it is a value of customers.country"},
		{q: "employees whose title is Engineering", refuse: "it is a value of employees.department"},
		{q: "orders with discount code web", refuse: "it is a value of orders.channel"},
		{q: "employees whose title is Sales", refuse: "it is a value of employees.department"},
		{q: "Tickets with priority Shipping last week", refuse: "it is a value of support_tickets.category"},
		{q: "products with product name Books", want: "SELECT count(*) FROM products WHERE name = 'Books'"},
		{q: "how many customers have fewer than 2 orders", want: "SELECT count(*) FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) < 2"},
		{q: "products with fewer than 10 units sold in May 2026", refuse: "would be missing"},
		// Found by a second outside test (2026-12-01), each answered wrong
		// at confidence 1.00 before: one row per customer for a total,
		// "joined" read as the shop's signup date, a period on the launch
		// date for "discontinued", the groups with none left out of a
		// "fewest".
		{q: "how many orders were placed by customers who signed up in 2025", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01'", says: "from customers with signup date in 2025"},
		{q: "how many tickets were opened by business customers last month", want: "SELECT count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE c.segment = 'business' AND t.opened_at >= '2026-05-01' AND t.opened_at < '2026-06-01'"},
		{q: "number of orders from customers who signed up in 2025", refuse: "asks for a number"},
		{q: "how many members joined last month", refuse: "the measure's own"},
		{q: "how many products were discontinued last year", refuse: "no date of that"},
		{q: "which department has the fewest tickets", refuse: "6 have none: "},
		{q: "which country had the fewest orders today", refuse: "have none: "},
		// A third outside test: a count of a kind of thing in a period was
		// read as those made in it ("customers we had last month" as
		// signups in May).
		{q: "how many customers did we have last month", refuse: "may mean how many there were"},
		{q: "headcount in 2024", refuse: "may mean how many there were"},
		{q: "MRR last month", refuse: "in that state during the period"},
		// A state now (open, active) in a period: "open tickets last month"
		// counted the tickets opened in May that are open today.
		{q: "open tickets last month", refuse: "in that state during the period"},
		{q: "active subscriptions last month", refuse: "in that state during the period"},
		{q: "how many open tickets", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL"},
		// "at home" is no category; "mobile devices" is a filter, not a
		// grouping by device as well.
		{q: "revenue at home this month", refuse: "ordinary word"},
		// Rows that have none of another table's ("never ordered").
		{q: "how many customers never ordered", want: "SELECT count(*) FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL)"},
		{q: "how many customers in Germany have no orders", want: "SELECT count(*) FROM customers WHERE country = 'Germany' AND id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL)"},
		{q: "how many customers have never opened a ticket", want: "SELECT count(*) FROM customers WHERE id NOT IN (SELECT customer_id FROM support_tickets WHERE customer_id IS NOT NULL)"},
		// The period on the rows that must be missing, on their own date;
		// of the customers there by its end: one who signed up in 2026
		// could have opened none in 2025 (goneBefore).
		{q: "customers who never opened a ticket in 2025", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM support_tickets t WHERE t.customer_id = c.id AND t.opened_at >= '2025-01-01' AND t.opened_at < '2026-01-01') AND (c.signup_date < '2026-01-01' OR c.signup_date IS NULL)"},
		// A fourth outside test (2026-12-01), each wrong at 1.00 before.
		{q: "cities with fewer than 3 signups this month", refuse: "would be missing"},
		{q: "customers by signup year", rows: "SELECT strftime('%Y-01-01', signup_date), count(*) FROM customers GROUP BY 1", cols: "signup_date,customers"},
		{q: "orders in the last week of May 2026", refuse: "two periods"},
		{q: "revenue on the last day of May 2026", refuse: "two periods"},
		{q: "number of orders in the US last month", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = 'United States' AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'"},
		{q: "German customers revenue last year", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.country = 'Germany' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'"},
		{q: "how many sales last week", refuse: "asks for a count"},
		// A second outside test: overlapping periods compared lost rows.
		{q: "orders in December last year", want: "SELECT count(*) FROM orders WHERE ordered_at >= '2025-12-01' AND ordered_at < '2026-01-01'"},
		{q: "orders in 2025 vs December 2025", refuse: "overlap"},
		{q: "how many open urgent tickets", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL AND priority = 'urgent'"},
		{q: "how many products have a unit price above 1,000", want: "SELECT count(*) FROM products WHERE unit_price > 1000"},
		{q: "revenue by category last month for discontinued products", rows: "SELECT p.category, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' AND p.discontinued = 1 AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01' GROUP BY p.category"},
		{q: "what's a normal number of tickets per month this year", refuse: "a value before"},
		{q: "customer support tickets last month", refuse: "may name the support tickets"},
		{q: "total revenue of the top 5 products last quarter", refuse: "total of the top 5"},
		// A third outside test (2026-12-01), each wrong at 1.00 before:
		// "by X for <filtered> customers" grouped by customer too; "with
		// 1 page" was a limit; "when … cancelled" gave a start date.
		{q: "Revenue by channel for customers in the United Kingdom in Q1 2026", rows: "SELECT o.channel, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.country = 'United Kingdom' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01' GROUP BY o.channel", cols: "channel,revenue"},
		{q: "Tickets by category for business customers this year", rows: "SELECT t.category, count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE c.segment = 'business' AND t.opened_at >= '2026-01-01' AND t.opened_at < '2027-01-01' GROUP BY t.category", cols: "ticket_category,tickets"},
		{q: "how many web sessions with 3 pages", want: "SELECT count(*) FROM web_sessions WHERE pages = 3"},
		{q: "When was the last subscription cancelled?", refuse: "happened on a date of its own"},
		{q: "when was the last order refunded", refuse: "happened on a date of its own"},
		// A fourth outside test: a state measure by a time grain or "since"
		// grouped today's members by the month each started.
		{q: "MRR by month", refuse: "in that state now"},
		{q: "MRR since 2025", refuse: "in that state now"},
		{q: "headcount by year", refuse: "how many there were"},
		// Since then the knowledge counts cancelled subscriptions when they
		// ended.
		{q: "cancelled subscriptions by month", rows: "SELECT strftime('%Y-%m-01', ended_on), count(*) FROM subscriptions WHERE status = 'cancelled' GROUP BY 1 ORDER BY 1"},
		// A fifth outside test: a share "by" a group is the rate in each
		// group; another date's year or a raw date is no grouping asked
		// for; "the top X in each Y" is a ranking within groups.
		// The year said beside a date is that date's (stop 48): units
		// by the year each product launched, tickets by the year each
		// customer signed up.
		{q: "units sold by launch year", rows: "SELECT strftime('%Y-01-01', p.launched_on), sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE o.status = 'completed' GROUP BY 1", cols: "launch_date,units_sold"},
		{q: "revenue by signup month", rows: "SELECT strftime('%Y-%m-01', c.signup_date), sum(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' GROUP BY 1", cols: "signup_date,revenue"},
		{q: "orders by channel placed in 2025", refuse: "a date, which the question does not ask for"},
		{q: "tickets by customer signup year", rows: "SELECT strftime('%Y-01-01', c.signup_date), count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id GROUP BY 1", cols: "signup_date,tickets"},
		{q: "the top product in each category by revenue", refuse: "within each group"},
		// A sixth outside test (ordinary questions): "by" after a verb of
		// making says whose; "per customer" may be an average; "who" asks
		// for names; "what's our headcount" for a number.
		{q: "Orders placed by customers in Berlin last month", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = 'Berlin' AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'"},
		{q: "What was revenue per customer last year?", refuse: "average per customer"},
		{q: "Who was hired most recently?", rows: "SELECT name, hired_on FROM employees ORDER BY hired_on DESC LIMIT 1", cols: "name,hired_on"},
		{q: "Who works in Finance?", rows: "SELECT name, name FROM employees WHERE department = 'Finance' ORDER BY id", cols: "name,name"},
		{q: "What's our headcount?", want: "SELECT count(*) FROM employees"},
		// "cost" of a product: what it costs a buyer, or the shop?
		{q: "products that cost more than 100", refuse: "could mean products.unit_cost or products.unit_price"},
		{q: "orders web vs store in 2025", rows: "SELECT channel, count(*) FROM orders WHERE channel IN ('web', 'store') AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY channel", cols: "channel,orders"},
		{q: "average pages per visit on mobile devices last week", want: "SELECT avg(pages) FROM web_sessions WHERE device = 'mobile' AND started_at >= '2026-06-22' AND started_at < '2026-06-29'"},
		{q: "how many buyers did we have in 2025", refuse: "buying customers or the customers table"},
		// A seventh outside test (sales, customer success, finance): "X
		// share of Y by G" is X's share within each group, not how X
		// spreads over the groups; a share by a time grain and another
		// dimension is of each period; "margin %" is the margin rate; a
		// state word as the verb after "did" is no state.
		{q: "mobile share of orders by year", rows: "SELECT strftime('%Y-01-01', ordered_at), avg(channel = 'mobile') FROM orders GROUP BY 1 ORDER BY 1"},
		{q: "refunded share of orders by month 2026", rows: "SELECT strftime('%Y-%m-01', ordered_at), avg(status = 'refunded') FROM orders WHERE ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1"},
		{q: "share of orders from mobile by month in 2026", rows: "SELECT strftime('%Y-%m-01', ordered_at), avg(channel = 'mobile') FROM orders WHERE ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1"},
		{q: "urgent share of tickets by category", rows: "SELECT category, avg(priority = 'urgent') FROM support_tickets GROUP BY 1 ORDER BY 1"},
		{q: "percentage of sessions that converted by device", rows: "SELECT device, avg(converted) FROM web_sessions GROUP BY 1 ORDER BY 1"},
		{q: "percent of orders refunded by country", rows: "SELECT c.country, avg(o.status = 'refunded') FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY 1 ORDER BY 1"},
		{q: "share of orders by channel by year", rows: "SELECT channel, count(*) * 1.0 / sum(count(*)) OVER (PARTITION BY strftime('%Y', ordered_at)) FROM orders GROUP BY strftime('%Y', ordered_at), channel", cols: "channel,orders_share"},
		{q: "cancelled orders as a share of all orders by channel", refuse: "one measure as a share of another"},
		{q: "how many tickets did Germany customers open", want: "SELECT count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE c.country = 'Germany'"},
		{q: "how many tickets did German customers open last month", want: "SELECT count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE c.country = 'Germany' AND t.opened_at >= '2026-05-01' AND t.opened_at < '2026-06-01'"},
		{q: "how many orders did German customers place", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = 'Germany'"},
		{q: "satisfaction score for urgent tickets", refuse: "without asking for a list or a figure"},
		{q: "store share of revenue by month this year", rows: "SELECT strftime('%Y-%m-01', o.ordered_at), sum(CASE WHEN o.channel = 'store' THEN oi.quantity * oi.unit_price * (1 - oi.discount) ELSE 0 END) / sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1"},
		{q: "refund % by channel", refuse: "rate in each group or each group's part"},
		// An eighth outside test: shares of what does not add up across
		// groups, of a condition outside the measure's rows, rankings by
		// an ambiguous share, "X %" of a named measure, "across all
		// years", the top rows' share together, "%" as a word, and the
		// same period last year like for like.
		{q: "share of buying customers by channel", refuse: "not a sum or a count of rows"},
		{q: "share of conversion rate by device", refuse: "not a sum or a count of rows"},
		{q: "refunded share of revenue", refuse: "outside the rows"},
		{q: "which channel has the highest share of refunded orders", refuse: "ranks the groups"},
		{q: "gross margin % by channel", rows: "SELECT o.channel, sum(oi.quantity * (oi.unit_price * (1 - oi.discount) - p.unit_cost)) / sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1"},
		{q: "gross profit % by channel", refuse: "a rate in each group"},
		{q: "revenue by channel across all years", rows: "SELECT o.channel, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1"},
		{q: "share of revenue from the top 10 products", refuse: "top or bottom rows"},
		{q: "what % of orders are mobile", want: "SELECT avg(channel = 'mobile') FROM orders"},
		{q: "orders this year vs the same period last year", rows: "SELECT CASE WHEN ordered_at < '2026-01-01' THEN 'the same period a year earlier (2025-01-01 to 2025-06-30)' ELSE 'this year (2026)' END, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2025-07-01' OR ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1", cols: "period,orders"},
		{q: "share of revenue by category within Germany", rows: "WITH r AS (SELECT p.category c, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) v FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers cu ON cu.id = o.customer_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' AND cu.country = 'Germany' GROUP BY 1) SELECT c, v / (SELECT sum(v) FROM r) FROM r ORDER BY 1", cols: "category,revenue_share"},
		// A ninth outside test: the verb after "did" dropped or its
		// condition lost, shares within groups of the grand total, two
		// periods each with its own value, values no row has both of,
		// rankings from the lowest, and a period last year.
		{q: "how many orders did German customers return", refuse: "is a verb"},
		{q: "how many tickets did German customers close", want: "SELECT count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE c.country = 'Germany' AND t.closed_at IS NOT NULL"},
		{q: "share of revenue by category within each channel", refuse: "only by a time grain"},
		{q: "revenue in Germany in 2025 and France in 2024", refuse: "pairs a value or a measure with one period"},
		{q: "how many orders were both refunded and cancelled", refuse: "cannot be both"},
		{q: "rank categories by revenue", rows: "SELECT p.category, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 2 DESC"},
		{q: "orders ytd last year", want: "SELECT count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2025-07-01'"},
		{q: "avg order value by channel", rows: "SELECT o.channel, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / count(DISTINCT o.id) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1"},
		{q: "revenue last month vs same month last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same period a year earlier (May 2025)' ELSE 'last month (May 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-05-01' AND o.ordered_at < '2025-06-01' OR o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue"},
		{q: "revenue the same month last year", refuse: "not understood"},
		// A period shorter than a year against "last year" or a year
		// named: the same period of that year (found from outside: June
		// 2026 was set against all of 2025).
		{q: "revenue this month compared to last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same month last year (June 2025)' ELSE 'this month (June 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-06-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-06-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+$32,071.66 (+13.0%)"},
		{q: "orders in Q1 vs last year", rows: "SELECT CASE WHEN ordered_at < '2026-01-01' THEN 'the same quarter last year (Q1 2025)' ELSE 'Q1 2026' END, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2025-04-01' OR ordered_at >= '2026-01-01' AND ordered_at < '2026-04-01' GROUP BY 1 ORDER BY 1", cols: "period,orders", says: "+1,057 (+24.6%)"},
		{q: "how many new customers in june compared to last year", rows: "SELECT CASE WHEN signup_date < '2026-01-01' THEN 'the same month last year (June 2025)' ELSE 'June 2026' END, count(*) FROM customers WHERE signup_date >= '2025-06-01' AND signup_date < '2025-07-01' OR signup_date >= '2026-06-01' AND signup_date < '2026-07-01' GROUP BY 1 ORDER BY 1", cols: "period,customers", says: "+46 (+32.2%)"},
		{q: "revenue this month vs a year ago", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same month last year (June 2025)' ELSE 'this month (June 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-06-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-06-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+13.0%"},
		{q: "revenue this month vs the year before", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same month the year before (June 2025)' ELSE 'this month (June 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-06-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-06-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+13.0%"},
		{q: "revenue this quarter vs last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same quarter last year (Q2 2025)' ELSE 'this quarter (Q2 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-04-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-04-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+16.4%"},
		{q: "revenue in May compared to 2025", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same month in 2025 (May 2025)' ELSE 'May 2026' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-05-01' AND o.ordered_at < '2025-06-01' OR o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+25.7%"},
		{q: "revenue Q1 2026 vs 2025", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same quarter in 2025 (Q1 2025)' ELSE 'Q1 2026' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2025-04-01' OR o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+31.5%"},
		{q: "Q1 revenue 2025 vs 2026", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'Q1 2025' ELSE 'Q1 2026' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2025-04-01' OR o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "+31.5%"},
		{q: "revenue this year vs last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'last year (2025)' ELSE 'this year (2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' OR o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY 1", cols: "period,revenue", says: "no change between them is given"},
		{q: "revenue last month compared to last year's average", refuse: "not understood"},
		{q: "revenue Q3 2025 vs 2026", refuse: "has not started"},
		// An average or a ratio over periods of different lengths: the
		// change is given, with the note on the lengths (found from
		// outside: withheld as not like for like).
		{q: "aov this year vs last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'last year (2025)' ELSE 'this year (2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / count(DISTINCT o.id) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1", cols: "period,average_order_value", says: "+$6.92 (+4.6%)"},
		{q: "aov and revenue this year vs last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'last year (2025)' ELSE 'this year (2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / count(DISTINCT o.id) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1", cols: "period,average_order_value", says: "no change between them is given"},
		{q: "how many tickets were opened in may", want: "SELECT count(*) FROM support_tickets WHERE opened_at >= '2026-05-01' AND opened_at < '2026-06-01'"},
		// The day of the week: named, Monday first, with the period
		// when one is given; "weekly" stays the week; "on weekdays" is a
		// filter quarry does not read, never a grouping.
		{q: "orders by day of week", rows: "SELECT CASE strftime('%w', ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END, count(*) FROM orders GROUP BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7 ORDER BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7"},
		{q: "orders per day of the week in 2025", rows: "SELECT CASE strftime('%w', ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7 ORDER BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7"},
		{q: "revenue by weekday last year", rows: "SELECT CASE strftime('%w', o.ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY (CAST(strftime('%w', o.ordered_at) AS INTEGER) + 6) % 7 ORDER BY (CAST(strftime('%w', o.ordered_at) AS INTEGER) + 6) % 7"},
		{q: "which day of the week has the most orders", rows: "SELECT CASE strftime('%w', ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END, CASE strftime('%w', ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END FROM orders GROUP BY 1 ORDER BY count(*) DESC LIMIT 1", cols: "day_of_week,day_of_week"},
		{q: "share of orders by day of week", rows: "SELECT CASE strftime('%w', ordered_at) WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday' ELSE 'Sunday' END, count(*) * 1.0 / (SELECT count(*) FROM orders) FROM orders GROUP BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7 ORDER BY (CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7", cols: "day_of_week,orders_share"},
		{q: "orders per week in 2025", rows: "SELECT date(ordered_at, '-' || ((CAST(strftime('%w', ordered_at) AS INTEGER) + 6) % 7) || ' days'), count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		// Weekends and weekdays: a filter on the measure's date, or two
		// rows side by side; one weekend is refused, not read as all.
		{q: "orders on weekdays", want: "SELECT count(*) FROM orders WHERE strftime('%w', ordered_at) NOT IN ('0', '6')", says: "on weekdays"},
		{q: "orders on a weekday", want: "SELECT count(*) FROM orders WHERE strftime('%w', ordered_at) NOT IN ('0', '6')"},
		{q: "revenue on weekends by channel", rows: "SELECT o.channel, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND strftime('%w', o.ordered_at) IN ('0', '6') GROUP BY 1 ORDER BY 1"},
		{q: "weekend vs weekday revenue this year", rows: "SELECT CASE WHEN strftime('%w', o.ordered_at) IN ('0', '6') THEN 'weekend' ELSE 'weekday' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1", says: "weekend"},
		{q: "weekend revenue this year", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND strftime('%w', o.ordered_at) IN ('0', '6') AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01'", says: "on weekends"},
		{q: "orders on weekends last month", want: "SELECT count(*) FROM orders WHERE strftime('%w', ordered_at) IN ('0', '6') AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "how many tickets were opened on a weekday in 2025", want: "SELECT count(*) FROM support_tickets WHERE strftime('%w', opened_at) NOT IN ('0', '6') AND opened_at >= '2025-01-01' AND opened_at < '2026-01-01'", says: "on weekdays"},
		{q: "revenue on Saturdays last quarter", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND strftime('%w', o.ordered_at) = '6' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01'"},
		{q: "orders last weekend", refuse: "one weekend"},
		// A share of some rows by a grouping: the rate within each group
		// or each group's part of those rows? Asked, with both readings as
		// questions; answered where the words settle it.
		{q: "percentage of refunded orders by channel", refuse: "share of orders that were refunded within each channel, or each channel's part of all refunded orders"},
		{q: "share of refunded orders by channel in 2025", refuse: "within each channel"},
		{q: "percentage of mobile orders by country", refuse: "part of all mobile orders"},
		{q: "what percentage of orders were refunded by channel", rows: "SELECT channel, avg(status = 'refunded') FROM orders GROUP BY 1 ORDER BY 1"},
		{q: "percentage split of refunded orders by channel", rows: "SELECT channel, count(*) * 1.0 / (SELECT count(*) FROM orders WHERE status = 'refunded') FROM orders WHERE status = 'refunded' GROUP BY 1 ORDER BY 1", cols: "channel,refunded_orders_share"},
		{q: "which channel has the largest share of refunded orders", rows: "SELECT channel, count(*) * 1.0 / (SELECT count(*) FROM orders WHERE status = 'refunded') FROM orders WHERE status = 'refunded' GROUP BY 1 ORDER BY 2 DESC LIMIT 1", cols: "channel,refunded_orders_share"},
		{q: "what percentage of orders were refunded by channel in 2025", rows: "SELECT channel, avg(status = 'refunded') FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		// Growth: the change between two periods (the comparison states
		// it), "the quarter before" the period before; growth by period
		// or by group refused, never the series instead.
		{q: "revenue growth last quarter vs the quarter before", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the quarter before (Q4 2025)' ELSE 'last quarter (Q1 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-10-01' AND o.ordered_at < '2026-04-01' GROUP BY 1 ORDER BY 1 DESC", cols: "period,revenue"},
		{q: "orders growth 2024 vs 2025", rows: "SELECT substr(ordered_at, 1, 4), count(*) FROM orders WHERE ordered_at >= '2024-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		{q: "year over year revenue growth by month", refuse: "does not compute growth by period or by group"},
		{q: "revenue growth rate by channel", refuse: "does not compute growth by period or by group"},
		{q: "store revenue last quarter", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.channel = 'store' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01'"},
		// Asked the way a manager talks (2026-12-02): phrasing around the
		// measure, "with a" a column, the most used value, "best selling".
		{q: "how are we doing on revenue this quarter", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-04-01' AND o.ordered_at < '2026-07-01'"},
		{q: "how is revenue looking this month", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-06-01' AND o.ordered_at < '2026-07-01'"},
		{q: "how are our products doing", refuse: "without naming a measure"},
		{q: "break down orders by channel for last year", rows: "SELECT channel, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1", cols: "channel,orders"},
		{q: "break down revenue", refuse: "needs what to break it down by"},
		{q: "average satisfaction score by ticket category", rows: "SELECT category, avg(satisfaction) FROM support_tickets GROUP BY 1 ORDER BY 1"},
		{q: "which ticket category gets the most complaints", rows: "SELECT category, count(*) FROM support_tickets GROUP BY 1 ORDER BY 2 DESC LIMIT 1", cols: "ticket_category,tickets"},
		{q: "best month for revenue this year", rows: "SELECT strftime('%Y-%m-01', o.ordered_at), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		{q: "what was our best month this year", refuse: "what to rank by"},
		{q: "how much revenue did the web channel bring in last month", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.channel = 'web' AND o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'"},
		{q: "how many orders did the web channel bring in", refuse: "is a verb"},
		{q: "how many orders used a discount code", want: "SELECT count(*) FROM orders WHERE discount_code IS NOT NULL"},
		{q: "orders with a promo code last month", rows: "SELECT id, discount_code FROM orders WHERE discount_code IS NOT NULL AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'", cols: "id,discount_code"},
		{q: "most used promo code", want: "SELECT discount_code FROM orders WHERE discount_code IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"},
		{q: "best selling products this year", rows: "SELECT p.name, sum(oi.quantity) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' GROUP BY p.id", cols: "name,units_sold"},
		{q: "what are our top selling categories", rows: "SELECT p.category, sum(oi.quantity) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' GROUP BY 1", cols: "category,units_sold"},
		{q: "who are our biggest customers", refuse: "ranks without saying by what"},
		{q: "what percentage of revenue comes from Electronics", want: "SELECT sum(CASE WHEN p.category = 'Electronics' THEN oi.quantity * oi.unit_price * (1 - oi.discount) ELSE 0 END) / sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed'"},
		{q: "what's our cheapest product", rows: "SELECT name, unit_price FROM products ORDER BY unit_price LIMIT 1", cols: "name,unit_price"},
		{q: "how are signups trending this year", rows: "SELECT strftime('%Y-%m-01', signup_date), count(*) FROM customers WHERE signup_date >= '2026-01-01' AND signup_date < '2026-07-01' GROUP BY 1 ORDER BY 1"},
		{q: "revenue from consumers vs businesses", rows: "SELECT c.segment, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' GROUP BY 1", cols: "segment,revenue"},
		// Answered grouped by discontinued as well (its 0 and 1 rows, at
		// full confidence).
		{q: "how many products in each category are discontinued", rows: "SELECT category, count(*) FROM products WHERE discontinued = 1 GROUP BY 1 ORDER BY 1"},
		{q: "orders using the WELCOME10 code this year", want: "SELECT count(*) FROM orders WHERE discount_code = 'WELCOME10' AND ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		{q: "what's our biggest channel by revenue", rows: "SELECT o.channel, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		// Answered with two figures before (all urgent tickets beside the
		// open ones), at full confidence.
		{q: "how many tickets are urgent and unresolved", want: "SELECT count(*) FROM support_tickets WHERE priority = 'urgent' AND closed_at IS NULL"},
		// Answered 0 at 0.85 before: "refunded" was read as a discount code.
		{q: "how many orders with a discount code were refunded", want: "SELECT count(*) FROM orders WHERE discount_code IS NOT NULL AND status = 'refunded'"},
		{q: "how many tickets are unresolved", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL"},
		{q: "how many tickets were unresolved in May", refuse: "in that state during the period"},
		{q: "what's the average basket size", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / count(DISTINCT o.id) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed'"},
		{q: "how many new customers did we get in May", want: "SELECT count(*) FROM customers WHERE signup_date >= '2026-05-01' AND signup_date < '2026-06-01'"},
		{q: "average order size by country", rows: "SELECT c.country, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / count(DISTINCT o.id) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' GROUP BY 1 ORDER BY 1"},
		{q: "top 5 customers in France by revenue", rows: "SELECT c.name, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.country = 'France' GROUP BY c.id ORDER BY 2 DESC LIMIT 5", cols: "name,revenue"},
		{q: "how many urgent tickets are open", want: "SELECT count(*) FROM support_tickets WHERE priority = 'urgent' AND closed_at IS NULL"},
		{q: "what's our conversion rate on mobile", want: "SELECT avg(converted) FROM web_sessions WHERE device = 'mobile'"},
		{q: "MRR by plan", rows: "SELECT p.name, sum(p.monthly_price) FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.status = 'active' GROUP BY 1 ORDER BY 1"},
		// An outside tester's wrong answers, all at confidence 1.00
		// before. A ranking of periods over a range that cuts its first
		// or last period compared part of a week or month with whole
		// ones, and the part won.
		{q: "which week had the fewest orders in 2025", refuse: "cuts the week"},
		{q: "which quarter had the lowest revenue in the past 6 months", refuse: "cuts the quarter"},
		{q: "which month had the fewest orders in the last 45 days", refuse: "cuts the month"},
		{q: "which month had the lowest revenue since March 15", refuse: "cuts the month"},
		{q: "which quarter had the most orders in 2025", rows: "SELECT printf('%s-%02d-01', strftime('%Y', ordered_at), (CAST(strftime('%m', ordered_at) AS INTEGER) - 1) / 3 * 3 + 1), count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		// A count asked of an amount: "count of sales" summed revenue.
		{q: "count of sales by channel", refuse: "asks for a count"},
		{q: "sales count by month in 2025", refuse: "asks for a count"},
		{q: "tally of sales by category", refuse: "asks for a count"},
		// The different dates of a column, or its latest in each period,
		// read for a number of events.
		// Since then "hires" are the employees, by the date they were hired.
		{q: "how many hires in 2024", want: "SELECT count(*) FROM employees WHERE hired_on >= '2024-01-01' AND hired_on < '2025-01-01'"},
		{q: "how many subscription starts in 2025", want: "SELECT count(*) FROM subscriptions WHERE started_on >= '2025-01-01' AND started_on < '2026-01-01'"},
		{q: "which month had the most hires", rows: "SELECT strftime('%Y-%m-01', hired_on), count(*) FROM employees GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		{q: "how many employees joined in 2024", want: "SELECT count(*) FROM employees WHERE hired_on >= '2024-01-01' AND hired_on < '2025-01-01'"},
		// Sorted by the start date while the question asks when they
		// were cancelled, which has a date of its own.
		{q: "which subscription was cancelled most recently", refuse: "sorted by subscriptions.started_on"},
		// Both ends asked, one given.
		{q: "best and worst month for revenue in 2025", refuse: "both ends"},
		{q: "top and bottom channel by refunds", refuse: "both ends"},
		{q: "which months had the highest and lowest revenue in 2025", refuse: "both ends"},
		// A value set beside another column's name, filtered in its own.
		{q: "tickets in category urgent", refuse: "puts \"urgent\" in category"},
		{q: "orders in status mobile", refuse: "puts \"mobile\" in status"},
		{q: "tickets in the Billing priority", refuse: "puts \"Billing\" in priority"},
		// A second tester: compared periods of a measure of a state
		// counted the rows made in each that are in the state now.
		{q: "mrr this month vs last month", refuse: "in each period compared"},
		{q: "open tickets this month vs last month", refuse: "in each period compared"},
		{q: "headcount 2025 vs 2024", refuse: "in each period compared"},
		{q: "how many customers did we have in 2025 vs 2024", refuse: "in each period compared"},
		// Sorted by the customers' signup date for when their
		// subscriptions were cancelled.
		{q: "5 customers who cancelled their subscriptions most recently", refuse: "sorted by customers.signup_date"},
		// A comma in a list that ends with "and" dropped the first item.
		{q: "orders, refunds and refund rate by channel in 2025", rows: "SELECT channel, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY channel", cols: "channel,orders"},
		{q: "urgent tickets in the Billing category", want: "SELECT count(*) FROM support_tickets WHERE priority = 'urgent' AND category = 'Billing'"},
		// Series over a range that cuts a period: the trend is read
		// between whole periods, and the cut ones are named (+114% from
		// half a January before; +30.8% between two weeks of three and
		// five days).
		{q: "revenue by month since January 15", rows: "SELECT strftime('%Y-%m-01', o.ordered_at), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-15' AND o.ordered_at < '2026-07-01' GROUP BY 1 ORDER BY 1", says: "Change between the first and last whole months (2026-02 and 2026-06), computed from those cells: +$38,568.05 (+16.1%)"},
		{q: "orders by week in 2025", rows: "SELECT date(ordered_at, 'weekday 0', '-6 days'), count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 1", says: "first and last whole weeks (2025-01-06 and 2025-12-22), computed from those cells: +363 (+116.0%)"},
		// Compared periods before the data's first day (2023-07-01).
		{q: "revenue 2023 vs 2024 vs 2025", rows: "SELECT substr(o.ordered_at, 1, 4), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2023-01-01' AND o.ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 1", says: "2023 starts before the data does, so its figure holds only part of its days; the change is given between 2024 and 2025"},
		{q: "revenue 2023 vs 2024", rows: "SELECT substr(o.ordered_at, 1, 4), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2023-01-01' AND o.ordered_at < '2025-01-01' GROUP BY 1 ORDER BY 1", says: "no change is given"},
		// Quarters and months of a year named after them.
		{q: "revenue in Q3 last year", rows: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-07-01' AND o.ordered_at < '2025-10-01'", cols: "revenue,revenue"},
		{q: "revenue in March last year", rows: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-03-01' AND o.ordered_at < '2025-04-01'", cols: "revenue,revenue"},
		{q: "orders in Q2 2025", want: "SELECT count(*) FROM orders WHERE ordered_at >= '2025-04-01' AND ordered_at < '2025-07-01'"},
		{q: "revenue last quarter", rows: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-04-01'", cols: "revenue,revenue"},
		{q: "revenue in Q3 2025 last year", refuse: "overlap"},
		{q: "revenue in May vs last month", refuse: "overlap"},
		// Months compared without a year: the latest of each.
		{q: "signups June vs May", rows: "SELECT CASE WHEN signup_date < '2026-06-01' THEN 'May 2026' ELSE 'June 2026' END, count(*) FROM customers WHERE signup_date >= '2026-05-01' AND signup_date < '2026-07-01' GROUP BY 1 ORDER BY min(signup_date)"},
		{q: "revenue in March vs February", rows: "SELECT CASE WHEN o.ordered_at < '2026-03-01' THEN 'February 2026' ELSE 'March 2026' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-02-01' AND o.ordered_at < '2026-04-01' GROUP BY 1 ORDER BY min(o.ordered_at)", says: "in February 2026 and"},
		// Year to date against the same days of last year.
		{q: "year to date revenue vs last year to date", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same days last year (2025-01-01 – 2025-06-30)' ELSE 'year to date (2026-01-01 – 2026-06-30)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY min(o.ordered_at)", says: "the same days last year (2025-01-01"},
		{q: "YTD revenue", rows: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01'", cols: "revenue,revenue"},
		{q: "refunded orders year to date vs cancelled orders last year to date", refuse: "pairs a value or a measure"},
		// One day ranked.
		{q: "which day had the most orders last month", rows: "SELECT date(ordered_at), count(*) FROM orders WHERE ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		{q: "which day had the fewest orders last month", rows: "SELECT date(ordered_at), count(*) FROM orders WHERE ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01' GROUP BY 1 ORDER BY 2 LIMIT 1"},
		{q: "which day were orders placed", refuse: "which day"},
		// Periods sorted by their values.
		{q: "revenue by month in 2025 lowest first", rows: "SELECT strftime('%Y-%m-01', o.ordered_at), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 2", says: "2025-02 is lowest with"},
		{q: "revenue by month in 2025 ascending", refuse: "ascending"},
		{q: "revenue by week in 2025 lowest first", refuse: "cuts the week"},
		// Growth over one period: from the period before; refused
		// between periods of unequal length.
		{q: "how much did revenue grow last quarter", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the quarter before (Q4 2025)' ELSE 'last quarter (Q1 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-10-01' AND o.ordered_at < '2026-04-01' GROUP BY 1 ORDER BY 1 DESC", cols: "period,revenue"},
		{q: "how much did revenue grow last year", rows: "SELECT CASE WHEN o.ordered_at < '2025-01-01' THEN 'the year before (2024)' ELSE 'last year (2025)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2024-01-01' AND o.ordered_at < '2026-01-01' GROUP BY 1 ORDER BY min(o.ordered_at)"},
		{q: "revenue growth this year vs last year", refuse: "like with like"},
		{q: "revenue growth this year", refuse: "like with like"},
		{q: "revenue growth last 3 months", refuse: "change between two periods"},
		{q: "revenue growth this year vs the same period last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'the same period a year earlier (2025-01-01 to 2025-06-30)' ELSE 'this year (2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2025-07-01' OR o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY min(o.ordered_at)"},
		// Averages per entity (every row of it counted, those with none
		// as 0) and per day or month of a period that is over.
		{q: "average revenue per customer", want: "SELECT (SELECT sum(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed') / (SELECT count(*) FROM customers)"},
		{q: "mean revenue per customer", want: "SELECT (SELECT sum(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed') / (SELECT count(*) FROM customers)"},
		{q: "orders per customer on average", want: "SELECT (SELECT count(*) FROM orders) * 1.0 / (SELECT count(*) FROM customers)"},
		{q: "avg tickets per customer", want: "SELECT (SELECT count(*) FROM support_tickets) * 1.0 / (SELECT count(*) FROM customers)"},
		{q: "average units sold per product", want: "SELECT (SELECT sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed') * 1.0 / (SELECT count(*) FROM products)"},
		{q: "average orders per day last month", want: "SELECT count(*) / 31.0 FROM orders WHERE ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "average number of orders per day last month", want: "SELECT count(*) / 31.0 FROM orders WHERE ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "average revenue per month in 2025", want: "SELECT sum(i.quantity * i.unit_price * (1 - i.discount)) / 12 FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'"},
		{q: "average revenue per customer last year", refuse: "which customers are counted"},
		{q: "average web revenue per customer", refuse: "which customers are counted"},
		{q: "average revenue per employee", refuse: "cannot spread it per employee"},
		{q: "average orders per day this month", refuse: "is not over"},
		{q: "average revenue per day", refuse: "needs a period that has ended"},
		{q: "average order value per customer", refuse: "per customer"},
		{q: "revenue per customer", refuse: "or the average per customer"},
		// A list named in the plural is several rows, in the singular one.
		{q: "most recent cancelled orders", rows: "SELECT id, ordered_at FROM orders WHERE status = 'cancelled' ORDER BY ordered_at DESC LIMIT 10", cols: "id,ordered_at"},
		{q: "most recent cancelled order", rows: "SELECT id, ordered_at FROM orders WHERE status = 'cancelled' ORDER BY ordered_at DESC LIMIT 1", cols: "id,ordered_at"},
		// A role that names the one link to another table ("assignee":
		// support_tickets.assignee_id) is read as that table; unassigned
		// tickets are a row of their own (no name).
		{q: "tickets by assignee", rows: "SELECT ifnull(e.name, '<nil>'), count(*) FROM support_tickets t LEFT JOIN employees e ON e.id = t.assignee_id GROUP BY t.assignee_id", cols: "name,tickets"},
		{q: "tickets by agent last month", rows: "SELECT ifnull(e.name, '<nil>'), count(*) FROM support_tickets t LEFT JOIN employees e ON e.id = t.assignee_id WHERE t.opened_at >= '2026-05-01' AND t.opened_at < '2026-06-01' GROUP BY t.assignee_id", cols: "name,tickets"},
		{q: "which assignee has the most open tickets", rows: "SELECT e.name, count(*) FROM support_tickets t JOIN employees e ON e.id = t.assignee_id WHERE t.closed_at IS NULL GROUP BY e.id ORDER BY 2 DESC LIMIT 1"},
		{q: "revenue by assignee", refuse: "assignee"},
		// A link of a table to itself is a role of its own.
		{q: "customers by referrer", rows: "SELECT ifnull(r.name, '<nil>'), count(*) FROM customers c LEFT JOIN customers r ON r.id = c.referred_by GROUP BY c.referred_by", cols: "name,customers"},
		// A value of a kind column (a job title) in the plural names
		// rows of that kind; a category, a place or a status does not.
		{q: "how many accountants", want: "SELECT count(*) FROM employees WHERE title = 'Accountant'"},
		{q: "how many support agents", want: "SELECT count(*) FROM employees WHERE title = 'Support Agent'"},
		{q: "number of data analysts in Engineering", want: "SELECT count(*) FROM employees WHERE title = 'Data Analyst' AND department = 'Engineering'"},
		{q: "how many engineers", refuse: "engineers"},
		{q: "how many stores", refuse: "cannot count a value"},
		{q: "how many toys", refuse: "cannot count a value"},
		// A list of names sorted by a column shows that column; the
		// oldest of people is by age, which no column holds.
		{q: "5 most expensive products", rows: "SELECT name, unit_price FROM products ORDER BY unit_price DESC LIMIT 5", cols: "name,unit_price"},
		{q: "the oldest employee", refuse: "which column of employees"},
		{q: "list the 3 oldest employees", refuse: "which column of employees"},
		// "How much" answered with a count, and a total of a column of
		// shares (an outside tester: 274 refunded orders for "how much
		// did we refund"; SUM of a 0–0.5 discount rate as the discount
		// given).
		{q: "how much did we refund last quarter", refuse: "“how much” asks for an amount"},
		{q: "how many refunds last quarter", want: "SELECT count(*) FROM orders WHERE status = 'refunded' AND ordered_at >= '2026-01-01' AND ordered_at < '2026-04-01'"},
		{q: "total discount given", refuse: "a total of shares means nothing"},
		{q: "sum of discount by category", refuse: "a total of shares means nothing"},
		{q: "average discount", want: "SELECT avg(discount) FROM order_items"},
		// A period on rows picked by a state goes on the one date that
		// says when rows came to be in it ("Last day of a cancelled
		// subscription"); refused before as applied to the start date.
		{q: "how many subscriptions were cancelled this year", want: "SELECT count(*) FROM subscriptions WHERE status = 'cancelled' AND ended_on >= '2026-01-01' AND ended_on < '2026-07-01'"},
		{q: "subscriptions cancelled last month", want: "SELECT count(*) FROM subscriptions WHERE status = 'cancelled' AND ended_on >= '2026-05-01' AND ended_on < '2026-06-01'"},
		{q: "how many paused subscriptions last month", refuse: "if the period is when that happened"},
		// Rows with none of a kind and a period not said to be theirs
		// (found from outside: 0 products launched since April, where 12
		// had no sale since then).
		{q: "products with no sales since april", refuse: "cannot yet restrict to a period"},
		// The verb of the rows' own date says only that they happened.
		{q: "how many orders has Aiko Jansen placed", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = 'Aiko Jansen'"},
		{q: "how many orders did Aiko Jansen place", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = 'Aiko Jansen'"},
		{q: "cancelled subscriptions by month in 2025", rows: "SELECT strftime('%Y-%m-01', ended_on), count(*) FROM subscriptions WHERE status = 'cancelled' AND ended_on >= '2025-01-01' AND ended_on < '2026-01-01' GROUP BY 1 ORDER BY 1"},
		// "new" before a table in a period: the rows made then; not
		// before a measure of a state ("new subscribers" counted as those
		// active now) or of money ("new revenue").
		{q: "new products this year", want: "SELECT count(*) FROM products WHERE launched_on >= '2026-01-01' AND launched_on < '2026-07-01'"},
		{q: "how many new employees in 2025", want: "SELECT count(*) FROM employees WHERE hired_on >= '2025-01-01' AND hired_on < '2026-01-01'"},
		{q: "how many new web orders last month", want: "SELECT count(*) FROM orders WHERE channel = 'web' AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "how many new subscribers last month", refuse: "not understood: new"},
		{q: "new revenue last month", refuse: "not understood: new"},
		// "the month with the most orders" as "which month had the most".
		{q: "day with the most orders last week", rows: "SELECT date(ordered_at), count(*) FROM orders WHERE ordered_at >= '2026-06-22' AND ordered_at < '2026-06-29' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		{q: "what was the quarter with the lowest revenue in 2025", rows: "SELECT printf('2025-%02d-01', (cast(strftime('%m', o.ordered_at) AS int) - 1) / 3 * 3 + 1), sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 2 LIMIT 1"},
		{q: "month with the most", refuse: "what to rank by"},
		// "n't" read as "not".
		{q: "how many customers haven't placed an order", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)"},
		// "Not since March": they ordered before it (found from outside:
		// those who never ordered were counted too).
		{q: "customers who haven't ordered since March", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.ordered_at >= '2026-03-01') AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.ordered_at < '2026-03-01')"},
		// Up to today: one who ordered today has ordered in the last 90
		// days (found from outside: counted among those who had not).
		{q: "how many customers have not ordered in the last 90 days", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.ordered_at >= '2026-04-01')"},
		// Bought: a purchase completed, as "customers who bought
		// something" reads it (found from outside: the two did not add up).
		{q: "customers who have not bought anything this year", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' AND o.status = 'completed')"},
		{q: "how many customers that haven't purchased", want: "SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'completed')"},
		{q: "average revenue per order", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) / (SELECT count(*) FROM orders WHERE status = 'completed') FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed'"},
		{q: "how many customers signed up in 2025 and never ordered", want: "SELECT count(*) FROM customers c WHERE c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)"},
		{q: "average ticket resolution time", want: "SELECT avg((julianday(closed_at) - julianday(opened_at)) * 24) FROM support_tickets WHERE closed_at IS NOT NULL"},
		{q: "average subscription length", want: "SELECT avg(julianday(ended_on) - julianday(started_on)) FROM subscriptions WHERE ended_on IS NOT NULL"},
		{q: "which customers ordered the most last year", rows: "SELECT c.name, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY c.id ORDER BY 2 DESC LIMIT 5", cols: "name,orders"},
		// A date of rows that belong to the subject's, named as what they
		// did, in a period: those with such a row then. Not through a
		// role (an employee is a ticket's assignee, not its opener).
		{q: "how many customers ordered last month", want: "SELECT count(DISTINCT customer_id) FROM orders WHERE ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "how many customers opened a ticket last month", want: "SELECT count(DISTINCT customer_id) FROM support_tickets WHERE opened_at >= '2026-05-01' AND opened_at < '2026-06-01'"},
		{q: "how many employees opened a ticket last month", refuse: "not a single related row"},
		// A third tester: a value of the same table read apart from the
		// period (499 customers "ordered with FREESHIP last month"; 57
		// did), "new" dropped beside the verb, and "all of last year" read
		// as the same month. The value now holds on the same row as the
		// period (a fourth tester: "guests who rented a snowboard this
		// year" refused).
		{q: "how many customers ordered with FREESHIP last month", want: "SELECT count(DISTINCT customer_id) FROM orders WHERE discount_code = 'FREESHIP' AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "how many customers ordered on the web last month", want: "SELECT count(DISTINCT customer_id) FROM orders WHERE channel = 'web' AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "how many customers opened billing tickets last month", want: "SELECT count(DISTINCT customer_id) FROM support_tickets WHERE category = 'Billing' AND opened_at >= '2026-05-01' AND opened_at < '2026-06-01'"},
		{q: "how many new customers ordered last month", refuse: "not a single related row"},
		{q: "revenue this month compared to all of last year", rows: "SELECT CASE WHEN o.ordered_at < '2026-01-01' THEN 'last year (2025)' ELSE 'this month (June 2026)' END, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' OR o.ordered_at >= '2026-06-01' AND o.ordered_at < '2026-07-01') GROUP BY 1 ORDER BY min(o.ordered_at)"},
		{q: "orders ytd vs all of last year", rows: "SELECT CASE WHEN ordered_at < '2026-01-01' THEN 'last year (2025)' ELSE 'year to date (2026-01-01 – 2026-06-30)' END, count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-07-01' GROUP BY 1 ORDER BY min(ordered_at)"},
		// A noun after a verb that changes data is not an order to change it.
		{q: "refund amount last quarter", refuse: "not understood: amount"},
		{q: "please refund the amount of order 42", refuse: "asks to change data"},
		// How often: a verb of the orders' date and a number of times.
		{q: "how many customers ordered more than once this year", want: "SELECT count(*) FROM (SELECT customer_id FROM orders WHERE ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01' GROUP BY customer_id HAVING count(*) > 1)"},
		{q: "how many customers ordered at least twice in 2025", want: "SELECT count(*) FROM (SELECT customer_id FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY customer_id HAVING count(*) >= 2)"},
		{q: "how many customers ordered only once", want: "SELECT count(*) FROM (SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) = 1)", says: "exactly 1 order"},
		{q: "how many customers have exactly 1 refunded order", want: "SELECT count(*) FROM (SELECT customer_id FROM orders WHERE status = 'refunded' GROUP BY customer_id HAVING count(*) = 1)"},
		// A period on the date of the rows a measure is made by.
		{q: "revenue from customers who signed up in 2025", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01'", says: "from customers with signup date in 2025"},
		{q: "how many orders were placed by customers who joined this year", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.signup_date >= '2026-01-01' AND c.signup_date < '2026-07-01'"},
		{q: "revenue last year from customers who joined this year", refuse: "compares two periods"},
		{q: "revenue in 2025 from customers who signed up in 2024", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.signup_date >= '2024-01-01' AND c.signup_date < '2025-01-01' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'", says: "in 2025, from customers with signup date in 2024"},
		{q: "revenue in 2026 from products launched in 2025", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id WHERE o.status = 'completed' AND p.launched_on >= '2025-01-01' AND p.launched_on < '2026-01-01' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01'"},
		{q: "how many tickets closed in May were opened in April", want: "SELECT count(*) FROM support_tickets WHERE closed_at >= '2026-05-01' AND closed_at < '2026-06-01' AND opened_at >= '2026-04-01' AND opened_at < '2026-05-01'"},
		// "people" in lower case: the persons of the one table of
		// persons the other words name, never the People department.
		{q: "how many people did we hire in 2025", want: "SELECT count(*) FROM employees WHERE hired_on >= '2025-01-01' AND hired_on < '2026-01-01'"},
		{q: "how many people work in engineering", want: "SELECT count(*) FROM employees WHERE department = 'Engineering'"},
		{q: "how many people signed up last month", want: "SELECT count(*) FROM customers WHERE signup_date >= '2026-05-01' AND signup_date < '2026-06-01'"},
		{q: "how many people live in Germany", want: "SELECT count(*) FROM customers WHERE country = 'Germany'"},
		{q: "how many customers are newer than 30 days", want: "SELECT count(*) FROM customers WHERE signup_date >= '2026-06-01'"},
		{q: "signups newer than 2 weeks", want: "SELECT count(*) FROM customers WHERE signup_date >= '2026-06-17'"},
		// Found from outside: the days of the week went on the customers'
		// signup date, or were dropped from a list.
		{q: "revenue on weekends from customers who signed up in 2025", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01' AND strftime('%w', o.ordered_at) IN ('0', '6')"},
		{q: "how many sessions on weekends from customers who signed up in 2025", want: "SELECT count(*) FROM web_sessions w JOIN customers c ON c.id = w.customer_id WHERE c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01' AND strftime('%w', w.started_at) IN ('0', '6')"},
		{q: "orders on weekends from customers who signed up this year", rows: "SELECT o.id, o.ordered_at FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.signup_date >= '2026-01-01' AND c.signup_date < '2026-07-01' AND strftime('%w', o.ordered_at) IN ('0', '6') ORDER BY o.id", cols: "id,ordered_at"},
		{q: "tickets closed on weekends in 2025", rows: "SELECT id, closed_at FROM support_tickets WHERE closed_at >= '2025-01-01' AND closed_at < '2026-01-01' AND strftime('%w', closed_at) IN ('0', '6') ORDER BY id", cols: "id,closed_at"},
		{q: "customers who ordered more than once on weekends in 2025", refuse: "the days of the week would"},
		// Found from outside: "not X" dropped the rows with no value.
		{q: "orders didn't use WELCOME10 this year", want: "SELECT count(*) FROM orders WHERE (discount_code IS NULL OR discount_code <> 'WELCOME10') AND ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		{q: "orders not using FREESHIP last month", want: "SELECT count(*) FROM orders WHERE (discount_code IS NULL OR discount_code <> 'FREESHIP') AND ordered_at >= '2026-05-01' AND ordered_at < '2026-06-01'"},
		{q: "revenue excluding VIP20 this year", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND (o.discount_code IS NULL OR o.discount_code <> 'VIP20') AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01'"},
		// "at the end of a period": how many there were by then (found
		// from outside: the subscriptions that ended in 2025); a state
		// (MRR is now's) is refused.
		{q: "how many customers did we have at the end of 2025", want: "SELECT count(*) FROM customers WHERE signup_date < '2026-01-01'", says: "by the end of 2025"},
		{q: "how many products at the end of 2024", want: "SELECT count(*) FROM products WHERE launched_on < '2025-01-01'"},
		{q: "MRR at the end of last year", refuse: "in that state now"},
		// Bought is a purchase completed, as "bought something" reads.
		{q: "how many customers bought more than once", want: "SELECT count(*) FROM (SELECT customer_id FROM orders WHERE status = 'completed' GROUP BY customer_id HAVING count(*) > 1)"},
		{q: "customers newer than thirty days", want: "SELECT count(*) FROM customers WHERE signup_date >= '2026-06-01'"},
		// Two values compared with words after each (found from outside).
		{q: "revenue from business customers vs consumers this year", rows: "SELECT c.segment, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-01-01' AND o.ordered_at < '2026-07-01' GROUP BY c.segment ORDER BY 1"},
		{q: "average satisfaction for urgent tickets vs low", rows: "SELECT priority, avg(satisfaction) FROM support_tickets WHERE priority IN ('urgent', 'low') GROUP BY priority ORDER BY 1"},
		{q: "how many orders on weekends by customers who signed up in 2025", want: "SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.signup_date >= '2025-01-01' AND c.signup_date < '2026-01-01' AND strftime('%w', o.ordered_at) IN ('0', '6')"},
		{q: "revenue on weekend days from customers who ordered only once", refuse: "would also cut the measure"},
		{q: "which discount code was used most in 2025", rows: "SELECT discount_code, count(*) FROM orders WHERE discount_code IS NOT NULL AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"},
		// A negated event's date is not set, as "are closed" is that it is.
		{q: "how many tickets are not closed", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL", says: "not closed"},
		{q: "how many high priority tickets aren't closed yet", want: "SELECT count(*) FROM support_tickets WHERE closed_at IS NULL AND priority = 'high'"},
		{q: "how many tickets weren't closed in 2025", refuse: "not closed"},
		// "<value> rate": the share of rows with the value (found from
		// outside: "rate" was read as a column named hourly_rate).
		{q: "urgent rate of tickets last month", want: "SELECT 1.0 * sum(priority = 'urgent') / count(*) FROM support_tickets WHERE opened_at >= '2026-05-01' AND opened_at < '2026-06-01'"},
		{q: "what is the web rate of orders", want: "SELECT 1.0 * sum(channel = 'web') / count(*) FROM orders"},
		// Found by the second attacker of this stop.
		{q: "share of orders that did not use WELCOME10 this year", want: "SELECT 1.0 * sum(discount_code IS NULL OR discount_code <> 'WELCOME10') / count(*) FROM orders WHERE ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		{q: "orders with a coupon other than WELCOME10 this year", want: "SELECT count(*) FROM orders WHERE discount_code IS NOT NULL AND discount_code <> 'WELCOME10' AND ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		{q: "people not in the People department", refuse: "cannot all hold"},
		{q: "orders by month from customers who joined this year", rows: "SELECT strftime('%Y-%m-01', o.ordered_at), count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.signup_date >= '2026-01-01' AND c.signup_date < '2026-07-01' GROUP BY 1 ORDER BY 1"},
		{q: "top 3 discount codes by orders excluding WELCOME10", rows: "SELECT discount_code, count(*) FROM orders WHERE discount_code <> 'WELCOME10' GROUP BY 1 ORDER BY 2 DESC LIMIT 3"},
		{q: "how many products were not discontinued at the end of 2025", refuse: "no history of discontinued"},
		{q: "how many customers who signed up in 2024 ordered exactly 3 times in 2025", want: "SELECT count(*) FROM customers c WHERE c.signup_date >= '2024-01-01' AND c.signup_date < '2025-01-01' AND (SELECT count(*) FROM orders o WHERE o.customer_id = c.id AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01') = 3", says: "signup date in 2024"},
		{q: "median salary", refuse: "column policy restricts"},
		{q: "sales the month before last", want: "SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed' AND o.ordered_at >= '2026-04-01' AND o.ordered_at < '2026-05-01'"},
		{q: "orders since the beginning of the year", want: "SELECT count(*) FROM orders WHERE ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		{q: "orders this year but not refunded", want: "SELECT count(*) FROM orders WHERE status <> 'refunded' AND ordered_at >= '2026-01-01' AND ordered_at < '2026-07-01'"},
		// "plus" with nothing to join before it is the Plus plan (found
		// from outside: read as "and" and dropped, 1,159 at 1.00).
		{q: "how many plus subscribers do we have", want: "SELECT count(DISTINCT s.customer_id) FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.status = 'active' AND p.name = 'Plus'"},
		{q: "revenue plus orders", rows: "SELECT (SELECT sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id WHERE o.status = 'completed'), (SELECT count(*) FROM orders)"},
		{q: "how many employees were hired before 2024", want: "SELECT count(*) FROM employees WHERE hired_on < '2024-01-01'"},
		{q: "the 3 most recent refunded orders", rows: "SELECT id, ordered_at FROM orders WHERE status = 'refunded' ORDER BY ordered_at DESC LIMIT 3", cols: "id,ordered_at"},
		// Pieces of text (found on Spider: "contains", "starts with",
		// "the letter w in their description" were not understood).
		{q: "how many customers have 'son' in their name", want: "SELECT count(*) FROM customers WHERE instr(lower(name), 'son') > 0", says: "contains 'son'"},
		{q: "how many products start with 'Orbitek'", want: "SELECT count(*) FROM products WHERE substr(name, 1, 7) = 'Orbitek'", says: "the column that names products"},
		{q: "revenue by country from customers whose city ends with 'burg'", rows: "SELECT c.country, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE o.status = 'completed' AND c.city LIKE '%burg' GROUP BY c.country", cols: "country,revenue"},
		{q: "customers whose email contains 'example'", refuse: "column policy restricts"},
		{q: "customers whose name does not contain 'a'", refuse: "negated text pattern"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			t.Parallel()
			out := askAt(t, demo, "2026-06-30", tt.q)
			if tt.rows != "" {
				mu.Lock()
				defer mu.Unlock()
				st, _, err := db.Prepare(tt.rows)
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				var want, got []string
				// Fractions are compared to six decimals: the two sides
				// compute them in different orders.
				norm := func(s string) string {
					if f, err := strconv.ParseFloat(s, 64); err == nil && strings.Contains(s, ".") {
						return strconv.FormatFloat(f, 'f', 6, 64)
					}
					return s
				}
				for st.Step() {
					want = append(want, norm(st.ColumnText(0))+"|"+norm(st.ColumnText(1)))
				}
				a, b := 0, 1
				if tt.cols != "" {
					a, b = -1, -1
					names := strings.Split(tt.cols, ",")
					for i, c := range out.Columns {
						if c.Name == names[0] {
							a = i
						}
						if c.Name == names[1] {
							b = i
						}
					}
					if a < 0 || b < 0 {
						t.Fatalf("the result has columns %v, want %s", out.Columns, tt.cols)
					}
					slices.Sort(want)
				}
				for _, r := range out.Rows {
					got = append(got, norm(fmt.Sprint(r[a]))+"|"+norm(fmt.Sprint(r[b])))
				}
				if tt.cols != "" {
					slices.Sort(got)
				}
				if out.Status != "succeeded" || strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("status %s, SQL %s\nrows %v\nwant %v", out.Status, out.SQL, got, want)
				}
				if !strings.Contains(out.Answer, tt.says) {
					t.Errorf("answer %q; want it to say %q", out.Answer, tt.says)
				}
				return
			}
			if tt.want == "" {
				if out.Status != "unanswered" && out.Status != "clarify" && out.Status != "rejected" || !strings.Contains(out.Message, tt.refuse) {
					t.Errorf("status %s, message %q, SQL %s; want a refusal saying %q", out.Status, out.Message, out.SQL, tt.refuse)
				}
				return
			}
			want := scalar(t, tt.want)
			if out.Status != "succeeded" || len(out.Rows) != 1 || len(out.Rows[0]) != 1 || !sameFigure(fmt.Sprint(out.Rows[0][0]), want) {
				t.Errorf("status %s, rows %v, SQL %s; want the one figure %s", out.Status, out.Rows, out.SQL, want)
			}
		})
	}
}

// sameFigure compares a figure of the answer with an independent query's:
// equal as written, or as numbers to nine significant digits (the two
// sides add in different orders and print fractions differently).
func sameFigure(got, want string) bool {
	if got == want {
		return true
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Abs(g-w) <= 1e-9*math.Max(1, math.Abs(w))
}
