package planner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRelatedRowsOwners: the rows a condition counts or asks for leave
// out their owners' test and deleted rows as the rows measured do, in
// the subquery, never joining the outer rows again (found from outside:
// "drivers with more than 100 delivery attempts" 12 for 3, "students
// with no F grades" 178 for 181, at 1.00).
func TestRelatedRowsOwners(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	flag := func(n string) semantic.Column {
		return semantic.Column{Name: n, Type: quarry.TypeInt, Values: []string{"0", "1"}}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "drivers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, flag("is_test")}},
			{Name: "shipments", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("customer_id"),
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "deleted_at", Type: quarry.TypeTimestamp}}},
			{Name: "attempts", PrimaryKey: "id", TimeColumn: "attempted_at", Columns: []semantic.Column{id("id"), id("shipment_id"), id("driver_id"),
				{Name: "attempted_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "shipments", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "attempts", FromColumn: "shipment_id", To: "shipments", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "attempts", FromColumn: "driver_id", To: "drivers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"drivers with more than 100 attempts", "drivers with no attempts"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Fatalf("%q: %s %q", q, pl.Kind, pl.Reason)
		}
		var where []string
		for _, f := range pl.Query.Filters {
			if f.OnRelated() {
				for _, w := range f.Where {
					where = append(where, fmt.Sprintf("%s %s", w.Field, w.Op))
				}
			}
		}
		for _, want := range []string{"customers.is_test !=", "shipments.deleted_at is_null"} {
			if !slices.Contains(where, want) {
				t.Errorf("%q: the rows asked for keep %q; want %q", q, where, want)
			}
		}
		c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
		if err != nil {
			t.Fatalf("%q: compile: %v", q, err)
		}
		sub := c.SQL[strings.Index(c.SQL, "(SELECT"):]
		if !strings.Contains(sub, "JOIN customers") || strings.Contains(sub, "JOIN drivers") {
			t.Errorf("%q: the subquery %s; want customers joined up the chain and drivers not joined again", q, sub)
		}
	}
}

// TestRelatedRowsThrough: the rows a condition goes through to the rows
// it asks for leave out their own deleted rows (found from outside:
// "students with enrollments in both Math and Physics" took in deleted
// enrollments, 67 for 66 at 1.00).
func TestRelatedRowsThrough(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "students", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "courses", PrimaryKey: "id", Label: "title", Columns: []semantic.Column{id("id"), {Name: "title", Type: quarry.TypeText},
				{Name: "subject", Type: quarry.TypeText, Values: []string{"Math", "Physics"}}}},
			{Name: "enrollments", PrimaryKey: "id", TimeColumn: "enrolled_on", Columns: []semantic.Column{id("id"), id("student_id"), id("course_id"),
				{Name: "enrolled_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "deleted_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{
			{From: "enrollments", FromColumn: "student_id", To: "students", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "enrollments", FromColumn: "course_id", To: "courses", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	pl := New(m, nil).Plan("how many students have enrollments in both Math and Physics", asOf)
	if pl.Query == nil {
		t.Fatalf("%s %q", pl.Kind, pl.Reason)
	}
	n := 0
	for _, f := range pl.Query.Filters {
		if f.Op == semantic.OpSome {
			n++
			if !slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return w.Field == "enrollments.deleted_at" && w.Op == semantic.OpNull }) {
				t.Errorf("%+v: the enrollments gone through keep the deleted ones", f)
			}
		}
	}
	if n != 2 {
		t.Errorf("%+v: want two conditions on related courses", pl.Query.Filters)
	}
	if _, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite"); err != nil {
		t.Errorf("compile: %v", err)
	}
}

// TestDraftsOfMoney: a draft invoice bills nothing yet, and is no real
// invoice of a count or a total (found from outside: 54,980 of draft
// invoices' lines in "total invoice line amount", at 1.00); a draft
// course is a course all the same, and stays (found from outside: the
// draft courses lost with no word).
func TestDraftsOfMoney(t *testing.T) {
	status := func(vs ...string) semantic.Column {
		return semantic.Column{Name: "status", Type: quarry.TypeText, Values: vs}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "invoices", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}, status("draft", "issued", "paid", "void")}},
			{Name: "invoice_lines", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "invoice_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}}},
			{Name: "courses", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "price", Type: quarry.TypeFloat}, status("draft", "published")}},
			{Name: "payments", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "amount_cents", Type: quarry.TypeInt}, status("failed", "refunded", "succeeded")}},
			{Name: "jobs", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, status("failed", "succeeded")}},
		},
		Relationships: []semantic.Relationship{{From: "invoice_lines", FromColumn: "invoice_id", To: "invoices", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q    string
		want []any // the states left out; nil: none
	}{
		{"how many invoices", []any{"draft", "void"}},
		{"total amount of invoice lines", []any{"draft", "void"}},
		{"how many draft invoices", nil},
		// "not draft" keeps out one of the two; the void ones stay out
		// (found replaying an outside tester's questions: 414 for 227).
		{"how many unpaid invoices that are not draft", []any{"draft", "void"}},
		{"how many courses", nil},
		// A failed payment moved no money (found from outside, on a bike
		// share: failed charges in every total); a failed job ran.
		{"total amount cents of payments", []any{"failed"}},
		{"how many payments", []any{"failed"}},
		{"how many failed payments", nil},
		{"how many jobs", nil},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Query == nil {
			t.Fatalf("%q: %s %q", tc.q, pl.Kind, pl.Reason)
		}
		var got []any
		for _, f := range pl.Query.Filters {
			if f.Op == semantic.OpNotIn && strings.HasSuffix(f.Field, ".status") {
				got = append(got, f.Values...)
			}
		}
		slices.SortFunc(got, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: states left out (-want +got):\n%s", tc.q, diff)
		}
	}
}

// TestDeletedFlagOfGroupTable: a table joined only to group dated events
// keeps its rows marked deleted by a yes/no column, as by a date: the
// events still happened (found from outside: "how many tickets by
// company" lost the tickets of requesters marked is_deleted, 202 for
// 221, at 1.00); counted itself, they are left out.
func TestDeletedFlagOfGroupTable(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "requesters", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "company", Type: quarry.TypeText, Values: []string{"Acme", "Globex"}}, {Name: "is_deleted", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "tickets", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "requester_id", Type: quarry.TypeInt},
				{Name: "opened_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "tickets", FromColumn: "requester_id", To: "requesters", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for q, want := range map[string]bool{"how many tickets by company": false, "how many requesters": true} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Fatalf("%q: %s %q", q, pl.Kind, pl.Reason)
		}
		if got := slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "requesters.is_deleted" }); got != want {
			t.Errorf("%q: %+v; requesters.is_deleted read %v, want %v", q, pl.Query.Filters, got, want)
		}
	}
}

// TestOwnerByLastWord: a key named for the last word of its table's
// name (invoice_id of service_invoice_lines, to service_invoices) makes
// that table the rows' owner, and its void rows' lines are left out
// with no period to join it by (found from outside: 791.6 hours for 571).
func TestOwnerByLastWord(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "service_invoices", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "issued_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "is_void", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "service_invoice_lines", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "invoice_id", Type: quarry.TypeInt},
				{Name: "hours", Type: quarry.TypeFloat}}},
		},
		Relationships: []semantic.Relationship{{From: "service_invoice_lines", FromColumn: "invoice_id", To: "service_invoices", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	pl := New(m, nil).Plan("total hours of service invoice lines", asOf)
	if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "service_invoices.is_void" }) {
		t.Errorf("%s %q %+v; want the lines of void invoices left out", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestOwnerByFirstWord: a key named for the parent's last word, in a
// table named after that word (case_events.case_id, to support_cases),
// is its owner's: a test account's cases' events are test data too
// (found from outside: 304 events for 273, at 1.00).
func TestOwnerByFirstWord(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, {Name: "is_test", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "support_cases", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{id("id"), id("account_id"), {Name: "opened_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "case_events", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("case_id"), {Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "event_type", Type: quarry.TypeText, Values: []string{"comment", "escalation"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "support_cases", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "case_events", FromColumn: "case_id", To: "support_cases", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	for _, q := range []string{"how many case events", "case events by event type"} {
		pl := New(m, nil).Plan(q, asOf)
		if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "accounts.is_test" }) {
			t.Errorf("%q: %s %q %+v; want the events of test accounts' cases left out", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}

// TestRelatedRowsChainJoined: the tables a related condition's chain
// joins on its way (the orders of the order lines, to the products) have
// their void and deleted rows left out too (found from outside:
// "customers with orders of both Pallet Jack and Scanner" 25 for 22, the
// products of void and deleted orders counted, at 1.00).
func TestRelatedRowsChainJoined(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{id("id"), id("customer_id"), {Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"shipped", "void"}}, {Name: "is_deleted", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "order_lines", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("order_id"), id("product_id")}},
			{Name: "products", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Pallet Jack", "Scanner"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "order_lines", FromColumn: "order_id", To: "orders", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "order_lines", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	pl := New(m, nil).Plan("customers with orders of both Pallet Jack and Scanner", asOf)
	if pl.Query == nil {
		t.Fatalf("%s %q", pl.Kind, pl.Reason)
	}
	n := 0
	for _, f := range pl.Query.Filters {
		if f.Op != semantic.OpSome {
			continue
		}
		n++
		for _, want := range []string{"orders.status", "orders.is_deleted"} {
			if !slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return w.Field == want }) {
				t.Errorf("%+v: no condition on %s", f, want)
			}
		}
	}
	if n != 2 {
		t.Errorf("%+v: want a condition of having each product", pl.Query.Filters)
	}
}
