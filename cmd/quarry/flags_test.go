package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLearnedFlags asks a database known by learn alone about its yes/no
// columns, which an outside tester found counted by their distinct values
// at confidence 1.00 ("how many active employees": COUNT(DISTINCT
// is_active), 2) or refused ("inactive", "unresolved" not understood): a
// flag's word used as an adjective or a state of the rows is a condition,
// and the reading states it. A 0/1 quantity is no flag, and a text state
// keeps its value. Each answer must hold the rows an independent query
// gives.
func TestLearnedFlags(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE departments (dept_id INTEGER PRIMARY KEY, dept_name TEXT);
INSERT INTO departments VALUES (1, 'Sales'), (2, 'Engineering'), (3, 'Finance');
CREATE TABLE employees (emp_id INTEGER PRIMARY KEY, full_name TEXT, dept_id INTEGER REFERENCES departments(dept_id), is_active INTEGER);
CREATE TABLE warehouses (warehouse_id INTEGER PRIMARY KEY, warehouse_name TEXT, is_active INTEGER);
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, warehouse_id INTEGER REFERENCES warehouses(warehouse_id), weight_kg REAL);
CREATE TABLE delivery_exceptions (exception_id INTEGER PRIMARY KEY, shipment_id INTEGER REFERENCES shipments(shipment_id), resolved INTEGER);
CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, amount REAL, refunded INTEGER);
CREATE TABLE order_lines (line_id INTEGER PRIMARY KEY, quantity INTEGER, status TEXT);
`)
	for e := 1; e <= 60; e++ {
		active := fmt.Sprint(1 - e%4/3) // a quarter inactive
		if e%17 == 0 {
			active = "NULL"
		}
		fmt.Fprintf(&b, "INSERT INTO employees VALUES (%d, 'Employee %d', %d, %s);\n", e, e, e%3+1, active)
	}
	for w := 1; w <= 8; w++ {
		fmt.Fprintf(&b, "INSERT INTO warehouses VALUES (%d, 'Warehouse %d', %d);\n", w, w, 1-w%3/2)
	}
	for s := 1; s <= 120; s++ {
		fmt.Fprintf(&b, "INSERT INTO shipments VALUES (%d, %d, %d.5);\n", s, s%8+1, s%40)
		if s%4 == 0 {
			fmt.Fprintf(&b, "INSERT INTO delivery_exceptions VALUES (%d, %d, %d);\n", s, s, s%3%2)
		}
	}
	for p := 1; p <= 90; p++ {
		fmt.Fprintf(&b, "INSERT INTO payments VALUES (%d, %d.25, %d);\n", p, p%50+5, p%7/6)
		fmt.Fprintf(&b, "INSERT INTO order_lines VALUES (%d, %d, '%s');\n", p, p%2, []string{"active", "closed"}[p%3/2])
	}
	dir, rows := learnedDB(t, "flags.db", b.String(), "")
	for _, tt := range []struct {
		q      string
		want   string // an independent query for every row, in any order
		reads  string // in the reading
		refuse bool
	}{
		{q: "how many active employees", want: "SELECT count(*) FROM employees WHERE is_active = 1", reads: "employees.is_active = 1"},
		{q: "how many inactive employees", want: "SELECT count(*) FROM employees WHERE is_active = 0", reads: "employees.is_active = 0"},
		{q: "how many employees are not active", want: "SELECT count(*) FROM employees WHERE is_active = 0", reads: "employees.is_active = 0"},
		{q: "how many employees", want: "SELECT count(*) FROM employees"},
		{q: "active employees by department", want: "SELECT d.dept_name, count(*) FROM employees e JOIN departments d ON d.dept_id = e.dept_id WHERE e.is_active = 1 GROUP BY d.dept_id"},
		{q: "how many active warehouses", want: "SELECT count(*) FROM warehouses WHERE is_active = 1"},
		{q: "how many shipments from inactive warehouses", want: "SELECT count(*) FROM shipments s JOIN warehouses w ON w.warehouse_id = s.warehouse_id WHERE w.is_active = 0"},
		{q: "how many refunded payments", want: "SELECT count(*) FROM payments WHERE refunded = 1", reads: "payments.refunded = 1"},
		{q: "how many exceptions are unresolved", want: "SELECT count(*) FROM delivery_exceptions WHERE resolved = 0", reads: "delivery_exceptions.resolved = 0"},
		{q: "how many unresolved exceptions", want: "SELECT count(*) FROM delivery_exceptions WHERE resolved = 0"},
		{q: "how many resolved exceptions", want: "SELECT count(*) FROM delivery_exceptions WHERE resolved = 1"},
		// A text state keeps its value; a 0/1 quantity is a number.
		{q: "how many active order lines", want: "SELECT count(*) FROM order_lines WHERE status = 'active'"},
		{q: "total quantity of order lines", want: "SELECT sum(quantity) FROM order_lines"},
		{q: "how many inactive order lines", refuse: true},
	} {
		t.Run(tt.q, func(t *testing.T) {
			out := askAt(t, dir, "2025-12-31", tt.q)
			if tt.refuse {
				if out.Status == "succeeded" {
					t.Errorf("answered %s: %v; want a refusal", out.SQL, out.Rows)
				}
				return
			}
			got := out.rowStrings()
			want := rows(tt.want)
			slices.Sort(got)
			slices.Sort(want)
			if out.Status != "succeeded" || strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("status %s %q\nSQL %s\nrows %v\nwant %v", out.Status, out.Message, out.SQL, got, want)
			}
			if strings.Contains(out.SQL, "DISTINCT") {
				t.Errorf("counts distinct values: %s", out.SQL)
			}
			if tt.reads != "" && !strings.Contains(strings.Join(out.Understood, "; "), tt.reads) {
				t.Errorf("reading %q does not state %q", out.Understood, tt.reads)
			}
		})
	}
}
