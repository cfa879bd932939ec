package analyst

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestNoneEmptyIsAnAnswer: an empty list of rows that must have none of
// something ("which products have never been ordered") passes the
// empty_result check where a control query finds the rows without that
// condition: every one has some (found from outside: the empty list,
// right, shown at 0.40). An empty list of rows no row is there for still
// fails.
func TestNoneEmptyIsAnAnswer(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), qty INTEGER);
INSERT INTO products VALUES (1, 'Tea', 'drinks'), (2, 'Cake', 'food');
INSERT INTO order_items (product_id, qty) VALUES (1, 2), (2, 1);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "products", Table: "products", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "category", Type: quarry.TypeText, Values: []string{"drinks", "food", "merch"}}}},
			{Name: "order_items", Table: "order_items", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "product_id", Type: quarry.TypeInt}, {Name: "qty", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "order_items", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, pass := range map[string]bool{
		"which products have no order items":       true,
		"which merch products have no order items": false, // no merch at all
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) != 0 {
			t.Fatalf("%q: %v %s %v", q, err, out.Status, out.Table)
		}
		var empty verify.Check
		for _, c := range out.Report.Checks {
			if c.Name == verify.CheckEmpty {
				empty = c
			}
		}
		if (empty.Status == verify.Pass) != pass || pass && !strings.Contains(empty.Detail, "every one has some") {
			t.Errorf("%q: empty_result %s %q; want passed %v", q, empty.Status, empty.Detail, pass)
		}
	}
}
