package analyst

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCalledOffRate: the no-show rate is of the lessons that were to
// take place: a cancelled lesson is none a student could miss (found
// from outside, on a music school: cancelled lessons in the denominator,
// 9.6% for 11.5%). The cancellation rate keeps them, and so does a rate
// of rows dated by the day each was made (orders).
func TestCalledOffRate(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE lessons (id INTEGER PRIMARY KEY, scheduled_for DATE, status TEXT);
INSERT INTO lessons (scheduled_for, status) VALUES ('2026-06-01', 'completed'), ('2026-06-02', 'no_show'), ('2026-06-03', 'cancelled'), ('2026-06-04', 'cancelled');
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at DATE, status TEXT);
INSERT INTO orders (ordered_at, status) VALUES ('2026-06-01', 'delivered'), ('2026-06-02', 'refunded'), ('2026-06-03', 'cancelled'), ('2026-06-04', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "lessons", Table: "lessons", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "no_show"}}}},
			{Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "delivered", "refunded"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"no_show rate of lessons":   "0.5",
		"cancelled rate of lessons": "0.5",
		"refunded rate of orders":   "0.25",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
}

// TestAttendedDay: a no-show rate of bookings dated by the day each was
// made (booked_at) is of the bookings whose day (booked_for) has come,
// called off ones left out, and a period or a month is of that day
// (found from outside, on a coworking company: bookings for later days
// and cancelled ones in the denominator, 9.2% for 11.8%). A cancellation
// rate keeps every booking, whatever its day.
func TestAttendedDay(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE desk_bookings (id INTEGER PRIMARY KEY, booked_at DATETIME, booked_for DATE, status TEXT);
INSERT INTO desk_bookings (booked_at, booked_for, status) VALUES
 ('2026-04-20 09:00', '2026-05-02', 'no_show'),
 ('2026-05-03 09:00', '2026-05-04', 'checked_in'),
 ('2026-05-10 09:00', '2026-06-12', 'checked_in'),
 ('2026-05-11 09:00', '2026-05-13', 'cancelled'),
 ('2026-05-20 09:00', '2026-06-02', 'no_show'),
 ('2026-05-21 09:00', '2026-07-02', 'booked'),
 ('2026-05-22 09:00', '2026-07-03', 'booked'),
 ('2026-06-10 09:00', '2026-08-03', 'cancelled');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "desk_bookings", Table: "desk_bookings", PrimaryKey: "id", TimeColumn: "booked_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "booked_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "booked_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "cancelled", "checked_in", "no_show"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string]string{
		// 2 no-shows of the 4 bookings for a day by June 30 not cancelled.
		"no_show rate of desk bookings": "0.5",
		// May by the day booked for: 1 of 2 (the 05-02 one booked in April).
		"no_show rate of desk bookings last month": "0.5",
		// 2 of 8, the later ones too.
		"cancelled rate of desk bookings": "0.25",
	} {
		if got := oneCell(t, a, k, q, asOf); got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "no_show rate of desk bookings by month in 2026", asOf)
	if err != nil || out.Table == nil {
		t.Fatalf("by month: %v", err)
	}
	var got []string
	for _, r := range out.Table.Rows {
		got = append(got, fmt.Sprint(r...))
	}
	// May: 1 of 2; June: 1 of 2. April (booked then) is none.
	if want := []string{"2026-05-010.5", "2026-06-010.5"}; !slices.Equal(got, want) {
		t.Errorf("by month: %q, want %q (%s)", got, want, out.SQL)
	}
}
