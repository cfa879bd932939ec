package semantic

import "testing"

// TestEnteredName: a date named for the making of its row (created_at,
// booked_at) is one, and a booking's booked_for, the day it is for, is
// not (it would have made the day a desk is used the day the booking was
// made).
func TestEnteredName(t *testing.T) {
	for col, want := range map[string]bool{
		"created_at": true, "date_added": true, "booked_at": true, "booked_on": true,
		"booked_for": false, "reserved_for": false, "scheduled_for": false, "ordered_at": false,
	} {
		if got := EnteredName(col); got != want {
			t.Errorf("EnteredName(%q) = %v, want %v", col, got, want)
		}
	}
	e := &Entity{Name: "desk_bookings", TimeColumn: "booked_at", Columns: []Column{
		{Name: "booked_at", Type: "timestamp", TimeRole: TimeRoleEvent},
		{Name: "booked_for", Type: "date", TimeRole: TimeRoleEvent}}}
	if got := ExistedBy(e); got != "desk_bookings.booked_at" {
		t.Errorf("ExistedBy of bookings dated by booked_at: %s", got)
	}
	e.TimeColumn = "booked_for"
	if got := ExistedBy(e); got != "desk_bookings.booked_at" {
		t.Errorf("ExistedBy of bookings dated by booked_for: %s", got)
	}
}
