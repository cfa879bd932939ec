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
)

// TestOwnDateBound: a period on another table's date says which rows are
// counted, not by when; the measured rows are still kept to the as-of
// day by their own date (found from outside: "revenue from customers who
// signed up in 2025" as of 2026-06-30 added up the orders placed after
// it, 36% too much at 1.00, and six answers like it).
func TestOwnDateBound(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE customers (id INTEGER PRIMARY KEY, signup_date DATE);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), ordered_at DATE, amount REAL);
INSERT INTO customers VALUES (1, '2025-03-01'), (2, '2025-11-15'), (3, '2026-02-01');
INSERT INTO orders (customer_id, ordered_at, amount) VALUES (1, '2025-04-01', 10), (1, '2026-06-01', 20), (2, '2025-12-01', 40),
 (2, '2026-06-15', 80), (3, '2026-03-01', 160), (1, '2026-07-03', 320);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Table: "customers", PrimaryKey: "id", TimeColumn: "signup_date", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "signup_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart, Synonyms: []string{"signed up", "joined"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "customer_id", Type: quarry.TypeInt}, {Name: "ordered_at", Type: quarry.TypeDate}, {Name: "amount", Type: quarry.TypeFloat}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "revenue", Entity: "orders", Expr: "SUM(orders.amount)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	ask := func(q string, asOf time.Time) *AskOutcome {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Fatalf("%q: %v (%s)", q, err, out.Status)
		}
		return out
	}
	may, today := time.Date(2026, 5, 31, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		asOf time.Time
		want any
	}{
		// As of an earlier day: the orders placed after it had not been.
		{"revenue from customers who signed up in 2025", may, 50.0},
		{"how many orders from customers who signed up in 2025", may, int64(2)},
		// As of today: not the order dated ahead.
		{"revenue from customers who signed up in 2025", today, 150.0},
		// The period on the rows' own date is theirs alone.
		{"how many customers signed up in 2025", may, int64(2)},
		{"revenue in 2026", today, 260.0},
	} {
		out := ask(tt.q, tt.asOf)
		if got := out.Table.Rows[0][0]; got != tt.want {
			t.Errorf("%q as of %s: %v, want %v (%q)", tt.q, tt.asOf.Format("2006-01-02"), got, tt.want, out.Plan.Notes)
		}
	}
	// Listed as of today, the order dated ahead shows its date.
	if out := ask("orders from customers who signed up in 2025", today); len(out.Table.Rows) != 5 {
		t.Errorf("orders listed as of today: %d rows, want 5", len(out.Table.Rows))
	}
	if out := ask("orders from customers who signed up in 2025", may); len(out.Table.Rows) != 5 || strings.Contains(strings.Join(out.Plan.Notes, " "), "left out") {
		t.Errorf("orders listed as of May, with one dated after today: %d rows %q", len(out.Table.Rows), out.Plan.Notes)
	}
}

// TestGoneBefore: rows picked by what they have none of in a period leave
// out those a date of their own let go before it began (found from
// outside: "trainers with no class sessions this month" listed four who
// had left, 7 for 3, at 1.00).
func TestGoneBefore(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE trainers (id INTEGER PRIMARY KEY, full_name TEXT, hired_on DATE, left_on DATE);
CREATE TABLE class_sessions (id INTEGER PRIMARY KEY, trainer_id INTEGER REFERENCES trainers(id), starts_at DATE);
INSERT INTO trainers VALUES (1, 'Ann', '2020-01-01', NULL), (2, 'Bob', '2020-01-01', '2024-05-01'), (3, 'Cid', '2020-01-01', '2026-06-10'), (4, 'Dee', '2020-01-01', NULL);
INSERT INTO class_sessions (trainer_id, starts_at) VALUES (1, '2026-06-02'), (2, '2024-04-01');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "trainers", Table: "trainers", PrimaryKey: "id", Label: "full_name", TimeColumn: "hired_on", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText},
				{Name: "hired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "left_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "class_sessions", Table: "class_sessions", PrimaryKey: "id", TimeColumn: "starts_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "trainer_id", Type: quarry.TypeInt}, {Name: "starts_at", Type: quarry.TypeDate}}},
		},
		Relationships: []semantic.Relationship{{From: "class_sessions", FromColumn: "trainer_id", To: "trainers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "trainers with no class sessions this month", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil {
		t.Fatalf("%v (%s)", err, out.Status)
	}
	var names []string
	for _, r := range out.Table.Rows {
		names = append(names, r[0].(string))
	}
	if strings.Join(names, ",") != "Cid,Dee" {
		t.Errorf("trainers with no class sessions in June: %v, want Cid (left in June) and Dee, not Bob (left in 2024)", names)
	}
	// Nor those who began after the period (found from outside: members
	// who joined in June counted among May's idle, 165 for 158): as of
	// June 30, Eve, hired in June, had no sessions in May, nor could.
	b := sqliteAnalyst(t, `CREATE TABLE trainers (id INTEGER PRIMARY KEY, full_name TEXT, hired_on DATE, left_on DATE);
CREATE TABLE class_sessions (id INTEGER PRIMARY KEY, trainer_id INTEGER REFERENCES trainers(id), starts_at DATE);
INSERT INTO trainers VALUES (1, 'Ann', '2020-01-01', NULL), (4, 'Dee', '2020-01-01', NULL), (5, 'Eve', '2026-06-03', NULL);
INSERT INTO class_sessions (trainer_id, starts_at) VALUES (1, '2026-05-02'), (5, '2026-06-20');`)
	out, err = b.Ask(context.Background(), event.NewRecorder("r2", b.Clock, &memSink{}), k, "trainers with no class sessions last month", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil {
		t.Fatalf("%v (%s)", err, out.Status)
	}
	names = nil
	for _, r := range out.Table.Rows {
		names = append(names, r[0].(string))
	}
	if strings.Join(names, ",") != "Dee" {
		t.Errorf("trainers with no class sessions in May: %v, want Dee, not Eve (hired in June)", names)
	}
}
