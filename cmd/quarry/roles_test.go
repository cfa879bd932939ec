package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRoleLinks: a table with two links to the same table (shipments'
// origin and destination warehouse) answers by either link, each joined
// through its own key, on a database quarry has not seen; the table's
// name alone is asked back in the links' words, and a restricted column
// of the table stays refused through either link.
func TestRoleLinks(t *testing.T) {
	var b strings.Builder
	b.WriteString(`CREATE TABLE warehouses (warehouse_id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, manager_phone TEXT);
INSERT INTO warehouses VALUES (1, 'Northgate', 'Chicago', '555-1'), (2, 'Old Mill', 'Chicago', '555-2'), (3, 'Rhine', 'Rotterdam', '555-3'), (4, 'Harbor', 'Oakland', '555-4');
CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, origin_warehouse_id INTEGER NOT NULL REFERENCES warehouses(warehouse_id),
  destination_warehouse_id INTEGER REFERENCES warehouses(warehouse_id), shipped_at TEXT, weight_kg REAL);
`)
	for s := 1; s <= 60; s++ {
		// Origins skew to warehouse 1, destinations to 3 and 4; every
		// tenth has no destination.
		o, d := s%4+1, "NULL"
		if s%3 == 0 {
			o = 1
		}
		if s%10 != 0 {
			d = fmt.Sprint((s+1)%4 + 1)
		}
		fmt.Fprintf(&b, "INSERT INTO shipments VALUES (%d, %d, %s, '2025-%02d-10', %d.5);\n", s, o, d, s%12+1, s%9+1)
	}
	dir, query := learnedDB(t, "logistics.db", b.String(), "restricted:\n  - column: warehouses.manager_phone\n    reason: personal\n")
	rows := func(sql string) []string {
		out := query(sql)
		slices.Sort(out)
		return out
	}
	for _, tt := range []struct {
		q, want string // want: an independent query for every row, in any order
		link    string // the link the reading must name
		clarify []string
		refuse  bool
	}{
		{q: "shipments by origin warehouse city", want: "SELECT w.city, count(*) FROM shipments s JOIN warehouses w ON w.warehouse_id = s.origin_warehouse_id GROUP BY w.city", link: "shipments.origin_warehouse_id"},
		{q: "shipments by destination warehouse city", want: "SELECT w.city, count(*) FROM shipments s LEFT JOIN warehouses w ON w.warehouse_id = s.destination_warehouse_id GROUP BY w.city", link: "shipments.destination_warehouse_id"},
		{q: "total weight by origin warehouse", want: "SELECT w.name, printf('%g', sum(s.weight_kg)) FROM shipments s JOIN warehouses w ON w.warehouse_id = s.origin_warehouse_id GROUP BY w.warehouse_id", link: "shipments.origin_warehouse_id"},
		{q: "shipments by origin warehouse city and destination warehouse city", want: "SELECT o.city, d.city, count(*) FROM shipments s JOIN warehouses o ON o.warehouse_id = s.origin_warehouse_id LEFT JOIN warehouses d ON d.warehouse_id = s.destination_warehouse_id GROUP BY o.city, d.city", link: "shipments.destination_warehouse_id"},
		{q: "which warehouse shipped the most shipments", clarify: []string{"destination warehouse", "origin warehouse"}},
		// "From" says where shipments come from: the origin.
		{q: "how many shipments from Chicago", want: "SELECT count(*) FROM shipments s JOIN warehouses w ON w.warehouse_id = s.origin_warehouse_id WHERE w.city = 'Chicago'", link: "shipments.origin_warehouse_id"},
		{q: "shipments in Chicago", clarify: []string{"destination warehouse", "origin warehouse"}},
		{q: "how many origin warehouses", refuse: true},
		{q: "shipments by origin warehouse manager phone", refuse: true},
		{q: "list shipments with their destination warehouse manager phone", refuse: true},
	} {
		t.Run(tt.q, func(t *testing.T) {
			out := askAt(t, dir, "2025-12-31", tt.q)
			if strings.Contains(out.Answer+out.Message+fmt.Sprint(out.Rows), "555-") {
				t.Fatalf("a restricted value reached the answer: %+v", out)
			}
			if tt.want == "" {
				if out.Status == "succeeded" {
					t.Fatalf("answered %v with %s; want a refusal or a question", out.Rows, out.SQL)
				}
				for _, o := range tt.clarify {
					if !strings.Contains(out.Message, o) || strings.Contains(out.Message, " = warehouses.") {
						t.Errorf("message %q; want the options %q in words", out.Message, tt.clarify)
					}
				}
				return
			}
			var got []string
			for _, row := range out.Rows {
				var cells []string
				for _, c := range row {
					if c == nil {
						c = ""
					}
					cells = append(cells, fmt.Sprint(c))
				}
				got = append(got, strings.Join(cells, "|"))
			}
			slices.Sort(got)
			if want := rows(tt.want); out.Status != "succeeded" || strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("status %s %q\nSQL %s\nrows %v\nwant %v", out.Status, out.Message, out.SQL, got, want)
			}
			// The reading ("Read as") names the link it went through.
			if !strings.Contains(out.Interpretation.Text, "reached through "+tt.link) {
				t.Errorf("the reading %q does not say it went through %s", out.Interpretation.Text, tt.link)
			}
		})
	}
}
