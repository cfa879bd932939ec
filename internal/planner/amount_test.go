package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAmountOfTable: "total fines" and "average payment" are of the
// table's one amount column (found from outside: "total fines" was the
// number of fines, "total payments by method" their count); "total
// orders" stays a count; a table of versions (salaries valid until a
// date) is refused; a restricted amount is never picked, nor one of two.
func TestAmountOfTable(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "members", Table: "members", PrimaryKey: "member_id", Columns: []semantic.Column{col("member_id", quarry.TypeInt), col("city", quarry.TypeText)}},
			{Name: "fines", Table: "fines", PrimaryKey: "fine_id", TimeColumn: "issued_on", Columns: []semantic.Column{col("fine_id", quarry.TypeInt), col("member_id", quarry.TypeInt), {Name: "amount_usd", Type: quarry.TypeFloat, Unit: "USD"}, col("issued_on", quarry.TypeDate)}},
			{Name: "payments", Table: "payments", PrimaryKey: "payment_id", Columns: []semantic.Column{col("payment_id", quarry.TypeInt), col("amount", quarry.TypeFloat), {Name: "method", Type: quarry.TypeText, Values: []string{"card", "cash"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "order_id", Columns: []semantic.Column{col("order_id", quarry.TypeInt), col("total_amount", quarry.TypeFloat)}},
			{Name: "salaries", Table: "salaries", PrimaryKey: "salary_id", Columns: []semantic.Column{col("salary_id", quarry.TypeInt), col("amount", quarry.TypeFloat), col("effective_from", quarry.TypeDate), col("effective_to", quarry.TypeDate)}},
			{Name: "tips", Table: "tips", PrimaryKey: "tip_id", Columns: []semantic.Column{col("tip_id", quarry.TypeInt), col("amount", quarry.TypeFloat)}},
			{Name: "fees", Table: "fees", PrimaryKey: "fee_id", Columns: []semantic.Column{col("fee_id", quarry.TypeInt), col("amount", quarry.TypeFloat), col("tax_amount", quarry.TypeFloat)}},
			{Name: "charges", Table: "charges", PrimaryKey: "charge_id", Columns: []semantic.Column{col("charge_id", quarry.TypeInt), col("net_amount", quarry.TypeFloat), col("tax_amount", quarry.TypeFloat)}},
			{Name: "meals", Table: "meals", PrimaryKey: "meal_id", Columns: []semantic.Column{col("meal_id", quarry.TypeInt), col("tip_amount", quarry.TypeFloat)}},
			{Name: "bills", Table: "bills", PrimaryKey: "bill_id", Columns: []semantic.Column{col("bill_id", quarry.TypeInt), col("amount", quarry.TypeFloat),
				{Name: "due_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "fines", FromColumn: "member_id", To: "members", ToColumn: "member_id", Cardinality: semantic.ManyToOne}},
		Restricted:    []string{"tips.amount"},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q, expr string // expr "": refused
	}{
		{"total fines in 2024", "SUM(fines.amount_usd)"},
		{"total fines by member city", "SUM(fines.amount_usd)"},
		{"total payments by method", "SUM(payments.amount)"},
		{"average payment", "AVG(payments.amount)"},
		{"total orders", "COUNT(orders.order_id)"},
		{"average order", "AVG(orders.total_amount)"},
		{"average salary", ""},
		// A restricted amount is never picked unasked, nor one of two.
		{"total tips", "COUNT(tips.tip_id)"},
		{"total charges", "COUNT(charges.charge_id)"},
		// A tip alone is no meal's amount (found from outside: "average
		// order value" read as the orders' tip_amount).
		{"average meal", ""},
		{"largest meal", ""},
		// A column named amount alone is the row's amount, beside one
		// qualified (a payment's amount and its late_fee; found from
		// outside: "total rent payments" counted them).
		{"total fees", "SUM(fees.amount)"},
		// The largest of a table of money is its largest amount (found
		// from outside: "largest payment this year" refused); not of
		// other rows ("the largest order": by what?).
		{"largest payment", "MAX(payments.amount)"},
		{"smallest fine in 2024", "MIN(fines.amount_usd)"},
		// A due date is a deadline, no end of a period a bill holds for
		// (found from outside: "largest invoice" refused for due_on).
		{"largest bill", "MAX(bills.amount)"},
		{"total bills", "SUM(bills.amount)"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.expr == "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v %+v; want a refusal", pl.Query, pl.AdHoc)
				}
				return
			}
			if pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 {
				t.Fatalf("kind %s (%s) %+v; want one metric %s", pl.Kind, pl.Reason, pl.Query, tt.expr)
			}
			got := pl.Query.Metrics[0]
			for _, a := range pl.AdHoc {
				if a.Name == got {
					got = a.Expr
				}
			}
			if !strings.EqualFold(got, tt.expr) {
				t.Errorf("metric %s; want %s", got, tt.expr)
			}
		})
	}
}

// TestTableBeforeItsColumn: "courses by classroom building" groups by the
// classrooms' building alone, though teachers have a building too and
// courses a classroom_id (found from outside: 28 rows, one per
// classroom).
func TestTableBeforeItsColumn(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "courses", Table: "courses", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("classroom_id", quarry.TypeInt), col("teacher_id", quarry.TypeInt)}},
			{Name: "classrooms", Table: "classrooms", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("building", quarry.TypeText), col("room_number", quarry.TypeText)}},
			{Name: "teachers", Table: "teachers", PrimaryKey: "id", Columns: []semantic.Column{col("id", quarry.TypeInt), col("building", quarry.TypeText)}},
		},
		Relationships: []semantic.Relationship{
			{From: "courses", FromColumn: "classroom_id", To: "classrooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "courses", FromColumn: "teacher_id", To: "teachers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	pl := New(m, nil).Plan("courses by classroom building", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC))
	if pl.Kind != KindMetric || len(pl.Query.Dimensions) != 1 || pl.Query.Dimensions[0].Name != "classrooms.building" {
		t.Fatalf("kind %s (%s) %+v; want one grouping by classrooms.building", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestAmountOnItsOwnDate: a period on an amount named for one of its
// table's dates falls on that date: "total amount due in December" is
// the rent falling due in December, not the payments made then (found
// from outside: filtered on paid_date, the table's time column). An
// amount that names no date, or two, keeps the table's own.
func TestAmountOnItsOwnDate(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "rent_payments", Table: "rent_payments", PrimaryKey: "payment_id", TimeColumn: "paid_date", Columns: []semantic.Column{
				col("payment_id", quarry.TypeInt), col("due_date", quarry.TypeDate), col("paid_date", quarry.TypeDate),
				col("amount_due", quarry.TypeFloat), col("amount_paid", quarry.TypeFloat), col("late_fee", quarry.TypeFloat)}},
			{Name: "refunds", Table: "refunds", PrimaryKey: "refund_id", TimeColumn: "created_at", Columns: []semantic.Column{
				col("refund_id", quarry.TypeInt), col("created_at", quarry.TypeTimestamp), col("refunded_at", quarry.TypeTimestamp),
				col("refund_amount", quarry.TypeFloat)}},
			{Name: "shipments", Table: "shipments", PrimaryKey: "shipment_id", TimeColumn: "created_at", Columns: []semantic.Column{
				col("shipment_id", quarry.TypeInt), col("created_at", quarry.TypeTimestamp), col("ship_start", quarry.TypeDate), col("ship_end", quarry.TypeDate),
				col("ship_cost", quarry.TypeFloat)}},
			{Name: "loans", Table: "loans", PrimaryKey: "loan_id", TimeColumn: "funded_on", Columns: []semantic.Column{
				col("loan_id", quarry.TypeInt), col("funded_on", quarry.TypeDate), col("charged_off_on", quarry.TypeDate),
				col("principal", quarry.TypeFloat), col("chargeoff_amt", quarry.TypeFloat)}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ q, date string }{
		{"total amount due in December 2025", "rent_payments.due_date >= '2025-12-01'"},
		{"total amount due by month in 2025", "strftime('%Y-%m-01', rent_payments.due_date)"},
		{"total amount paid in December 2025", "rent_payments.paid_date >= '2025-12-01'"},
		{"total late fee in 2025", "rent_payments.paid_date >= '2025-01-01'"},
		{"total refund amount in 2025", "refunds.refunded_at >= '2025-01-01'"},
		// Two dates share "ship": neither is chosen over the table's own.
		{"total ship cost in 2025", "shipments.created_at >= '2025-01-01'"},
		// One word in the amount, two in the date (found from outside:
		// the losses of the loans funded in 2025, not charged off then).
		{"total chargeoff amount in 2025", "loans.charged_off_on >= '2025-01-01'"},
		{"total principal in 2025", "loans.funded_on >= '2025-01-01'"},
		// An average of an amount named for what happened to a row is
		// of the rows it happened to: the amount paid of the payments
		// paid (found from outside: open installments averaged in as 0).
		{"average amount paid", "WHERE rent_payments.paid_date IS NOT NULL"},
		{"largest chargeoff amount", "WHERE loans.charged_off_on IS NOT NULL"},
		// A date set ahead is none: every installment has an amount due.
		{"average amount due", "FROM rent_payments\n"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s (%s); want a metric", pl.Kind, pl.Reason)
			}
			c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tt.date, "\\n", "\n"); !strings.Contains(c.SQL+"\n", want) {
				t.Errorf("SQL does not hold %q:\n%s", tt.date, c.SQL)
			}
		})
	}
}

// TestAmountsAsked: amounts asked in a manager's words on a schema with
// no metrics (found from outside, on a charity's database): "the donation
// total" adds up the amount, "volunteer hours" are the hours column
// added up, not the time sheets; "how much was donated" with nothing to
// add up, and money made with no measure of income, are refused, never
// answered with a list or a count.
func TestAmountsAsked(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "donations", Table: "donations", PrimaryKey: "donation_id", TimeColumn: "gift_dt", Columns: []semantic.Column{
				col("donation_id", quarry.TypeInt), col("gift_dt", quarry.TypeDate), col("amount", quarry.TypeFloat),
				{Name: "pmt_method", Type: quarry.TypeText, Values: []string{"Card", "Check", "Stock"}}}},
			{Name: "volunteer_hours", Table: "volunteer_hours", PrimaryKey: "entry_id", TimeColumn: "work_dt", Columns: []semantic.Column{
				col("entry_id", quarry.TypeInt), col("work_dt", quarry.TypeDate), col("hours", quarry.TypeFloat)}},
			{Name: "orders", Table: "orders", PrimaryKey: "order_id", TimeColumn: "order_ts", Columns: []semantic.Column{
				col("order_id", quarry.TypeInt), col("order_ts", quarry.TypeTimestamp), col("total_amt", quarry.TypeFloat),
				col("tip_amt", quarry.TypeFloat), col("is_gift", quarry.TypeInt)}},
			{Name: "order_lines", Table: "order_lines", PrimaryKey: "line_id", Columns: []semantic.Column{
				col("line_id", quarry.TypeInt), col("order_id", quarry.TypeInt), col("line_amt", quarry.TypeFloat)}},
			{Name: "maintenance_events", Table: "maintenance_events", PrimaryKey: "maint_id", TimeColumn: "maint_dt", Columns: []semantic.Column{
				col("maint_id", quarry.TypeInt), col("maint_dt", quarry.TypeDate), col("cost_amt", quarry.TypeFloat), col("downtime_hrs", quarry.TypeFloat)}},
			{Name: "fees", Table: "fees", PrimaryKey: "fee_id", TimeColumn: "assessed_on", Columns: []semantic.Column{
				col("fee_id", quarry.TypeInt), col("assessed_on", quarry.TypeDate), col("fee_amt", quarry.TypeFloat),
				{Name: "fee_type", Type: quarry.TypeText, Values: []string{"LATE", "NSF"}}}},
		},
		Relationships: []semantic.Relationship{{From: "order_lines", FromColumn: "order_id", To: "orders", ToColumn: "order_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ q, want string }{ // want "": refused
		{"What was the donation total in Q4 2025?", "SUM(donations.amount)"},
		{"donation total by year", "SUM(donations.amount)"},
		{"Total volunteer hours in 2025", "SUM(volunteer_hours.hours)"},
		{"how many volunteer hours in 2025", "SUM(volunteer_hours.hours)"},
		{"How many donations were over $1,000?", "donations.amount > 1000"},
		{"how many donations over 5000 in 2024", "donations.amount > 5000"},
		{"How much was donated by stock in 2024?", ""},
		// The amount of the rows counted, never of another table named
		// by a word of theirs (found from outside: each order's total).
		{"how many order lines were over $30", "order_lines.line_amt > 30"},
		{"how many orders were over $100", "orders.total_amt > 100"},
		// A number without money's sign, of rows with another number
		// (found from outside: "maintenance events over 10" compared the
		// cost; the downtime is in hours).
		{"how many maintenance events over 10", ""},
		// Another amount of money, or a flag, is no other number: the
		// bare number stays the total's (found from outside, as a
		// regression of the rule above).
		{"how many orders over 100", "orders.total_amt > 100"},
		// An amount of money by periods or groups, with no aggregate
		// said, is its total (found from outside: "maintenance cost by
		// month" was refused); hours are not read so, nor a list.
		{"maintenance events cost by month in 2025", "SUM(maintenance_events.cost_amt)"},
		{"maintenance events cost 2024 vs 2025", "SUM(maintenance_events.cost_amt)"},
		{"maintenance events downtime hrs by month in 2025", ""},
		{"how many maintenance events over $500", "maintenance_events.cost_amt > 500"},
		{"how many maintenance events cost over 500", "maintenance_events.cost_amt > 500"},
		{"how much did we make in 2025", ""},
		{"what did we make last month", ""},
		// A range of money with no column is of the one amount, as a
		// comparison is (found from outside: refused); a bare range of
		// rows with another number stays refused.
		{"how many donations between $100 and $500", "donations.amount >= 100\n  AND donations.amount <= 500"},
		{"how many donations between 10 and 50 dollars in 2025", "donations.amount >= 10\n  AND donations.amount <= 50"},
		{"how many maintenance events between 10 and 20", ""},
		// "The total of" a table with one amount is that amount added
		// up, never the number of rows (found from outside: "the total
		// of invoices not paid" was a count); "total number of" counts.
		{"what was the total of orders in 2025", "SUM(orders.total_amt)"},
		{"what's the total of orders that are not gifts", "SUM(orders.total_amt)"},
		// Events are no record of money: their total is their number.
		{"total of maintenance events last year", "COUNT(maintenance_events.maint_id)"},
		{"total number of orders in 2025", "COUNT(orders.order_id)"},
		// A table of fees is worth its fee: a fee is part of what an
		// order is worth, not of what a fee is (found from outside:
		// "total late fees this year" counted them).
		{"total late fees in 2025", "SUM(fees.fee_amt)"},
		{"how many late fees in 2025", "COUNT(fees.fee_id)"},
	} {
		t.Run(tt.q, func(t *testing.T) { metricHolds(t, p, m, tt.q, tt.want, asOf) })
	}
}

// TestShareInEverySpelling: a share's condition takes its value in every
// spelling the column holds, as a filter does (found from outside: the
// share of invoices paid by insurance left out those spelled 'Paid').
func TestShareInEverySpelling(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "invoices", Table: "invoices", PrimaryKey: "invoice_id", TimeColumn: "issued_dt", Columns: []semantic.Column{
				col("invoice_id", quarry.TypeInt), col("issued_dt", quarry.TypeDate), col("amount_due", quarry.TypeFloat),
				{Name: "inv_status", Type: quarry.TypeText, Values: []string{"Paid", "paid", "unpaid", "void"}},
				{Name: "pay_method", Type: quarry.TypeText, Values: []string{"card", "cash", "insurance"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	pl := p.Plan("what share of invoices were paid by insurance", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC))
	if pl.Kind != KindMetric {
		t.Fatalf("kind %s (%s); want a share", pl.Kind, pl.Reason)
	}
	c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
	if err != nil || !strings.Contains(c.SQL, "invoices.inv_status IN ('Paid', 'paid')") {
		t.Errorf("%v; want both spellings of paid:\n%s", err, c.SQL)
	}
}

// TestRankedByOthersAmount: a ranking of a table by an amount of the rows
// that point at it ("top 5 volunteers by hours") is by that amount's total
// over each one's rows; a score or a price of them is not added up, and
// stays refused. "cancelled orders" counts orders where "orders" is also a
// word of order_status (found from outside, on databases quarry had
// never seen).
func TestRankedByOthersAmount(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "volunteers", Table: "volunteers", PrimaryKey: "vol_id", Label: "vol_name", Columns: []semantic.Column{col("vol_id", quarry.TypeInt), col("vol_name", quarry.TypeText)}},
			{Name: "volunteer_hours", Table: "volunteer_hours", PrimaryKey: "entry_id", TimeColumn: "work_dt", Columns: []semantic.Column{
				col("entry_id", quarry.TypeInt), col("vol_id", quarry.TypeInt), col("work_dt", quarry.TypeDate), col("hours", quarry.TypeFloat), col("rating", quarry.TypeFloat),
				col("delivery_fee_cents", quarry.TypeInt)}},
			{Name: "orders", Table: "orders", PrimaryKey: "order_id", TimeColumn: "order_ts", Columns: []semantic.Column{
				col("order_id", quarry.TypeInt), col("order_ts", quarry.TypeTimestamp), col("total_amt", quarry.TypeFloat),
				{Name: "order_status", Type: quarry.TypeText, Values: []string{"cancelled", "completed"}}}},
		},
		Relationships: []semantic.Relationship{{From: "volunteer_hours", FromColumn: "vol_id", To: "volunteers", ToColumn: "vol_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ q, want string }{ // want "": refused
		{"top 5 volunteers by hours", "SUM(volunteer_hours.hours)"},
		{"top 5 volunteers by rating", ""},
		{"top 5 volunteers by volunteer hours rating", ""},
		// What a fee is for is no amount of it (found from outside:
		// "top 5 couriers by deliveries" summed delivery fees).
		{"top 5 volunteers by deliveries", ""},
		{"top 5 volunteers by delivery fees", "SUM(volunteer_hours.delivery_fee_cents)"},
		{"How many cancelled orders were there in 2024?", "orders.order_status = 'cancelled'"},
	} {
		t.Run(tt.q, func(t *testing.T) { metricHolds(t, p, m, tt.q, tt.want, asOf) })
	}
}

// metricHolds plans q and checks that its metric query's SQL holds want;
// want "" checks that q is refused.
func metricHolds(t *testing.T, p *Planner, m *semantic.Model, q, want string, asOf time.Time) {
	t.Helper()
	pl := p.Plan(q, asOf)
	if want == "" {
		if pl.Kind == KindMetric || pl.Kind == KindRows {
			t.Fatalf("answered %+v %+v; want a refusal", pl.Query, pl.AdHoc)
		}
		return
	}
	if pl.Kind != KindMetric {
		t.Fatalf("kind %s (%s); want %s", pl.Kind, pl.Reason, want)
	}
	c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
	if err != nil || !strings.Contains(c.SQL, want) {
		t.Errorf("%v; SQL does not hold %q:\n%s", err, want, c.SQL)
	}
}

// TestPartOfANumberCounted: "how many late payments" read "late" as
// late_fee and counted its different amounts (2, at 1.00, where 202
// payments had a fee; found from outside). A word of a number column's
// name is no count of its values; "how many different late fees" is.
func TestPartOfANumberCounted(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}, {Name: "late_fee", Type: quarry.TypeFloat}, {Name: "paid_on", Type: quarry.TypeDate},
	}}}}
	p := New(m, nil)
	if pl := p.Plan("how many late payments in 2025", asOf); pl.Query != nil || !strings.Contains(pl.Reason, "is part of the name of payments.late_fee") {
		t.Errorf("late payments: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many different late fees", asOf); pl.Query == nil {
		t.Errorf("different late fees: %s %q", pl.Kind, pl.Reason)
	}
}

// TestWithANumber: "rent payments with a late fee" are the payments whose
// fee is more than none; the fees were added up instead (found from
// outside), and "how many … had a late fee" was refused.
func TestWithANumber(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "rent_payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}, {Name: "late_fee", Type: quarry.TypeFloat}, {Name: "paid_on", Type: quarry.TypeDate},
	}}}}
	p := New(m, nil)
	for _, q := range []string{"rent payments with a late fee in 2025", "how many rent payments had a late fee in 2025"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "rent_payments.late_fee" || pl.Query.Filters[0].Op != semantic.OpGt {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
}

// TestParentDated: rows with no date of their own are dated by the one
// table they belong to that has one, or of several the one dated by the
// event its rows record: "total qty of purchase order lines in 2025" by
// the order's date (found from outside: refused, "no date to apply").
func TestParentDated(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "purchase_orders", PrimaryKey: "id", TimeColumn: "ordered_on", Columns: []semantic.Column{id("id"), {Name: "ordered_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "parts", PrimaryKey: "id", TimeColumn: "added_on", Columns: []semantic.Column{id("id"), {Name: "added_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "purchase_order_lines", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("purchase_order_id"), id("part_id"), {Name: "qty", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "purchase_order_lines", FromColumn: "purchase_order_id", To: "purchase_orders", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "purchase_order_lines", FromColumn: "part_id", To: "parts", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	pl := New(m, nil).Plan("total qty of purchase order lines in 2025", asOf)
	if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "purchase_orders.ordered_on" {
		t.Errorf("%s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestRecurringRevenueByGroup: a column of recurring revenue (MRR) said
// bare with a grouping is its total per group, as an amount is: "MRR by
// plan" was refused (found from outside) while "total MRR by plan" was
// answered.
func TestRecurringRevenueByGroup(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "plans", Table: "plans", PrimaryKey: "plan_id", Label: "plan_name", Columns: []semantic.Column{
				{Name: "plan_id", Type: quarry.TypeInt}, {Name: "plan_name", Type: quarry.TypeText}}},
			{Name: "subscriptions", Table: "subscriptions", PrimaryKey: "subscription_id", TimeColumn: "started_on", Columns: []semantic.Column{
				{Name: "subscription_id", Type: quarry.TypeInt}, {Name: "plan_id", Type: quarry.TypeInt},
				{Name: "started_on", Type: quarry.TypeDate}, {Name: "mrr", Type: quarry.TypeFloat}}},
		},
		Relationships: []semantic.Relationship{{Name: "plan", From: "subscriptions", FromColumn: "plan_id", To: "plans", ToColumn: "plan_id", Cardinality: semantic.ManyToOne}},
	}
	metricCases(t, m, []struct{ q, want string }{
		{"MRR by plan", "SUM(subscriptions.mrr)"},
		{"total MRR by plan", "SUM(subscriptions.mrr)"},
		{"average MRR by plan", "AVG(subscriptions.mrr)"},
	})
}

// TestUnitPriceIsNoAmount: the price of one unit, where each row holds
// several, is no row's amount: "the biggest sale last year" is refused,
// not the highest unit_price (found from outside, at 1.00).
func TestUnitPriceIsNoAmount(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "sales", PrimaryKey: "id", TimeColumn: "sold_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "quantity", Type: quarry.TypeInt}, {Name: "unit_price", Type: quarry.TypeFloat},
			{Name: "sold_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
	}}
	if pl := New(m, nil).Plan("the biggest sale last year", asOf); pl.Query != nil {
		t.Errorf("biggest sale: %s %+v %+v; want refused", pl.Kind, pl.Query, pl.AdHoc)
	}
}
