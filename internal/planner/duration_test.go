package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDurations: how long rows last, from the date they start to the
// date they end, averaged over the rows that have ended ("average
// subscription length", "how long do subscriptions last", "average time
// to resolve tickets", in days or hours); refused where a table has no
// start and one end, or several ends the words do not choose between, and
// never a sum (found from outside: "average subscription length" and
// "average tenure" refused as words not understood).
func TestDurations(t *testing.T) {
	col := func(name string, typ quarry.Type, role string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, TimeRole: role}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "subscriptions", Table: "subscriptions", PrimaryKey: "id", TimeColumn: "started_at", Columns: []semantic.Column{
				col("id", quarry.TypeInt, ""), col("started_at", quarry.TypeDate, semantic.TimeRoleStart), col("ended_at", quarry.TypeDate, semantic.TimeRoleEnd),
				{Name: "plan", Type: quarry.TypeText, Values: []string{"basic", "pro"}}}},
			{Name: "tickets", Table: "tickets", PrimaryKey: "ticket_id", TimeColumn: "opened_at", Columns: []semantic.Column{
				col("ticket_id", quarry.TypeInt, ""), col("opened_at", quarry.TypeTimestamp, semantic.TimeRoleStart),
				col("resolved_at", quarry.TypeTimestamp, semantic.TimeRoleEnd), col("closed_at", quarry.TypeTimestamp, semantic.TimeRoleEnd),
				{Name: "priority", Type: quarry.TypeText, Values: []string{"high", "low"}}}},
			{Name: "employees", Table: "employees", PrimaryKey: "emp_id", TimeColumn: "hire_date", Columns: []semantic.Column{
				col("emp_id", quarry.TypeInt, ""), col("hire_date", quarry.TypeDate, semantic.TimeRoleStart), col("termination_date", quarry.TypeDate, semantic.TimeRoleEnd)}},
			{Name: "orders", Table: "orders", PrimaryKey: "order_id", TimeColumn: "ordered_at", Columns: []semantic.Column{
				col("order_id", quarry.TypeInt, ""), col("ordered_at", quarry.TypeTimestamp, semantic.TimeRoleEvent)}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	sub := "AVG((julianday(subscriptions.ended_at) - julianday(subscriptions.started_at)))"
	for _, tt := range []struct {
		q    string
		want []string // nil: refused
	}{
		{"average subscription length", []string{sub, "subscriptions.ended_at IS NOT NULL"}},
		{"what's the average length of a subscription", []string{sub}},
		{"how long do subscriptions last on average", []string{sub}},
		{"average subscription duration by plan", []string{sub, "GROUP BY"}},
		{"average subscription length for pro in 2025", []string{sub, "subscriptions.plan = 'pro'", "'2025-01-01'"}},
		{"average time to resolve tickets in hours", []string{"AVG((julianday(tickets.resolved_at) - julianday(tickets.opened_at)) * 24)"}},
		{"average resolution time of high priority tickets", []string{"julianday(tickets.resolved_at)", "tickets.priority = 'high'"}},
		{"average time to close tickets", []string{"julianday(tickets.closed_at)"}},
		{"average time to end a subscription", []string{sub}},
		// Days or hours in place of time (found from outside: "average
		// days to close a ticket" not understood).
		{"average days to close a ticket", []string{"AVG((julianday(tickets.closed_at) - julianday(tickets.opened_at)))"}},
		{"average number of days to resolve tickets", []string{"julianday(tickets.resolved_at)"}},
		{"average hours to resolve high priority tickets", []string{"julianday(tickets.resolved_at)", "* 24", "tickets.priority = 'high'"}},
		{"how long do employees stay on average", []string{"AVG((julianday(employees.termination_date) - julianday(employees.hire_date)))"}},
		// Tenure is mostly of those still here, whose end is empty:
		// not read as the length of those who left.
		{"average employee tenure", nil},
		// No table named, and several whose rows start and end: which?
		{"average length of stay", nil},
		// Two ends and nothing to choose: which?
		{"average ticket duration", nil},
		// No end: nothing lasts.
		{"average order duration", nil},
		// A duration is not added up.
		{"total subscription length", nil},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.want == nil {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v %+v; want a refusal", pl.Query, pl.AdHoc)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s (%s)", pl.Kind, pl.Reason)
			}
			c, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(c.SQL, w) {
					t.Errorf("SQL does not hold %q:\n%s", w, c.SQL)
				}
			}
		})
	}
}

// TestLengthOfStay: a hotel's "average length of stay" is the days from
// check-in to check-out of its bookings, the one table whose rows start
// and end (found from outside: refused).
func TestLengthOfStay(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "guests", Table: "guests", PrimaryKey: "guest_id", Columns: []semantic.Column{{Name: "guest_id", Type: quarry.TypeInt}}},
		{Name: "bookings", Table: "bookings", PrimaryKey: "booking_id", TimeColumn: "booked_at", Columns: []semantic.Column{
			{Name: "booking_id", Type: quarry.TypeInt}, {Name: "booked_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "check_in", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "check_out", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
	}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"average length of stay", "average stay in 2025"} {
		pl := New(m, nil).Plan(q, asOf)
		if pl.Kind != KindMetric || len(pl.AdHoc) != 1 || pl.AdHoc[0].Expr != "AVG(days_between(bookings.check_in, bookings.check_out))" {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.AdHoc)
		}
	}
	// With hotels that open and close, "by hotel" is no hotel's own
	// length (found from outside: the closed hotel's days open, at 1.00).
	m.Entities = append(m.Entities, semantic.Entity{Name: "hotels", Table: "hotels", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
		{Name: "opened_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "closed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}})
	m.Entities[1].Columns = append(m.Entities[1].Columns, semantic.Column{Name: "hotel_id", Type: quarry.TypeInt})
	m.Relationships = []semantic.Relationship{{From: "bookings", FromColumn: "hotel_id", To: "hotels", ToColumn: "id", Cardinality: semantic.ManyToOne}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"average length of stay by hotel", "average length by hotel"} {
		if pl := New(m, nil).Plan(q, asOf); pl.Kind == KindMetric && len(pl.AdHoc) == 1 && strings.Contains(pl.AdHoc[0].Expr, "hotels.") {
			t.Errorf("%q: %s %+v; want no hotel's own length", q, pl.Kind, pl.AdHoc)
		}
	}
}

// TestDurationByItsEvent: "average delivery time" runs from a shipment's
// start to the date named for delivery, an event of its own rather than
// an end, and by carrier where the carriers have no date (found from
// outside: refused, "carriers has no date named for delivery").
func TestDurationByItsEvent(t *testing.T) {
	col := func(name string, typ quarry.Type, role string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, TimeRole: role}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "carriers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{col("id", quarry.TypeInt, ""), col("name", quarry.TypeText, "")}},
			{Name: "shipments", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{col("id", quarry.TypeInt, ""), col("carrier_id", quarry.TypeInt, ""),
				col("created_at", quarry.TypeDate, semantic.TimeRoleStart), col("delivered_at", quarry.TypeDate, semantic.TimeRoleEvent)}},
		},
		Relationships: []semantic.Relationship{{From: "shipments", FromColumn: "carrier_id", To: "carriers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for q, grouped := range map[string]bool{
		"average delivery time":                         false,
		"average delivery time by carrier":              true,
		"average time to deliver shipments by carrier":  true,
		"average delivery time of shipments by carrier": true,
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || len(pl.AdHoc) == 0 || !strings.Contains(pl.AdHoc[0].Expr, "shipments.created_at, shipments.delivered_at") {
			t.Errorf("%q: %s %q %+v; want days from created_at to delivered_at", q, pl.Kind, pl.Reason, pl.AdHoc)
			continue
		}
		if got := len(pl.Query.Dimensions) > 0; got != grouped {
			t.Errorf("%q: dimensions %+v", q, pl.Query.Dimensions)
		}
	}
}

// TestDurationOfTheTableNamed: "average loan duration for returned loans"
// is the days from checking out to returning of the loans, the end a word
// of the question names, not the length of the borrowers' memberships,
// the one table with a single end (found from outside: answered with the
// patrons' membership length at 1.00). A question read as about another
// table than the one whose duration it asks is refused.
func TestDurationOfTheTableNamed(t *testing.T) {
	col := func(name string, typ quarry.Type, role string) semantic.Column {
		return semantic.Column{Name: name, Type: typ, TimeRole: role}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "patrons", PrimaryKey: "patron_id", TimeColumn: "joined_on", Columns: []semantic.Column{col("patron_id", quarry.TypeInt, ""),
				col("joined_on", quarry.TypeDate, semantic.TimeRoleStart), col("membership_expires", quarry.TypeDate, semantic.TimeRoleEnd)}},
			{Name: "loans", PrimaryKey: "loan_id", TimeColumn: "checked_out_on", Columns: []semantic.Column{col("loan_id", quarry.TypeInt, ""), col("patron_id", quarry.TypeInt, ""),
				col("checked_out_on", quarry.TypeDate, ""), col("due_on", quarry.TypeDate, semantic.TimeRoleEnd), col("returned_on", quarry.TypeDate, semantic.TimeRoleEnd),
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "overdue", "returned"}}}},
		},
		Relationships: []semantic.Relationship{{From: "loans", FromColumn: "patron_id", To: "patrons", ToColumn: "patron_id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"average loan duration for returned loans":   "AVG(days_between(loans.checked_out_on, loans.returned_on))",
		"average length of loans that were returned": "AVG(days_between(loans.checked_out_on, loans.returned_on))",
		"average patron duration":                    "AVG(days_between(patrons.joined_on, patrons.membership_expires))",
		// Two ends and no word for either: which? The suggestion is a
		// question that is answered.
		"average loan duration":  "",
		"how long do loans last": "",
		// Read as a count of patrons: refused, not their memberships.
		"average duration of loans to due on": "",
	} {
		pl := p.Plan(q, asOf)
		if want == "" {
			if pl.Kind == KindMetric || pl.Kind == KindRows {
				t.Errorf("%q: answered %+v; want a refusal", q, pl.AdHoc)
			}
			continue
		}
		if pl.Kind != KindMetric || len(pl.AdHoc) != 1 || pl.AdHoc[0].Expr != want {
			t.Errorf("%q: %s %q %+v; want %s", q, pl.Kind, pl.Reason, pl.AdHoc, want)
		}
	}
	refused := p.Plan("average loan duration", asOf)
	said := refused.Reason[strings.Index(refused.Reason, "“")+len("“") : strings.Index(refused.Reason, "”")]
	if pl := p.Plan(said, asOf); pl.Kind != KindMetric || len(pl.AdHoc) != 1 || pl.AdHoc[0].Expr != "AVG(days_between(loans.checked_out_on, loans.returned_on))" {
		t.Errorf("the suggestion %q (%s): %s %q %+v", said, refused.Reason, pl.Kind, pl.Reason, pl.AdHoc)
	}
}

// TestOwnRowAggregated: "average rating by hotel", where the hotels hold
// their stars and the reviews below them their ratings, is refused,
// naming the reviews (found from outside: each hotel's stars, at 1.00);
// "average rating of reviews by hotel" is answered, and "total seats by
// aircraft", with no table below, is each one's own.
func TestOwnRowAggregated(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "hotels", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "star_rating", Type: quarry.TypeInt}}},
			{Name: "reviews", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "hotel_id", Type: quarry.TypeInt},
				{Name: "rating", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "reviews", FromColumn: "hotel_id", To: "hotels", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	if pl := p.Plan("average rating by hotel", asOf); pl.Kind != KindUnanswered || !strings.Contains(pl.Reason, "rating of reviews by hotel") {
		t.Errorf("average rating by hotel: %s %q %+v; want refused, naming the reviews", pl.Kind, pl.Reason, pl.AdHoc)
	}
	if pl := p.Plan("average rating of reviews by hotel", asOf); pl.Kind != KindMetric {
		t.Errorf("of reviews: %s %q", pl.Kind, pl.Reason)
	}
}
