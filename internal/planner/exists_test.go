package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestExistsValues: a value of a table with many rows per row of the
// subject keeps the subject's rows that have such a row — directly or
// through the table that links the two — with "or" as any of the values,
// "both … and" as each of them, and a negation as having none.
func TestExistsValues(t *testing.T) {
	p := New(testModel(), nil)
	some := func(ent string, op semantic.Op, field string, vals ...any) semantic.Filter {
		o := semantic.OpEq
		if len(vals) > 1 {
			o = semantic.OpIn
		}
		return semantic.Filter{Field: ent, Op: op, Where: []semantic.Filter{{Field: field, Op: o, Values: vals}}}
	}
	for _, tc := range []struct {
		q       string
		filters []semantic.Filter // nil: not answered
	}{
		{"customers with a refunded order", []semantic.Filter{some("orders", semantic.OpSome, "orders.status", "refunded")}},
		{"customers with web or store orders", []semantic.Filter{some("orders", semantic.OpSome, "channel", "web", "store")}},
		{"customers with both refunded and cancelled orders", []semantic.Filter{
			some("orders", semantic.OpSome, "orders.status", "refunded"), some("orders", semantic.OpSome, "orders.status", "cancelled")}},
		{"how many orders contain Electronics products", []semantic.Filter{some("products", semantic.OpSome, "category", "Electronics")}},
		{"customers who do not have a refunded order", []semantic.Filter{some("orders", semantic.OpNone, "orders.status", "refunded")}},
		// Revenue is measured over order items: a customer's other
		// orders would be summed too. Not read as "has a row".
		{"revenue of customers with a refunded order", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.filters == nil {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					for _, f := range pl.Query.Filters {
						if len(f.Where) > 0 {
							t.Fatalf("answered with %+v; want no exists filter", pl.Query.Filters)
						}
					}
				}
				return
			}
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}

// TestRelatedMeasures: a measure that counts one table's rows meeting
// conditions, named after "with" or "have", is rows of that table the
// subject's rows must have (or, after "no", lack, or have so many of),
// with the measure's conditions on those rows.
func TestRelatedMeasures(t *testing.T) {
	p := New(testModel(), nil)
	completed := []semantic.Filter{{Field: "orders.status", Op: semantic.OpEq, Values: []any{"completed"}}}
	for _, tc := range []struct {
		q    string
		want []semantic.Filter
	}{
		{"customers with a completed order", []semantic.Filter{{Field: "orders", Op: semantic.OpSome, Where: completed}}},
		{"how many customers have a completed order", []semantic.Filter{{Field: "orders", Op: semantic.OpSome, Where: completed}}},
		{"how many customers have no completed orders", []semantic.Filter{{Field: "orders", Op: semantic.OpNone, Where: completed}}},
		{"how many customers have more than 2 completed orders", []semantic.Filter{{Field: "orders", Op: semantic.OpGt, Values: []any{fmtNum(2)}, Count: true, Where: completed}}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.want, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
	// The measure asked for itself, not as a condition: unchanged.
	if pl := p.Plan("completed orders by customer", asOf); pl.Kind != KindMetric || len(pl.Query.Filters) != 0 {
		t.Errorf("completed orders by customer: %s %+v", pl.Kind, pl.Query)
	}
}

// TestEventVerb: the verb of an event's date before a value ("students
// enrolled in Biology") or between two tables ("which customer placed the
// most orders") says the rows happened: it is not listed, grouped or
// filtered; alone ("how many companies opened") it is not read past.
func TestEventVerb(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("which customer ordered the most orders", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Dimensions) == 0 || pl.Query.TimeRange != nil {
		t.Errorf("which customer ordered the most orders: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("list customers who ordered on mobile devices", asOf)
	if pl.Kind == KindRows {
		for _, c := range pl.Query.Rows.Columns {
			if c == "orders.ordered_at" || c == "ordered_at" {
				t.Errorf("the verb was listed as a column: %+v", pl.Query.Rows)
			}
		}
	}
}

// TestEmptyColumn: "no"/"without" before a column of the rows asked
// about keeps the rows where it is empty.
func TestEmptyColumn(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("how many orders have no discount code", asOf)
	want := []semantic.Filter{{Field: "orders.discount_code", Op: semantic.OpNull}}
	if pl.Kind != KindMetric || !cmp.Equal(want, pl.Query.Filters) {
		t.Errorf("%s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl.Title != "Orders (no discount code)" {
		t.Errorf("title %q", pl.Title)
	}
}

// TestEventSet: "are closed", "were shipped" without a period ask for the
// rows whose event date is set; with a period the date is the period's.
func TestEventSet(t *testing.T) {
	m := formsModel()
	p := New(m, nil)
	pl := p.Plan("how many companies are opened", asOf)
	want := []semantic.Filter{{Field: "company.opened_at", Op: semantic.OpNotNull}}
	if pl.Kind != KindMetric || !cmp.Equal(want, pl.Query.Filters) {
		t.Errorf("%s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many companies opened", asOf); pl.Kind == KindMetric {
		t.Errorf("without a form of be, the verb alone: %+v", pl.Query)
	}
}

// TestNoRowsThroughAChain: "accounts that never made a payment" are those
// with no payment of their invoices, through the shortest chain of
// references (found from outside: refused, as payments do not refer to
// accounts directly).
func TestNoRowsThroughAChain(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", Table: "accounts", PrimaryKey: "account_id", Label: "account_name", Columns: []semantic.Column{col("account_id", quarry.TypeInt), col("account_name", quarry.TypeText)}},
			{Name: "subscriptions", Table: "subscriptions", PrimaryKey: "sub_id", Columns: []semantic.Column{col("sub_id", quarry.TypeInt), col("account_id", quarry.TypeInt)}},
			{Name: "invoices", Table: "invoices", PrimaryKey: "invoice_id", Columns: []semantic.Column{col("invoice_id", quarry.TypeInt), col("sub_id", quarry.TypeInt), col("account_id", quarry.TypeInt)}},
			{Name: "payments", Table: "payments", PrimaryKey: "payment_id", Columns: []semantic.Column{col("payment_id", quarry.TypeInt), col("invoice_id", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "subscriptions", FromColumn: "account_id", To: "accounts", ToColumn: "account_id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "sub_id", To: "subscriptions", ToColumn: "sub_id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "account_id", To: "accounts", ToColumn: "account_id", Cardinality: semantic.ManyToOne},
			{From: "payments", FromColumn: "invoice_id", To: "invoices", ToColumn: "invoice_id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	pl := p.Plan("how many accounts have no payments", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC))
	if pl.Kind != KindMetric {
		t.Fatalf("kind %s (%s); want a count", pl.Kind, pl.Reason)
	}
	c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
	if err != nil || !strings.Contains(c.SQL, "accounts.account_id NOT IN (SELECT invoices.account_id FROM payments JOIN invoices ON invoices.invoice_id = payments.invoice_id WHERE invoices.account_id IS NOT NULL)") {
		t.Errorf("%v\n%s", err, c.SQL)
	}
}

// TestOthersState: a count of rows kept to the state of the rows they
// refer to, where they have an end date of their own, is asked back
// (found from outside: "production runs still in progress" counted the
// runs of work orders in progress, 34 of them ended).
func TestOthersState(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "work_orders", Table: "work_orders", PrimaryKey: "wo_id", Columns: []semantic.Column{col("wo_id", quarry.TypeInt),
				{Name: "status", Type: quarry.TypeText, Values: []string{"completed", "in_progress"}}}},
			{Name: "production_runs", Table: "production_runs", PrimaryKey: "run_id", Columns: []semantic.Column{col("run_id", quarry.TypeInt), col("wo_id", quarry.TypeInt),
				{Name: "start_ts", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}, {Name: "end_ts", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "production_runs", FromColumn: "wo_id", To: "work_orders", ToColumn: "wo_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	pl := New(m, nil).Plan("how many production runs are in progress", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC))
	if pl.Kind != KindClarify || !strings.Contains(pl.Question, "end_ts empty") {
		t.Errorf("%s %q %q; want a question back", pl.Kind, pl.Reason, pl.Question)
	}
}

// TestNoExistsAfterTo: "flights to Denver", where Denver is only a city
// of members who booked them, is refused, not read as the flights with
// a Denver member (found from outside, at confidence 1.00); "flights
// booked by members in Denver" still is.
func TestNoExistsAfterTo(t *testing.T) {
	col := func(name string, typ quarry.Type, vals ...string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, Values: vals}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "flights", Table: "flights", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("flight_no", quarry.TypeText)}},
			{Name: "members", Table: "members", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("city", quarry.TypeText, "Denver", "Boston")}},
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("flight_id", quarry.TypeInt), col("member_id", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "bookings", FromColumn: "flight_id", To: "flights", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	if pl := p.Plan("how many flights to Denver", asOf); pl.Query != nil {
		t.Errorf("flights to Denver: answered %+v", pl.Query)
	}
	if pl := p.Plan("how many flights with members in Denver", asOf); pl.Query == nil {
		t.Errorf("flights with members in Denver: %s %q", pl.Kind, pl.Reason)
	}
}
