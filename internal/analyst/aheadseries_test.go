package analyst

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestSeriesAhead: with no period asked, visits booked ahead of today are
// not ranked or charted as visits that happened (found from outside: "which
// month had the most visits" answered a month of bookings, at 0.85, with a
// warning that it was short). The ranking takes the whole months that are
// over; the series ends today; a table with no rows ahead is as before.
func TestSeriesAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE visits (id INTEGER PRIMARY KEY, visit_date DATE);
CREATE TABLE calls (id INTEGER PRIMARY KEY, called_on DATE);
INSERT INTO visits (visit_date) VALUES ('2026-03-02'), ('2026-03-09'), ('2026-03-16'),
 ('2026-04-01'), ('2026-04-02'), ('2026-04-03'), ('2026-04-04'),
 ('2026-06-10'), ('2026-06-29'),
 ('2026-07-01'), ('2026-07-02'), ('2026-07-03'), ('2026-07-04'), ('2026-07-05');
INSERT INTO calls (called_on) VALUES ('2026-04-01'), ('2026-04-02'), ('2026-04-03'), ('2026-05-01'), ('2026-05-02'), ('2026-05-03'), ('2026-05-04'), ('2026-06-01');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "visits", Table: "visits", PrimaryKey: "id", TimeColumn: "visit_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "visit_date", Type: quarry.TypeDate}}},
			{Name: "calls", Table: "calls", PrimaryKey: "id", TimeColumn: "called_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "called_on", Type: quarry.TypeDate}}},
		},
		Metrics: []semantic.Metric{{Name: "visits", Entity: "visits", Expr: "COUNT(visits.id)"}, {Name: "calls", Entity: "calls", Expr: "COUNT(calls.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	ask := func(q string) *quarry.Table {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Fatalf("%q: %v (%s)", q, err, out.Status)
		}
		return out.Table
	}
	month := func(v any) string { d, _ := time.Parse("2006-01-02", v.(string)); return d.Format("2006-01") }
	if tb := ask("which month had the most visits"); month(tb.Rows[0][0]) != "2026-04" || tb.Rows[0][1] != int64(4) {
		t.Errorf("most visits: %v, want 2026-04 with 4 (July's are booked ahead)", tb.Rows)
	}
	if tb := ask("visits by month"); month(tb.Rows[len(tb.Rows)-1][0]) != "2026-06" || tb.Rows[len(tb.Rows)-1][1] != int64(2) {
		t.Errorf("visits by month: last row %v, want 2026-06 with 2", tb.Rows[len(tb.Rows)-1])
	}
	// A total with no period, and one of a period not over: what has
	// happened (found from outside: scheduled invoices added to "total
	// invoice amount" and to "invoices issued in December", at 1.00).
	count := func(q string) any { t.Helper(); return ask(q).Rows[0][0] }
	for q, want := range map[string]int64{
		"how many visits":                      9,
		"how many visits were there this year": 9,
		"how many visits this year":            9,
		// A question that looks ahead takes the period whole.
		"how many visits will there be this year": 14,
	} {
		if got := count(q); got != want {
			t.Errorf("%q: %v, want %d", q, got, want)
		}
	}
	// A list is kept to the day as its count is (found from outside:
	// "orders from Sakura" listed 540 rows where the count said 523).
	if tb := ask("list the visits"); len(tb.Rows) != 9 {
		t.Errorf("list the visits: %d rows, want the 9 that happened", len(tb.Rows))
	}
	// No call is dated ahead, and today ends June: June ranks.
	if tb := ask("which month had the fewest calls"); month(tb.Rows[0][0]) != "2026-06" {
		t.Errorf("fewest calls: %v, want 2026-06", tb.Rows)
	}
	// Asked on June 15th, June is not over: it is left out (found from
	// outside: "which month had the fewest orders" named the month of
	// today, five days of it, at 0.85).
	out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, "which month had the fewest calls", time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil || len(out.Table.Rows) == 0 || month(out.Table.Rows[0][0]) != "2026-04" {
		t.Errorf("fewest calls as of June 15th: %v %+v", err, out.Table)
	}
}

// TestAheadDate: a date is asked for past today where it is set ahead by
// what it means or the question looks ahead, never where the question
// speaks of what was; a cancellation dated ahead is one to come.
func TestAheadDate(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "leases", Columns: []semantic.Column{{Name: "end_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}, {Name: "signed_on", Type: quarry.TypeDate}}},
		{Name: "subscriptions", Columns: []semantic.Column{{Name: "cancelled_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}, {Name: "renewsOn", Type: quarry.TypeDate}}},
		{Name: "appointments", Columns: []semantic.Column{{Name: "scheduled_for", Type: quarry.TypeDate}}},
		{Name: "bookings", Columns: []semantic.Column{{Name: "booked_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "booked_for", Type: quarry.TypeDate}}},
	}}
	for _, tt := range []struct {
		field, q string
		want     bool
	}{
		{"leases.end_date", "how many leases end this month", true},
		{"leases.end_date", "how many leases ended this month", false},
		{"leases.signed_on", "how many leases were signed this month", false},
		{"leases.signed_on", "leases signed this month", false},
		{"subscriptions.cancelled_on", "cancellations by month in 2026", false},
		{"subscriptions.cancelled_on", "how many subscriptions will be cancelled this month", true},
		{"subscriptions.renewsOn", "subscriptions by renewal month", true},
		{"appointments.scheduled_for", "how many appointments this month", true},
		{"appointments.scheduled_for", "how many appointments did we have this month", false},
		// The day a booking was made is none set ahead; the day it is
		// for is.
		{"bookings.booked_at", "how many bookings", false},
		{"bookings.booked_for", "how many bookings", true},
	} {
		if got := aheadDate(m, tt.field, tt.q); got != tt.want {
			t.Errorf("%s, %q: %v, want %v", tt.field, tt.q, got, tt.want)
		}
	}
}

// TestAverageAhead: an average per row of another table keeps its count to
// what has happened (found from outside: "average number of visits per
// pet" took in 49 visits booked ahead, 3.41 for 3.29).
func TestAverageAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE visits (id INTEGER PRIMARY KEY, pet_id INTEGER REFERENCES pets(id), visit_date DATE);
INSERT INTO pets VALUES (1, 'Rex'), (2, 'Tom');
INSERT INTO visits (pet_id, visit_date) VALUES (1, '2026-05-01'), (1, '2026-06-01'), (2, '2026-06-02'), (2, '2026-06-20'), (1, '2026-07-03'), (2, '2026-07-04');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "pets", Table: "pets", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "visits", Table: "visits", PrimaryKey: "id", TimeColumn: "visit_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "pet_id", Type: quarry.TypeInt}, {Name: "visit_date", Type: quarry.TypeDate}}},
		},
		Relationships: []semantic.Relationship{{From: "visits", FromColumn: "pet_id", To: "pets", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "visits", Entity: "visits", Expr: "COUNT(visits.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "average number of visits per pet", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 {
		t.Fatalf("%v %s", err, out.Status)
	}
	if got, _ := semantic.NumberOf(out.Table.Rows[0][0]); got != 2 {
		t.Errorf("visits per pet: %v, want 2 (4 visits made, 2 pets; 2 booked ahead)", got)
	}
}

// TestAverageOverBegun: "average enrollments per section", where next
// term's sections start after today, is over the sections begun and their
// enrollments made (found from outside: enrollments to date over every
// section, next term's too, 25.30 for 26.32, at 1.00).
func TestAverageOverBegun(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE sections (id INTEGER PRIMARY KEY, starts_on DATE);
CREATE TABLE enrollments (id INTEGER PRIMARY KEY, section_id INTEGER REFERENCES sections(id), enrolled_at DATE);
INSERT INTO sections VALUES (1, '2026-02-01'), (2, '2026-02-01'), (3, '2026-09-01'), (4, '2026-09-01');
INSERT INTO enrollments (section_id, enrolled_at) VALUES (1, '2026-01-10'), (1, '2026-01-11'), (1, '2026-01-12'), (2, '2026-01-10'),
 (3, '2026-06-01'), (3, '2026-08-01'), (4, '2026-08-02');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "sections", Table: "sections", PrimaryKey: "id", TimeColumn: "starts_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "starts_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "enrollments", Table: "enrollments", PrimaryKey: "id", TimeColumn: "enrolled_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "section_id", Type: quarry.TypeInt}, {Name: "enrolled_at", Type: quarry.TypeDate}}},
		},
		Relationships: []semantic.Relationship{{From: "enrollments", FromColumn: "section_id", To: "sections", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "enrollments", Entity: "enrollments", Expr: "COUNT(enrollments.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "average number of enrollments per section", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 {
		t.Fatalf("%v %s", err, out.Status)
	}
	if got, _ := semantic.NumberOf(out.Table.Rows[0][0]); got != 2 {
		t.Errorf("enrollments per section: %v, want 2 (4 enrollments of the 2 sections begun; the June one is of a section to come)", got)
	}
}

// TestInForceBegun: rows kept by a state of being in force now ('active')
// and dated by their start are those begun: a membership that starts
// next week, marked active already, is none yet (found from outside: 3
// pre-registered counted, at 1.00). A value with a word of time in it
// ("West End") does not make the question look ahead; "start next month"
// does, and counts the month whole.
func TestInForceBegun(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE memberships (id INTEGER PRIMARY KEY, start_date DATE, status TEXT, club TEXT);
INSERT INTO memberships (start_date, status, club) VALUES ('2026-01-01', 'active', 'West End'), ('2026-03-01', 'active', 'West End'), ('2026-02-01', 'expired', 'West End'),
 ('2026-07-04', 'active', 'West End'), ('2026-07-08', 'active', 'Harbour');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "memberships", Table: "memberships", PrimaryKey: "id", TimeColumn: "start_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "start_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
			{Name: "status", Type: quarry.TypeText, Values: []string{"active", "expired"}},
			{Name: "club", Type: quarry.TypeText, Values: []string{"Harbour", "West End"}}}}},
		Metrics: []semantic.Metric{{Name: "memberships", Entity: "memberships", Expr: "COUNT(memberships.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int{
		"how many active memberships":              2,
		"how many active memberships at West End":  2,
		"list the active memberships at West End":  2,
		"how many memberships start next month":    2,
		"how many expired memberships at West End": 1,
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Errorf("%q: %v (%s)", q, err, out.Status)
			continue
		}
		got := len(out.Table.Rows)
		if len(out.Table.Columns) == 1 && len(out.Table.Rows) == 1 {
			n, _ := semantic.NumberOf(out.Table.Rows[0][0])
			got = int(n)
		}
		if got != want {
			t.Errorf("%q: %d, want %d", q, got, want)
		}
	}
}

// TestStateKeptAhead: rows kept, or grouped, by the state they hold now
// are counted whatever day they are for: "how many rentals are reserved"
// counts the reservations, all picked up after today (found from
// outside: 0, at 1.00), and the cancelled bookings of days to come are
// cancelled already; a count with no state still ends at the as-of day.
func TestStateKeptAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE rentals (id INTEGER PRIMARY KEY, picked_up_at DATE, status TEXT);
INSERT INTO rentals (picked_up_at, status) VALUES ('2026-06-01', 'completed'), ('2026-06-10', 'completed'), ('2026-06-20', 'cancelled'),
 ('2026-07-05', 'reserved'), ('2026-07-06', 'reserved'), ('2026-07-07', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "rentals", Table: "rentals", PrimaryKey: "id", TimeColumn: "picked_up_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "picked_up_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "reserved"}}}}},
		Metrics: []semantic.Metric{{Name: "rentals", Entity: "rentals", Expr: "COUNT(rentals.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int64{
		"how many rentals are reserved":  2,
		"how many rentals are cancelled": 2,
		"how many rentals":               3,
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || out.Table.Rows[0][0] != want {
			t.Errorf("%q: %v %+v, want %d", q, err, out.Table, want)
		}
	}
}

// TestShareOfWhatHappened: a share of the flights that came to a state in
// a period, on a date set ahead (scheduled_departure), is of the flights
// up to the as-of day: those scheduled after it have not flown (found from
// outside: 11.2% for 12.1%, at 1.00). A count of the period's flights is
// still of the whole period, as the date is set ahead.
func TestShareOfWhatHappened(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE flights (id INTEGER PRIMARY KEY, scheduled_departure DATE, status TEXT);
INSERT INTO flights (scheduled_departure, status) VALUES ('2026-06-01', 'delayed'), ('2026-06-10', 'arrived'), ('2026-06-20', 'arrived'), ('2026-06-25', 'arrived'),
 ('2026-07-05', 'scheduled'), ('2026-07-06', 'scheduled'), ('2026-07-07', 'scheduled'), ('2026-07-08', 'scheduled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "flights", Table: "flights", PrimaryKey: "id", TimeColumn: "scheduled_departure", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "scheduled_departure", Type: quarry.TypeDate},
			{Name: "status", Type: quarry.TypeText, Values: []string{"arrived", "delayed", "scheduled"}}}}},
		Metrics: []semantic.Metric{{Name: "flights", Entity: "flights", Expr: "COUNT(flights.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "share of flights delayed in 2026", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || fmt.Sprint(out.Table.Rows[0][0]) != "0.25" {
		t.Errorf("share delayed: %v %+v, want 0.25 (1 of the 4 flown)", err, out.Table)
	}
	out, err = a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, "how many flights in 2026", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || out.Table.Rows[0][0] != int64(8) {
		t.Errorf("flights in 2026: %v %+v, want the 8 scheduled", err, out.Table)
	}
}

// TestSetAheadInstead: "how many reservations do we have for next month",
// where booked_at holds no day after today and check_in does, counts the
// stays of next month not called off (found from outside: refused as a
// forecast, with 79 on the books); "orders next month", with no date set
// ahead, is still refused.
func TestSetAheadInstead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE reservations (id INTEGER PRIMARY KEY, booked_at DATE, check_in DATE, status TEXT);
INSERT INTO reservations (booked_at, check_in, status) VALUES ('2026-05-01', '2026-07-03', 'booked'), ('2026-06-01', '2026-07-20', 'booked'),
 ('2026-06-10', '2026-07-21', 'cancelled'), ('2026-06-11', '2026-08-02', 'booked'), ('2026-06-12', '2026-06-20', 'checked_out');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "reservations", Table: "reservations", PrimaryKey: "id", TimeColumn: "booked_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "booked_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "check_in", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
			{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "cancelled", "checked_out"}}}}},
		Metrics: []semantic.Metric{{Name: "reservations", Entity: "reservations", Expr: "COUNT(reservations.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC) // the analyst's clock's day
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many reservations do we have for next month", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 {
		t.Fatalf("%v %s", err, out.Status)
	}
	if got, _ := semantic.NumberOf(out.Table.Rows[0][0]); got != 2 {
		t.Errorf("reservations for next month: %v, want 2 (July's stays, the cancelled one left out)", got)
	}
	// Nothing set ahead: a forecast, refused.
	m.Entities[0].Columns[2].TimeRole = ""
	if out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "t2"}, "how many reservations do we have for next month", asOf); err == nil || !strings.Contains(err.Error(), "forecast") {
		t.Errorf("with no date set ahead: %v %s, want refused as a forecast", err, out.Status)
	}
}

// TestMadeAhead: rows dated after today by their making (orders placed,
// returns requested) are not made yet, whatever state they are marked
// with: "orders by status" leaves them out (found from outside: 858
// orders placed after the day counted, at 1.00), and "buyers who have
// never ordered" are those with no order placed by today (found from
// outside: 519 for 715).
func TestMadeAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE buyers (id INTEGER PRIMARY KEY, name TEXT, signed_up_at DATE);
CREATE TABLE orders (id INTEGER PRIMARY KEY, buyer_id INTEGER REFERENCES buyers(id), placed_at DATE, status TEXT);
INSERT INTO buyers VALUES (1, 'Ann', '2026-01-01'), (2, 'Bob', '2026-01-02'), (3, 'Cy', '2026-01-03');
INSERT INTO orders (buyer_id, placed_at, status) VALUES (1, '2026-05-01', 'delivered'), (1, '2026-06-01', 'placed'), (2, '2026-07-10', 'placed'), (2, '2026-07-11', 'placed');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "buyers", Table: "buyers", PrimaryKey: "id", Label: "name", TimeColumn: "signed_up_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "name", Type: quarry.TypeText}, {Name: "signed_up_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "placed_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "buyer_id", Type: quarry.TypeInt}, {Name: "placed_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"delivered", "placed"}}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "buyer_id", To: "buyers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	ask := func(q string) *quarry.Table {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil {
			t.Fatalf("%q: %v (%s)", q, err, out.Status)
		}
		return out.Table
	}
	if tb := ask("how many orders are placed"); fmt.Sprint(tb.Rows[0][0]) != "1" {
		t.Errorf("orders placed: %v, want 1 (two placed after the day)", tb.Rows)
	}
	if tb := ask("how many buyers have never ordered"); fmt.Sprint(tb.Rows[0][0]) != "2" {
		t.Errorf("never ordered: %v, want 2 (Bob's orders are to come)", tb.Rows)
	}
	// Counted too: Bob's two orders are to come (found from outside:
	// "customers with more than 20 orders" 55 for 52, at 1.00).
	if tb := ask("how many buyers have more than 1 order"); fmt.Sprint(tb.Rows[0][0]) != "1" {
		t.Errorf("more than 1 order: %v, want 1 (Ann)", tb.Rows)
	}
}

// TestCalledOffAhead: a count whose period runs past today on a date set
// ahead leaves out the rows called off: a cancelled appointment is none
// of next week's (found from outside: 167 for 151, at 1.00). Asked for
// by their status, they are counted; a period that is over is as it was.
func TestCalledOffAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE appointments (id INTEGER PRIMARY KEY, scheduled_for DATE, status TEXT);
INSERT INTO appointments (scheduled_for, status) VALUES ('2026-07-06', 'scheduled'), ('2026-07-07', 'cancelled'), ('2026-07-08', 'scheduled'),
 ('2026-06-22', 'completed'), ('2026-06-23', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "appointments", Table: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "scheduled_for", Type: quarry.TypeDate}, {Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "scheduled"}}}}},
		Metrics: []semantic.Metric{{Name: "appointments", Entity: "appointments", Expr: "COUNT(appointments.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"how many appointments next week":           "2",
		"how many cancelled appointments next week": "1",
		// Past too: a cancelled appointment did not take place (found
		// from outside: cancelled closings counted in "closings last
		// month", at 1.00).
		"how many appointments last week": "1",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
}

// TestCalledOffOnTheirDayOnly: of a period that is over, rows called off
// are left out where the date is the day their thing takes place (a
// closing's closed_on), not where it is the day each was made (an
// order's ordered_at: a cancelled order was still placed).
func TestCalledOffOnTheirDayOnly(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE closings (id INTEGER PRIMARY KEY, closed_on DATE, status TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at DATE, status TEXT);
INSERT INTO closings (closed_on, status) VALUES ('2026-05-04', 'completed'), ('2026-05-11', 'cancelled'), ('2026-05-18', 'completed');
INSERT INTO orders (ordered_at, status) VALUES ('2026-05-04', 'delivered'), ('2026-05-11', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "closings", Table: "closings", PrimaryKey: "id", TimeColumn: "closed_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "closed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "delivered"}}}},
		},
		Metrics: []semantic.Metric{{Name: "closings", Entity: "closings", Expr: "COUNT(closings.id)"}, {Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"how many closings last month": "2",
		"how many orders last month":   "2",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
	for stem, noun := range map[string]bool{"clos closings": true, "donat donations": true, "shipp shipments": true, "deliver deliveries": true, "clos clients": false} {
		ws := strings.Fields(stem)
		if sameVerb(ws[0], ws[1]) != noun {
			t.Errorf("sameVerb(%s, %s) = %v", ws[0], ws[1], !noun)
		}
	}
}

// TestPublishedAheadAndUndated: a course marked 'published' whose
// published_on is after today is not published yet (found from outside:
// 70 for the 68 live, at 1.00); a draft with no published_on lies no
// later than today, and a list of the courses with no enrollments keeps
// it (found from outside: the three drafts lost, with no word).
func TestPublishedAheadAndUndated(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE courses (id INTEGER PRIMARY KEY, title TEXT, published_on DATE, status TEXT);
CREATE TABLE enrollments (id INTEGER PRIMARY KEY, course_id INTEGER REFERENCES courses(id), enrolled_at DATE);
INSERT INTO courses (title, published_on, status) VALUES ('Go', '2026-01-01', 'published'), ('SQL', '2026-03-01', 'published'), ('Rust', '2026-07-20', 'published'),
 ('Draft one', NULL, 'draft'), ('Draft two', NULL, 'draft');
INSERT INTO enrollments (course_id, enrolled_at) VALUES (1, '2026-02-01'), (2, '2026-04-01'), (3, '2026-06-01');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "courses", Table: "courses", PrimaryKey: "id", TimeColumn: "published_on", Label: "title", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "title", Type: quarry.TypeText}, {Name: "published_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"draft", "published"}}}},
			{Name: "enrollments", Table: "enrollments", PrimaryKey: "id", TimeColumn: "enrolled_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "course_id", Type: quarry.TypeInt}, {Name: "enrolled_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "enrollments", FromColumn: "course_id", To: "courses", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "courses", Entity: "courses", Expr: "COUNT(courses.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int{
		"how many courses are published": 2,
		"courses with no enrollments":    2,
		"how many courses":               4,
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Errorf("%q: %v (%s)", q, err, out.Status)
			continue
		}
		got := len(out.Table.Rows)
		if len(out.Table.Columns) == 1 && len(out.Table.Rows) == 1 {
			if n, ok := semantic.NumberOf(out.Table.Rows[0][0]); ok {
				got = int(n)
			}
		}
		if got != want {
			t.Errorf("%q: %d, want %d (%s)", q, got, want, out.SQL)
		}
	}
}

// TestMadeAheadAskedAsPast: "how many invoices were issued in January
// 2027", asked in December 2026, is refused: issued_on is the day each is
// made, and those dated then are set ahead, none issued yet (found from
// outside: "172 invoices issued in January 2027", all scheduled, at
// 1.00). Asked for those scheduled, it is answered.
func TestMadeAheadAskedAsPast(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE invoices (id INTEGER PRIMARY KEY, issued_on DATE, status TEXT);
INSERT INTO invoices (issued_on, status) VALUES ('2026-06-01', 'paid'), ('2026-07-02', 'scheduled'), ('2026-07-09', 'scheduled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "issued_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "status", Type: quarry.TypeText, Values: []string{"paid", "scheduled"}}}}},
		Metrics: []semantic.Metric{{Name: "invoices", Entity: "invoices", Expr: "COUNT(invoices.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many invoices were issued next month", asOf); err == nil || !strings.Contains(err.Error(), "set ahead") {
		t.Errorf("issued next month: %v %s, want refused", err, out.Status)
	}
	out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, "how many scheduled invoices next month", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 {
		t.Fatalf("scheduled next month: %v %s", err, out.Status)
	}
	if n, _ := semantic.NumberOf(out.Table.Rows[0][0]); n != 2 {
		t.Errorf("scheduled next month: %v, want 2", n)
	}
}

// TestScheduledStateKept: "how many scheduled showings" counts those
// scheduled, every one of them for a day to come: 'scheduled' is the
// state of a thing set for its day, not one begun on it (found from
// outside: 0 for 67, at 1.00).
func TestScheduledStateKept(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE showings (id INTEGER PRIMARY KEY, scheduled_at DATE, status TEXT);
INSERT INTO showings (scheduled_at, status) VALUES ('2026-06-01', 'completed'), ('2026-07-02', 'scheduled'), ('2026-07-09', 'scheduled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "showings", Table: "showings", PrimaryKey: "id", TimeColumn: "scheduled_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "scheduled_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "status", Type: quarry.TypeText, Values: []string{"completed", "scheduled"}}}}},
		Metrics: []semantic.Metric{{Name: "showings", Entity: "showings", Expr: "COUNT(showings.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	if got := oneCell(t, a, k, "how many scheduled showings", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)); got != "2" {
		t.Errorf("scheduled showings: %s, want 2", got)
	}
}

// oneCell asks q and returns the one cell of its answer, or "" after
// reporting why there is none.
func oneCell(t *testing.T, a *Analyst, k *Knowledge, q string, asOf time.Time) string {
	t.Helper()
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || len(out.Table.Rows[0]) == 0 {
		t.Errorf("%q: %v %s", q, err, out.Status)
		return ""
	}
	return fmt.Sprint(out.Table.Rows[0][0])
}

// TestPartsGoWithTheirOwner: an order's lines have no date of their own;
// they are dated by their order and go with it, deleted or placed after
// the as-of day (found from outside: "top 5 products by total quantity
// of order items" took in 107 lines of deleted and future orders, and
// ranked a product that falls out of the top 5 without them, at 0.72).
// Rows kept by the state they hold now ("shipments by status") are taken
// in dated ahead, but the reading says how many (found from outside:
// counted without a word where "by carrier" left them out).
func TestPartsGoWithTheirOwner(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at DATE, deleted_at DATE);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders (id), product_id INTEGER REFERENCES products (id), quantity INTEGER);
CREATE TABLE shipments (id INTEGER PRIMARY KEY, shipped_on DATE, carrier TEXT, status TEXT);
INSERT INTO products VALUES (1, 'Lamp'), (2, 'Hose'), (3, 'Atlas');
INSERT INTO orders VALUES (1, '2026-05-01', NULL), (2, '2026-06-01', NULL), (3, '2026-06-02', '2026-06-03'), (4, '2026-07-10', NULL);
INSERT INTO order_items (order_id, product_id, quantity) VALUES (1, 1, 5), (2, 2, 4), (3, 3, 9), (4, 3, 9), (4, 1, 1);
INSERT INTO shipments (shipped_on, carrier, status) VALUES ('2026-06-01', 'DHL', 'delivered'), ('2026-06-02', 'UPS', 'delivered'), ('2026-07-02', 'UPS', 'delivered'), ('2026-07-03', 'DHL', 'scheduled');`)
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "products", Table: "products", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{id("id"),
				{Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "deleted_at", Type: quarry.TypeDate}}},
			{Name: "order_items", Table: "order_items", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("order_id"), id("product_id"), {Name: "quantity", Type: quarry.TypeInt}}},
			{Name: "shipments", Table: "shipments", PrimaryKey: "id", TimeColumn: "shipped_on", Columns: []semantic.Column{id("id"),
				{Name: "shipped_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "carrier", Type: quarry.TypeText, Values: []string{"DHL", "UPS"}}, {Name: "status", Type: quarry.TypeText, Values: []string{"delivered", "scheduled"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "order_items", FromColumn: "order_id", To: "orders", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "order_items", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "shipments", Entity: "shipments", Expr: "COUNT(shipments.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	ask := func(q string) *AskOutcome {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Fatalf("%q: %v (%s %s)", q, err, out.Status, out.Message)
		}
		return out
	}
	// Lines of order 3 (deleted) and 4 (placed after June 30th) are out.
	if out := ask("total quantity of order items"); fmt.Sprint(out.Table.Rows[0][0]) != "9" {
		t.Errorf("total quantity: %v, want 9 (5 + 4)\n%s", out.Table.Rows, out.SQL)
	}
	if out := ask("top 2 products by total quantity of order items"); fmt.Sprint(out.Table.Rows) != "[[Lamp 5] [Hose 4]]" {
		t.Errorf("top 2 products: %v, want Lamp 5, Hose 4 (Atlas's 18 are a deleted and a future order's)\n%s", out.Table.Rows, out.SQL)
	}
	if out := ask("list the order items"); len(out.Table.Rows) != 2 {
		t.Errorf("list the order items: %d rows, want 2\n%s", len(out.Table.Rows), out.SQL)
	}
	// A period names the lines' own dates whole: June's, deleted left out.
	if out := ask("total quantity of order items in June 2026"); fmt.Sprint(out.Table.Rows[0][0]) != "4" {
		t.Errorf("quantity in June: %v, want 4", out.Table.Rows)
	}
	out := ask("how many shipments by status")
	if fmt.Sprint(out.Table.Rows) != "[[delivered 3] [scheduled 1]]" {
		t.Errorf("shipments by status: %v, want every shipment by its status", out.Table.Rows)
	}
	if notes := strings.Join(out.Plan.Notes, "; "); !strings.Contains(notes, "the 2 shipments dated after 2026-06-30") {
		t.Errorf("shipments by status: notes %q; want the 2 dated ahead said", notes)
	}
	if out := ask("how many shipments by carrier"); fmt.Sprint(out.Table.Rows) != "[[DHL 1] [UPS 1]]" {
		t.Errorf("shipments by carrier: %v, want those shipped by June 30th", out.Table.Rows)
	}
}

// TestBookedNotAhead: a booking's booked_at is the day it was made, not a
// day booked for: bookings made after the as-of day did not exist then
// (found from outside: "how many bookings" as of 2026-06-30 took in 216
// made after it, at 1.00, as "booked" read as set ahead). Check-ins took
// place only for bookings neither cancelled nor missed (found from
// outside: "how many check-ins in June" counted 75 for 61).
func TestBookedNotAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE bookings (id INTEGER PRIMARY KEY, booked_at DATE, check_in DATE, status TEXT);
INSERT INTO bookings (booked_at, check_in, status) VALUES
 ('2026-05-01', '2026-06-10', 'checked_out'), ('2026-05-02', '2026-06-11', 'cancelled'), ('2026-05-03', '2026-06-12', 'no_show'),
 ('2026-06-20', '2026-06-25', 'checked_out'), ('2026-06-21', '2026-07-20', 'confirmed'),
 ('2026-07-02', '2026-08-01', 'confirmed'), ('2026-07-03', '2026-08-02', 'confirmed');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "booked_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "booked_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "check_in", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
			{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "checked_out", "confirmed", "no_show"}}}}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	ask := func(q string, asOf time.Time) any {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Fatalf("%q: %v (%s)", q, err, out.Status)
		}
		return out.Table.Rows[0][0]
	}
	today := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if got := ask("how many bookings", today); fmt.Sprint(got) != "5" {
		t.Errorf("how many bookings as of today: %v, want 5 (two made after it)", got)
	}
	if got := ask("how many bookings", time.Date(2026, 5, 31, 0, 0, 0, 0, time.UTC)); fmt.Sprint(got) != "3" {
		t.Errorf("how many bookings as of May 31st: %v, want the 3 made by then", got)
	}
	if got := ask("how many check-ins in June 2026", today); fmt.Sprint(got) != "2" {
		t.Errorf("check-ins in June: %v, want 2 (one cancelled, one never came)", got)
	}
}

// TestScheduledKept: rows asked for by a status that says they are still
// to come ("how many invoices are scheduled") are those dated ahead by
// their making, not cut at the as-of day (found from outside: 0 for 878,
// at 1.00); "how many invoices" still is.
func TestScheduledKept(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE invoices (id INTEGER PRIMARY KEY, issued_at DATE, status TEXT);
INSERT INTO invoices (issued_at, status) VALUES ('2026-06-01', 'paid'), ('2026-06-02', 'open'), ('2026-07-01', 'scheduled'), ('2026-08-01', 'scheduled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "issued_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: "status", Type: quarry.TypeText, Values: []string{"open", "paid", "scheduled"}}}}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]int64{"how many invoices are scheduled": 2, "how many invoices": 2, "how many invoices are paid": 1} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || out.Table.Rows[0][0] != want {
			t.Errorf("%q: %v %+v, want %d", q, err, out.Table, want)
		}
	}
}

// TestNoParentMadeLater: "donations with no campaign" are those that
// name none; a donation to a campaign that starts after the as-of day
// still has one (found from outside: 366 for 283, as of June, the
// donations to a campaign starting in August counted as having none).
func TestNoParentMadeLater(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, is_test INTEGER);
CREATE TABLE campaigns (id INTEGER PRIMARY KEY, name TEXT, starts_on DATE, manager_id INTEGER REFERENCES staff(id));
CREATE TABLE donations (id INTEGER PRIMARY KEY, campaign_id INTEGER REFERENCES campaigns(id), received_at DATE);
INSERT INTO staff VALUES (1, 'Ann', 0), (2, 'Test', 1);
INSERT INTO campaigns VALUES (1, 'Spring', '2026-01-01', 1), (2, 'Cycle 100', '2026-06-20', 1);
INSERT INTO donations (campaign_id, received_at) VALUES (1, '2026-05-01'), (2, '2026-06-01'), (2, '2026-06-02'), (NULL, '2026-06-03');`)
	// The campaigns' managers may be test rows: the condition on the
	// campaigns carries that, as on every table a test row owns.
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", Table: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "name", Type: quarry.TypeText}, {Name: "is_test", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "campaigns", Table: "campaigns", PrimaryKey: "id", Label: "name", TimeColumn: "starts_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "name", Type: quarry.TypeText}, {Name: "starts_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "manager_id", Type: quarry.TypeInt}}},
			{Name: "donations", Table: "donations", PrimaryKey: "id", TimeColumn: "received_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "campaign_id", Type: quarry.TypeInt}, {Name: "received_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "donations", FromColumn: "campaign_id", To: "campaigns", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "campaigns", FromColumn: "manager_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	// As of a day before the campaign starts (and before today, when
	// what is dated after it is left out), and as of today.
	for _, asOf := range []time.Time{time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), a.Clock()} {
		if got := oneCell(t, a, k, "how many donations had no campaign", asOf); got != "1" {
			t.Errorf("as of %s: %s donations with no campaign, want 1", asOf.Format("2006-01-02"), got)
		}
	}
}

// TestRelatedRowsOfAPeriodAhead: "boats that arrive next month", as of an
// earlier day than today, are those with a booking arriving then; the
// bookings are not also cut at the day on their own date (departs_on),
// which no booking arriving after it meets (found from outside: 0 for 66,
// at 0.85).
func TestRelatedRowsOfAPeriodAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE boats (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE bookings (id INTEGER PRIMARY KEY, boat_id INTEGER REFERENCES boats(id), arrives_on DATE, departs_on DATE);
INSERT INTO boats VALUES (1, 'Aurora'), (2, 'Brisa'), (3, 'Cirrus');
INSERT INTO bookings (boat_id, arrives_on, departs_on) VALUES (1, '2026-07-03', '2026-07-10'), (2, '2026-07-20', '2026-08-02'), (3, '2026-05-01', '2026-05-05');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "boats", Table: "boats", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "departs_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "boat_id", Type: quarry.TypeInt}, {Name: "arrives_on", Type: quarry.TypeDate},
				{Name: "departs_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "bookings", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	if got := oneCell(t, a, k, "how many boats arrive next month", time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)); got != "2" {
		t.Errorf("boats arriving next month: %s, want 2", got)
	}
}
