package planner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDatesAsEvents: "how many hires" names the rows by their hire date,
// not the hire dates: a count of the employees hired, put in time by
// hire_dt (found from outside: "number of hires by year" was read as the
// number of different hire dates, and refused). A question that asks for
// dates or days keeps counting them.
func TestDatesAsEvents(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "employees", Table: "employees", PrimaryKey: "emp_id", TimeColumn: "hire_dt", Columns: []semantic.Column{
				col("emp_id", quarry.TypeInt), col("name", quarry.TypeText),
				{Name: "hire_dt", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
				{Name: "term_dt", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
				{Name: "last_login", Type: quarry.TypeDate}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ q, want string }{
		{"number of hires by year", "COUNT(employees.emp_id)"},
		{"how many hires in 2024", "COUNT(employees.emp_id) AS"},
		{"compare the number of hires in 2024 and 2025", "COUNT(employees.emp_id)"},
		// "in all": term_dt ends an employment, so "are there" alone asks
		// whether those let go count.
		{"how many different hire dates are there in all", "COUNT(DISTINCT employees.hire_dt)"},
		// The latest of many events is no count of them: the dates stay
		// a count of dates, which the checks refuse (verify.DateAggregates).
		{"how many logins last month", "COUNT(DISTINCT employees.last_login)"},
	} {
		t.Run(tt.q, func(t *testing.T) { metricHolds(t, p, m, tt.q, tt.want, asOf) })
	}
}

// TestPerOwnRow: an average of a column "per" one of its table's rows is
// the average over them, not a figure for each (found from outside:
// "average overtime hours per payslip" was read as each payslip's
// figure, and refused); "by payslip" still groups.
func TestPerOwnRow(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "payslips", Table: "payslips", PrimaryKey: "slip_id", TimeColumn: "pay_dt", Columns: []semantic.Column{
				col("slip_id", quarry.TypeInt), col("pay_dt", quarry.TypeDate), col("overtime_hrs", quarry.TypeFloat),
				{Name: "currency", Type: quarry.TypeText, Values: []string{"EUR", "USD"}}}},
			{Name: "maint_tickets", Table: "maint_tickets", PrimaryKey: "ticket_id", TimeColumn: "opened_at", Columns: []semantic.Column{
				col("ticket_id", quarry.TypeInt), col("opened_at", quarry.TypeTimestamp), col("parts_cost", quarry.TypeFloat)}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	pl := p.Plan("average overtime hours per payslip", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Dimensions) != 0 {
		t.Fatalf("per payslip: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("average overtime hours per payslip by currency", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Dimensions) != 1 {
		t.Fatalf("per payslip by currency: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	// The table's last word names its rows too (found from outside:
	// 4,915 tickets' own costs for "average parts cost per ticket").
	pl = p.Plan("average parts cost per ticket", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Dimensions) != 0 {
		t.Fatalf("per ticket: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestRecordTableWord: a table named for a record of something is named
// by that thing's word ("maintenance cost" of maintenance_log), unless
// the word is also a value, which stays the value alone (found from
// outside: "total maintenance cost" summed the log of the cars whose
// status is maintenance now).
func TestRecordTableWord(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	model := func(status []string) *semantic.Model {
		return &semantic.Model{
			Entities: []semantic.Entity{
				{Name: "cars", Table: "cars", PrimaryKey: "car_id", Columns: []semantic.Column{
					col("car_id", quarry.TypeInt), {Name: "status", Type: quarry.TypeText, Values: status}}},
				{Name: "maintenance_log", Table: "maintenance_log", PrimaryKey: "log_id", TimeColumn: "service_dt", Columns: []semantic.Column{
					col("log_id", quarry.TypeInt), col("car_id", quarry.TypeInt), col("service_dt", quarry.TypeDate), col("cost", quarry.TypeFloat)}},
			},
			Relationships: []semantic.Relationship{{From: "maintenance_log", FromColumn: "car_id", To: "cars", ToColumn: "car_id", Cardinality: semantic.ManyToOne}},
		}
	}
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	m := model([]string{"available", "rented"})
	metricHolds(t, New(m, nil), m, "total maintenance cost in 2025", "SUM(maintenance_log.cost)", asOf)
	m = model([]string{"available", "maintenance"})
	pl := New(m, nil).Plan("total maintenance cost in 2025", asOf)
	if pl.Query != nil {
		for _, f := range pl.Query.Filters {
			if f.Field == "cars.status" {
				t.Errorf("the value and the table both read: %+v", pl.Query)
			}
		}
	}
}

// TestWholeFlagAndDirectLink: "late" and "paid" name the yes/no columns
// is_late and is_paid whole, not late_fee or paid_dt (found from outside:
// asked which); a verb between two tables one reference joins is read by
// that reference, not asked against a way round through a third.
func TestWholeFlagAndDirectLink(t *testing.T) {
	col := func(name string, typ quarry.Type) semantic.Column { return semantic.Column{Name: name, Type: typ} }
	flag := func(name string) semantic.Column {
		return semantic.Column{Name: name, Type: quarry.TypeInt, Values: []string{"0", "1"}}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "departments", Table: "departments", PrimaryKey: "dept_id", Label: "dept_name", Columns: []semantic.Column{col("dept_id", quarry.TypeInt), col("dept_name", quarry.TypeText)}},
			{Name: "instructors", Table: "instructors", PrimaryKey: "instructor_id", Columns: []semantic.Column{col("instructor_id", quarry.TypeInt), col("dept_id", quarry.TypeInt)}},
			{Name: "courses", Table: "courses", PrimaryKey: "course_id", Columns: []semantic.Column{col("course_id", quarry.TypeInt), col("dept_id", quarry.TypeInt), col("instructor_id", quarry.TypeInt)}},
			{Name: "rentals", Table: "rentals", PrimaryKey: "rental_id", Columns: []semantic.Column{col("rental_id", quarry.TypeInt), flag("is_late"), col("late_fee", quarry.TypeFloat)}},
			{Name: "invoices", Table: "invoices", PrimaryKey: "invoice_id", Columns: []semantic.Column{col("invoice_id", quarry.TypeInt), flag("is_paid"), col("paid_amt", quarry.TypeFloat)}},
			{Name: "claims", Table: "claims", PrimaryKey: "claim_id", Columns: []semantic.Column{col("claim_id", quarry.TypeInt), col("paid_dt", quarry.TypeDate)}},
			{Name: "members", Table: "members", PrimaryKey: "member_id", Columns: []semantic.Column{col("member_id", quarry.TypeInt), col("branch_id", quarry.TypeInt),
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled"}}}},
			{Name: "trainers", Table: "trainers", PrimaryKey: "trainer_id", Columns: []semantic.Column{col("trainer_id", quarry.TypeInt), flag("is_active")}},
			{Name: "branches", Table: "branches", PrimaryKey: "branch_id", Label: "branch_name", Columns: []semantic.Column{col("branch_id", quarry.TypeInt), col("branch_name", quarry.TypeText)}},
			{Name: "visits", Table: "visits", PrimaryKey: "visit_id", Columns: []semantic.Column{col("visit_id", quarry.TypeInt), col("member_id", quarry.TypeInt), col("branch_id", quarry.TypeInt)}},
		},
		Relationships: []semantic.Relationship{
			{From: "instructors", FromColumn: "dept_id", To: "departments", ToColumn: "dept_id", Cardinality: semantic.ManyToOne},
			{From: "courses", FromColumn: "dept_id", To: "departments", ToColumn: "dept_id", Cardinality: semantic.ManyToOne},
			{From: "courses", FromColumn: "instructor_id", To: "instructors", ToColumn: "instructor_id", Cardinality: semantic.ManyToOne},
			{From: "members", FromColumn: "branch_id", To: "branches", ToColumn: "branch_id", Cardinality: semantic.ManyToOne},
			{From: "visits", FromColumn: "member_id", To: "members", ToColumn: "member_id", Cardinality: semantic.ManyToOne},
			{From: "visits", FromColumn: "branch_id", To: "branches", ToColumn: "branch_id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	metricHolds(t, p, m, "how many late rentals", "rentals.is_late = 1", asOf)
	metricHolds(t, p, m, "how many paid invoices", "invoices.is_paid = 1", asOf)
	metricHolds(t, p, m, "total late fee", "SUM(rentals.late_fee)", asOf)
	metricHolds(t, p, m, "which department handled the most courses", "JOIN departments ON departments.dept_id = courses.dept_id", asOf)
	// A value of the word stays read; a total is of the amount.
	metricHolds(t, p, m, "how many active members do we have", "members.status = 'active'", asOf)
	metricHolds(t, p, m, "total paid", "SUM(invoices.paid_amt)", asOf)
	// A way round through rows that refer to both ends (a visit, to its
	// member and its branch) is another reading: asked.
	if pl := p.Plan("which branch served the most members", asOf); pl.Kind != KindClarify {
		t.Errorf("through visits: %s %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestEventRowsHoldNoPeriod: rows dated by the event each records are
// events, whatever ends some of them: "average fine" of fines issued on
// issued_dt and waived on waived_dt (an end) is the amount averaged, not
// refused as a mix of past and current rows (found from outside: "average
// rental cost" refused for cancelled_at).
func TestEventRowsHoldNoPeriod(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "fines", Table: "fines", PrimaryKey: "fine_id", TimeColumn: "issued_dt", Columns: []semantic.Column{
		{Name: "fine_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat},
		{Name: "issued_dt", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
		{Name: "waived_dt", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}}}
	metricHolds(t, New(m, nil), m, "average fine", "AVG(fines.amount)", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC))
}

// TestOutcomeValuePast: a value that names an outcome as a bare verb is
// read in its past form ("failed" for fail; found from outside: refused);
// "opened" is never the status open.
func TestOutcomeValuePast(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "inspections", Table: "inspections", PrimaryKey: "insp_id", TimeColumn: "insp_dt", Columns: []semantic.Column{
			{Name: "insp_id", Type: quarry.TypeInt}, {Name: "insp_dt", Type: quarry.TypeDate},
			{Name: "result", Type: quarry.TypeText, Values: []string{"fail", "pass"}}}},
		{Name: "tickets", Table: "tickets", PrimaryKey: "ticket_id", TimeColumn: "opened_dt", Columns: []semantic.Column{
			{Name: "ticket_id", Type: quarry.TypeInt}, {Name: "opened_dt", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"open", "closed"}}}}}}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	metricHolds(t, p, m, "how many inspections failed in 2025", "inspections.result = 'fail'", asOf)
	pl := p.Plan("how many tickets opened in 2025", asOf)
	if pl.Query != nil {
		for _, f := range pl.Query.Filters {
			if f.Field == "tickets.status" {
				t.Errorf("\"opened\" read as the status open: %+v", pl.Query)
			}
		}
	}
}

// metricSQL plans q as a metric and compiles it, or says why it is none.
func metricSQL(p *Planner, m *semantic.Model, q string, asOf time.Time) (string, error) {
	pl := p.Plan(q, asOf)
	if pl.Kind != KindMetric {
		return "", fmt.Errorf("kind %s: %s", pl.Kind, pl.Reason)
	}
	c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
	if err != nil {
		return "", err
	}
	return c.SQL, nil
}

// TestValueNamingTheRowsOwnEvent: a status value that is the verb of the
// date every row has ("booked", booked_at) names, beside a period, the
// event that made the rows, not the rows still in that state (found from
// outside: "how many reservations were booked last month" counted the 47
// still 'booked' of 151 booked in May, at confidence 1.00). Without a
// period, and for a value that is not that verb, the value stays a filter.
func TestValueNamingTheRowsOwnEvent(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "reservations", Table: "reservations", PrimaryKey: "res_id", TimeColumn: "booked_at", Columns: []semantic.Column{
			{Name: "res_id", Type: quarry.TypeInt}, {Name: "booked_at", Type: quarry.TypeDate, TimeRole: "event"}, {Name: "chk_in_dt", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "cancelled", "checked_out", "no_show"}}}}}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"how many reservations were booked last month", "reservations booked this month vs last month", "number of reservations booked in 2025"} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || strings.Contains(sql, "status") || !strings.Contains(sql, "booked_at >=") {
			t.Errorf("%q: %v\n%s", q, err, sql)
		}
	}
	metricHolds(t, p, m, "how many booked reservations", "reservations.status = 'booked'", asOf)
	metricHolds(t, p, m, "how many reservations were cancelled last month", "reservations.status = 'cancelled'", asOf)
}

// TestValueNamingAnEventOfItsOwnDate: the event reading of a value holds
// for a date that is not the table's own ("appointments were booked last
// month": booked_at, where appointments are dated by appointment_date;
// "orders were shipped last month": shipped_at), and not where the words
// name a status or a state (found from outside: "orders with status
// ordered were placed last month" dropped the status asked for).
func TestValueNamingAnEventOfItsOwnDate(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "appointments", Table: "appointments", PrimaryKey: "id", TimeColumn: "appointment_date", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "appointment_date", Type: quarry.TypeDate}, {Name: "booked_at", Type: quarry.TypeDate},
			{Name: "customer_id", Type: quarry.TypeInt},
			{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "completed", "cancelled", "no_show"}}}},
		{Name: "customers", Table: "customers", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "first_name", Type: quarry.TypeText, Values: []string{"Maria", "Diego"}},
			{Name: "last_name", Type: quarry.TypeText, Values: []string{"Garcia", "Lopez"}}}},
		{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "ordered_at", Type: quarry.TypeDate}, {Name: "shipped_at", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"ordered", "shipped", "delivered", "cancelled"}}}},
		{Name: "tickets", Table: "tickets", PrimaryKey: "id", TimeColumn: "submitted_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "submitted_at", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"submitted", "open", "resolved"}}}}},
		Relationships: []semantic.Relationship{{From: "appointments", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"how many appointments were booked last month": "appointments.booked_at >= '2026-05-01'",
		"how many orders were shipped last month":      "orders.shipped_at >= '2026-05-01'",
	} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || strings.Contains(sql, "status") || !strings.Contains(sql, want) {
			t.Errorf("%q: %v\n%s", q, err, sql)
		}
	}
	// Without a period: the rows that had the event, whatever their
	// state now (found from outside: "how many appointments did Maria
	// Garcia book" counted the 3 of her 7 still 'booked').
	for q, want := range map[string]string{
		"how many orders were shipped":                         "orders.shipped_at IS NOT NULL",
		"how many appointments were booked":                    "appointments.booked_at IS NOT NULL",
		"how many appointments did Maria Garcia book":          "appointments.booked_at IS NOT NULL",
		"how many appointments did Maria Garcia book in April": "appointments.booked_at >= '2026-04-01'",
		// Cut by month on that date, the period too (found: the months
		// were the rows' own date while the period was on shipped_at).
		"how many orders were shipped by month":        "GROUP BY strftime('%Y-%m-01', orders.shipped_at)",
		"orders shipped by month":                      "GROUP BY strftime('%Y-%m-01', orders.shipped_at)",
		"orders shipped by month in 2025":              "WHERE orders.shipped_at >= '2025-01-01'",
		"how many orders were shipped monthly in 2025": "GROUP BY strftime('%Y-%m-01', orders.shipped_at)",
	} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || strings.Contains(sql, "status") || !strings.Contains(sql, want) {
			t.Errorf("%q: %v\n%s", q, err, sql)
		}
	}
	// The checks hold that plan to the passive it answers ("paid" of
	// paid_at), not to "did … pay" (found from outside: "how many
	// invoices did Hooli Systems pay in 2025" was refused for a period on
	// a date the question does not name).
	if pl := p.Plan("how many appointments did Maria Garcia book in April", asOf); pl.Read != "how many appointments were booked by Maria Garcia in April" {
		t.Errorf("read as %q", pl.Read)
	}
	// A state said as one stays the state.
	for q, want := range map[string]string{
		"how many orders are shipped":      "orders.status = 'shipped'",
		"how many shipped orders":          "orders.status = 'shipped'",
		"how many appointments are booked": "appointments.status = 'booked'",
	} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || !strings.Contains(sql, want) {
			t.Errorf("%q: %v\n%s", q, err, sql)
		}
	}
	for q, want := range map[string]string{
		"how many orders with status ordered were placed last month":       "orders.status = 'ordered'",
		"how many tickets with status submitted were submitted last month": "tickets.status = 'submitted'",
		"how many submitted tickets were submitted in 2025":                "tickets.status = 'submitted'",
		"how many submitted tickets last month":                            "tickets.status = 'submitted'",
	} {
		sql, err := metricSQL(p, m, q, asOf)
		if err != nil || strings.Count(sql, want) != 1 {
			t.Errorf("%q: the status asked for is gone: %v\n%s", q, err, sql)
		}
	}
}

// TestStatePeriodToCome: a period still to come stays on the rows' own
// date; the day a row came to be in its state has passed (found from
// outside: "how many appointments are booked for July 2026", asked on
// June 30th, answered 0 on booked_at, against 25 by appointment date).
func TestStatePeriodToCome(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "appointments", Table: "appointments", PrimaryKey: "id", TimeColumn: "appointment_date", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "appointment_date", Type: quarry.TypeDate}, {Name: "booked_at", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "completed", "cancelled"}}}}}}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	metricHolds(t, p, m, "how many appointments are booked for July 2026", "appointments.appointment_date >= '2026-07-01'", asOf)
	metricHolds(t, p, m, "how many appointments are booked for July 2026", "appointments.status = 'booked'", asOf)
	metricHolds(t, p, m, "how many booked appointments in May 2026", "appointments.booked_at >= '2026-05-01'", asOf)
}
