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
	"github.com/quarrydata/quarry/internal/verify"
)

// TestRowsMadeByTheDay: asked as of an earlier day, whether a customer
// had booked is whether a booking of theirs was made by then, by its
// created_at, not whether its session, scheduled_for, had come (found
// from outside: "how many customers never booked" 163 for 70, those who
// had booked sessions after the day counted as never having booked, at
// 0.85; "customers with more than 5 bookings" 81 for 122). A count of
// bookings per customer that takes in cancelled and no-show ones says so.
func TestRowsMadeByTheDay(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE bookings (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), status TEXT, created_at TIMESTAMP, scheduled_for TIMESTAMP);
INSERT INTO customers VALUES (1, 'Ana'), (2, 'Ben'), (3, 'Cy'), (4, 'Dee');
INSERT INTO bookings (customer_id, status, created_at, scheduled_for) VALUES
	(1, 'completed', '2026-05-02 10:00:00', '2026-05-20 18:00:00'),
	(1, 'cancelled', '2026-05-10 10:00:00', '2026-06-15 18:00:00'),
	(2, 'completed', '2026-05-12 10:00:00', '2026-05-25 18:00:00'),
	(3, 'completed', '2026-06-10 10:00:00', '2026-06-20 18:00:00');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Table: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "customer_id", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "no_show"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "bookings", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 5, 31, 0, 0, 0, 0, time.UTC)
	// Cy booked after the day, Dee never: Ana's June session was booked
	// in May.
	if got := oneCell(t, a, k, "how many customers have no bookings", asOf); got != "2" {
		t.Errorf("customers with no bookings as of %s: %s, want 2", asOf.Format("2006-01-02"), got)
	}
	out, err := a.Ask(context.Background(), event.NewRecorder("r2", a.Clock, &memSink{}), k, "customers with more than 1 bookings", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || fmt.Sprint(out.Table.Rows[0][0]) != "Ana" {
		t.Fatalf("customers with more than 1 bookings: %v %s %v; want Ana, her two bookings made by the day", err, out.Status, out.Table)
	}
	var warned bool
	for _, c := range out.Report.Checks {
		warned = warned || c.Name == CheckStatuses && c.Status == verify.Warn && strings.Contains(c.Detail, "'cancelled'")
	}
	if !warned {
		t.Errorf("customers with more than 1 bookings: checks %+v; want the cancelled bookings counted said", out.Report.Checks)
	}
}

// TestReservationsMadeByTheDay: a rental reserved by the day for a
// pickup after it is one of its customer's rentals on that day, as a
// booking made by then is (found from outside: "customers with more
// than 10 rentals" cut the rentals at the day by their scheduled pickup,
// and found none).
func TestReservationsMadeByTheDay(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE rentals (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), status TEXT, created_at TIMESTAMP, scheduled_pickup_at TIMESTAMP);
INSERT INTO customers VALUES (1, 'Ana'), (2, 'Ben');
INSERT INTO rentals (customer_id, status, created_at, scheduled_pickup_at) VALUES
	(1, 'completed', '2026-05-02 10:00:00', '2026-05-20 18:00:00'),
	(1, 'reserved', '2026-05-10 10:00:00', '2026-08-15 18:00:00'),
	(2, 'completed', '2026-05-12 10:00:00', '2026-05-25 18:00:00');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", Table: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "rentals", Table: "rentals", PrimaryKey: "id", TimeColumn: "scheduled_pickup_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "customer_id", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText, Values: []string{"completed", "reserved"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_pickup_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "rentals", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	out, err := a.Ask(context.Background(), event.NewRecorder("r3", a.Clock, &memSink{}), k, "customers with more than 1 rentals", asOf)
	if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || fmt.Sprint(out.Table.Rows[0][0]) != "Ana" {
		t.Fatalf("customers with more than 1 rentals: %v %s %v; want Ana, her reservation made by the day", err, out.Status, out.Table)
	}
}

// TestBookedAtMadeByTheDay: a reservation's booked_at (learn gives it the
// role of an event, as its reserved_for) is the day it was made: as of an
// earlier day, a guest who had booked by then for a later night had
// booked, and the nights ahead of the day hold the bookings made by then
// (found from outside: "guests who never made a reservation" cut on
// reserved_for, 413 for 316 at 1.00; "how many reservations next week"
// refused as a forecast, the clock being past every date in the data).
func TestBookedAtMadeByTheDay(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE guests (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE reservations (id INTEGER PRIMARY KEY, guest_id INTEGER REFERENCES guests(id), booked_at TIMESTAMP, reserved_for TIMESTAMP);
INSERT INTO guests VALUES (1, 'Ana'), (2, 'Ben'), (3, 'Cy');
INSERT INTO reservations (guest_id, booked_at, reserved_for) VALUES
	(1, '2026-05-02 10:00:00', '2026-05-20 19:00:00'),
	(2, '2026-05-25 10:00:00', '2026-06-03 19:00:00'),
	(2, '2026-06-10 10:00:00', '2026-06-04 19:00:00');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "guests", Table: "guests", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "reservations", Table: "reservations", PrimaryKey: "id", TimeColumn: "reserved_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "guest_id", Type: quarry.TypeInt},
				{Name: "booked_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "reserved_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "reservations", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 5, 31, 0, 0, 0, 0, time.UTC)
	// Ben booked on May 25 for June 3: he had booked by May 31.
	if got := oneCell(t, a, k, "how many guests never made a reservation", asOf); got != "1" {
		t.Errorf("guests who never made a reservation as of %s: %s, want 1 (Cy)", asOf.Format("2006-01-02"), got)
	}
	// June's nights as of May 31: the one booking made by then.
	if got := oneCell(t, a, k, "how many reservations next month", asOf); got != "1" {
		t.Errorf("reservations next month as of %s: %s, want 1", asOf.Format("2006-01-02"), got)
	}
}
