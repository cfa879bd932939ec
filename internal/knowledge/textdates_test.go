package knowledge

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTextDates: date columns declared TEXT whose sample holds dates are
// typed as dates or timestamps (found from outside: listings.sold_at and
// lab_orders.resulted_at stayed text, so no reading of an event's date
// saw them, and "listings sold by month" went by the listing date); a
// column with one value that is no date, or too small a sample, stays text.
func TestTextDates(t *testing.T) {
	e := &semantic.Entity{Name: "listings", Columns: []semantic.Column{
		{Name: "sold_at", Type: quarry.TypeText}, {Name: "listed_on", Type: quarry.TypeText},
		{Name: "note_date", Type: quarry.TypeText}, {Name: "rare_at", Type: quarry.TypeText}, {Name: "made_at", Type: quarry.TypeTimestamp},
	}}
	textDates(e, map[string]labelStats{
		"sold_at":   {filled: 0.4, dates: 1, iso: 1, times: 1, rows: 100},
		"listed_on": {filled: 1, dates: 1, iso: 1, rows: 100},
		"note_date": {filled: 1, dates: 0.98, iso: 0.98, rows: 100},
		"rare_at":   {filled: 0.02, dates: 1, iso: 1, times: 1, rows: 100},
	})
	want := map[string]quarry.Type{"sold_at": quarry.TypeTimestamp, "listed_on": quarry.TypeDate, "note_date": quarry.TypeText, "rare_at": quarry.TypeText, "made_at": quarry.TypeTimestamp}
	for _, c := range e.Columns {
		if c.Type != want[c.Name] {
			t.Errorf("%s: %s, want %s", c.Name, c.Type, want[c.Name])
		}
	}
	// One text date column is sampled too.
	tab := &quarry.TableInfo{Name: "lab_orders", Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "resulted_at", DeclType: "TEXT"}}}
	if got := dateColumns(tab, func(string) bool { return true }); len(got) != 1 || got[0] != "resulted_at" {
		t.Errorf("dateColumns: %v", got)
	}
}

// TestRoleNamedTextDate: a text column named by what a date marks but
// with no date's ending (appointments.scheduled_for) is sampled, typed a
// date where its values all are, given its role, and dates a table that
// had no date by name (found from outside: never read as a date, so every
// question of appointments in a period was refused). Sampled values that
// are no dates leave it text: scheduled_by holds people.
func TestRoleNamedTextDate(t *testing.T) {
	tab := &quarry.TableInfo{Name: "appointments", Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "scheduled_for", DeclType: "TEXT"}, {Name: "scheduled_by", DeclType: "TEXT"}, {Name: "notes", DeclType: "TEXT"}}}
	if got := dateColumns(tab, func(string) bool { return true }); !slices.Equal(got, []string{"scheduled_for", "scheduled_by", "notes"}) {
		t.Errorf("dateColumns: %v", got)
	}
	e := &semantic.Entity{Name: "appointments", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "scheduled_for", Type: quarry.TypeText}, {Name: "scheduled_by", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{
		"scheduled_for": {filled: 1, dates: 1, iso: 1, rows: 100},
		"scheduled_by":  {filled: 1, dates: 0, rows: 100},
	})
	if c := e.Column("scheduled_for"); c.Type != quarry.TypeDate || c.TimeRole != semantic.TimeRoleEvent || e.TimeColumn != "scheduled_for" {
		t.Errorf("scheduled_for: %+v, time column %q", c, e.TimeColumn)
	}
	if c := e.Column("scheduled_by"); c.Type != quarry.TypeText || c.TimeRole != "" {
		t.Errorf("scheduled_by: %+v", c)
	}
}

// TestTextDatesOfRoundFive: what the sampled values say of a table's
// text dates (found from outside, stop 48): a date in two formats stays
// text (it would compare as text); a date named by no role dates a table
// that has no other (quiz_attempts.attempted); a date empty in a fifth
// of the rows does not (deliveries.delivered_time); an appointment is
// dated by the day it takes place, not the day it was booked.
func TestTextDatesOfRoundFive(t *testing.T) {
	e := &semantic.Entity{Name: "doctors", Columns: []semantic.Column{{Name: "hired", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{"hired": {filled: 1, dates: 1, iso: 0.8, rows: 22}})
	if c := e.Column("hired"); c.Type != quarry.TypeText || e.TimeColumn != "" {
		t.Errorf("hired in two formats: %+v, time column %q", c, e.TimeColumn)
	}
	e = &semantic.Entity{Name: "quiz_attempts", Columns: []semantic.Column{{Name: "attempted", Type: quarry.TypeText}, {Name: "score", Type: quarry.TypeFloat}}}
	textDates(e, map[string]labelStats{"attempted": {filled: 1, dates: 1, iso: 1, times: 1, rows: 100}})
	if e.TimeColumn != "attempted" {
		t.Errorf("quiz_attempts: time column %q, want attempted", e.TimeColumn)
	}
	e = &semantic.Entity{Name: "deliveries", Columns: []semantic.Column{{Name: "delivered_time", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{"delivered_time": {filled: 0.8, dates: 1, iso: 1, times: 1, rows: 100}})
	if e.TimeColumn != "" || e.Column("delivered_time").Type != quarry.TypeTimestamp {
		t.Errorf("deliveries: time column %q, delivered_time %+v; want no time column", e.TimeColumn, e.Column("delivered_time"))
	}
	tab := &quarry.TableInfo{Name: "deliveries", Columns: []quarry.ColumnInfo{{Name: "id", DeclType: "INTEGER"}, {Name: "delivered_at", DeclType: "DATE"}}}
	if got := measuredTimeColumn(tab, "delivered_at", map[string]labelStats{"delivered_at": {filled: 0.8, rows: 100}}); got != "" {
		t.Errorf("measuredTimeColumn of a date empty in a fifth of the rows: %q", got)
	}
	if got := measuredTimeColumn(tab, "delivered_at", map[string]labelStats{"delivered_at": {filled: 0.93, rows: 100}}); got != "delivered_at" {
		t.Errorf("measuredTimeColumn of a date empty in a few rows: %q", got)
	}
	// A table's one date, an end (found from outside: a garage's job
	// parts dated by their part's discontinued_on, "parts used in 2026"
	// none): no date of its rows, measured or not.
	parts := &quarry.TableInfo{Name: "parts", Columns: []quarry.ColumnInfo{{Name: "part_id", DeclType: "INTEGER"}, {Name: "discontinued_on", DeclType: "DATE"}}}
	for _, st := range []map[string]labelStats{nil, {"discontinued_on": {filled: 0.12, rows: 17}}} {
		if got := measuredTimeColumn(parts, "discontinued_on", st); got != "" {
			t.Errorf("measuredTimeColumn of a part's discontinued_on (%v): %q", st, got)
		}
	}
	e = &semantic.Entity{Name: "appointments", TimeColumn: "booked_ts", Columns: []semantic.Column{
		{Name: "booked_ts", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "scheduled_for", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{"scheduled_for": {filled: 1, dates: 1, iso: 1, rows: 100}})
	if e.TimeColumn != "scheduled_for" {
		t.Errorf("appointments: time column %q, want scheduled_for", e.TimeColumn)
	}
	e = &semantic.Entity{Name: "bookings", TimeColumn: "booked_at", Columns: []semantic.Column{
		{Name: "booked_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}}
	textDates(e, nil)
	if e.TimeColumn != "booked_at" {
		t.Errorf("bookings: time column %q, want booked_at", e.TimeColumn)
	}
	// The day a reservation was made for, whose name says no role (found
	// from outside: a restaurant's no-shows counted by the day each was
	// booked, at 1.00).
	e = &semantic.Entity{Name: "reservations", TimeColumn: "created_at", Columns: []semantic.Column{
		{Name: "reserved_for_at", Type: quarry.TypeTimestamp}, {Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}}
	textDates(e, nil)
	if e.TimeColumn != "reserved_for_at" || e.Column("reserved_for_at").TimeRole != semantic.TimeRoleEvent {
		t.Errorf("reservations: time column %q, %+v; want reserved_for_at, the event", e.TimeColumn, e.Column("reserved_for_at"))
	}
	for name, want := range map[string]bool{"reserved_for_at": true, "booked_for": true, "scheduled_for_date": true, "created_for": false, "paid_for_on": false, "for_date": false} {
		if madeFor(name) != want {
			t.Errorf("madeFor(%s) = %v", name, !want)
		}
	}
}

// TestTextNamedLikeADate: a text column named like a date whose values are
// no ISO dates ("5 May") dates no row: compared with a period's bounds as
// text it kept or dropped rows at random (Spider's course.Staring_Date).
// A declared date beside it dates them instead.
func TestTextNamedLikeADate(t *testing.T) {
	e := &semantic.Entity{Name: "course", TimeColumn: "Staring_Date", Columns: []semantic.Column{
		{Name: "Course_ID", Type: quarry.TypeInt}, {Name: "Staring_Date", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{"Staring_Date": {filled: 1, dates: 0.2, iso: 0, rows: 10}})
	if e.TimeColumn != "" {
		t.Errorf("course: time column %q, want none", e.TimeColumn)
	}
	e = &semantic.Entity{Name: "performance", TimeColumn: "Date", Columns: []semantic.Column{
		{Name: "Date", Type: quarry.TypeText}, {Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}}
	textDates(e, map[string]labelStats{"Date": {filled: 1, dates: 1, iso: 0, rows: 40}, "created_at": {filled: 1, rows: 40}})
	if e.TimeColumn != "created_at" {
		t.Errorf("performance: time column %q, want created_at", e.TimeColumn)
	}
	e = &semantic.Entity{Name: "tiny", TimeColumn: "Date", Columns: []semantic.Column{{Name: "Date", Type: quarry.TypeText}}}
	textDates(e, map[string]labelStats{"Date": {filled: 1, rows: 3}})
	if e.TimeColumn != "Date" {
		t.Errorf("a sample of 3 values decides nothing: time column %q", e.TimeColumn)
	}
}
