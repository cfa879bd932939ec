package knowledge

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTimeRoleGone: a tenant's move out and a student's withdrawal end
// their rows (found from outside: both had no role, and those gone
// counted as current); a move in starts them.
func TestTimeRoleGone(t *testing.T) {
	for name, want := range map[string]string{
		"moved_out_on": semantic.TimeRoleEnd, "move_out_date": semantic.TimeRoleEnd, "moved_in_on": semantic.TimeRoleStart,
		"withdrew_on": semantic.TimeRoleEnd, "vacated_at": semantic.TimeRoleEnd, "graduated_on": semantic.TimeRoleEnd,
		// A life ended (found from outside: "how many living pets"
		// counted the dead, at 1.00).
		"deceased_on": semantic.TimeRoleEnd, "date_of_death": semantic.TimeRoleEnd, "died_at": semantic.TimeRoleEnd,
		// A termination as HR systems shorten it (found from outside:
		// "how many loan officers do we have" counted those let go); a
		// school term's start is none.
		"term_dt": semantic.TimeRoleEnd, "term_date": semantic.TimeRoleEnd, "term_start": semantic.TimeRoleStart,
	} {
		if got := timeRole(name); got != want {
			t.Errorf("timeRole(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestTimeRolePlanned: a date named for the day an event is planned for
// (requested_delivery_on, expected_ship_date) is neither the row's start
// nor the event (found from outside: read as the orders' start, so
// "orders older than 30 days" went by the delivery requested); a request's
// own date and a time something is scheduled for keep their roles.
func TestTimeRolePlanned(t *testing.T) {
	for name, want := range map[string]string{
		"requested_delivery_on": "", "expected_ship_date": "", "promised_arrival_at": "",
		"requested_at": semantic.TimeRoleStart, "scheduled_for": semantic.TimeRoleEvent,
	} {
		if got := timeRole(name); got != want {
			t.Errorf("timeRole(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestTimeRoleOfTheTablesEvent: an end named for the event a table's rows
// record dates them as that event (found from outside: refunds.refunded_at
// read as the end of each refund, and "total refunds last month"
// refused); an end of another thing, or a generic one, stays an end.
func TestTimeRoleOfTheTablesEvent(t *testing.T) {
	for _, tt := range []struct{ table, column, want string }{
		{"refunds", "refunded_at", semantic.TimeRoleEvent},
		{"sales.refunds", "refunded_at", semantic.TimeRoleEvent},
		{"returns", "returned_on", semantic.TimeRoleEvent},
		{"cancellations", "cancelled_at", semantic.TimeRoleEvent},
		{"terminations", "terminated_on", semantic.TimeRoleEvent},
		{"orders", "refunded_at", semantic.TimeRoleEnd},
		{"subscriptions", "subscription_end", semantic.TimeRoleEnd},
		{"subscriptions", "cancelled_at", semantic.TimeRoleEnd},
		{"loans", "returned_on", semantic.TimeRoleEnd},
		// The end of another thing: no end of the row (found from
		// outside: subscriptions whose trial was over read as ended).
		{"subscriptions", "trial_ends_on", ""},
		{"customers", "licence_expires_on", ""},
		{"memberships", "membership_expires_on", semantic.TimeRoleEnd},
		{"products", "delisted_on", semantic.TimeRoleEnd},
		{"parts", "discontinued_on", semantic.TimeRoleEnd},
		// A date named for the thing each row is: its event (found from
		// outside: donated_at had no role, and refunded_at made every
		// donation a holding, "total donations in 2025" refused).
		{"donations", "donated_at", semantic.TimeRoleEvent},
		{"volunteer_shifts", "shift_on", semantic.TimeRoleEvent},
		{"events", "event_date", semantic.TimeRoleEvent},
		{"donations", "reviewed_on", ""},
		// What was done on a day: an event (found from outside:
		// performed_at had none, and a count of procedures in 2025 was
		// refused for want of "new").
		{"procedures", "performed_at", semantic.TimeRoleEvent},
		{"payments", "received_at", semantic.TimeRoleEvent},
		{"vaccinations", "administered_on", semantic.TimeRoleEvent},
		// A day named by what was done, that no list knows (found from
		// outside: brewed_on had none, and created_at dated the batches);
		// not a decision or a change made later.
		{"batches", "brewed_on", semantic.TimeRoleEvent},
		{"crops", "harvested_at", semantic.TimeRoleEvent},
		{"recitals", "held_on", semantic.TimeRoleEvent},
		{"meetings", "held_at", semantic.TimeRoleEvent},
		{"claims", "approved_at", ""},
		{"readings", "imported_at", ""},
		{"tickets", "escalated_at", ""},
		// A name with no words at all has no role, and no panic.
		{"odd", "_", ""},
		{"odd", "", ""},
	} {
		if got := tableTimeRole(tt.table, tt.column); got != tt.want {
			t.Errorf("tableTimeRole(%q, %q) = %q, want %q", tt.table, tt.column, got, tt.want)
		}
	}
}

// TestTimeColumnOfWhatWasDone: a table with a day named by what was done
// and a day its row was entered is dated by the first (found from
// outside: batches by created_at, "batches by month in 2025" off in 10
// months of 12).
func TestTimeColumnOfWhatWasDone(t *testing.T) {
	tb := &quarry.TableInfo{Name: "batches", Columns: []quarry.ColumnInfo{
		{Name: "id", Type: quarry.TypeInt}, {Name: "created_at", Type: quarry.TypeTimestamp}, {Name: "brewed_on", Type: quarry.TypeDate}}}
	if got := pickTimeColumn(tb); got != "brewed_on" {
		t.Errorf("time column %q, want brewed_on", got)
	}
	tb.Columns[2].Name = "approved_on"
	if got := pickTimeColumn(tb); got != "created_at" {
		t.Errorf("time column %q, want created_at beside a decision's day", got)
	}
}
