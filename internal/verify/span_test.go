package verify_test

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestSpanPeriod: rows dated by the day they were booked that also span a
// stay (check_in to check_out), picked by a state in a period, are
// refused with the dates to name (found from outside: no-show
// reservations of March counted by booking date, at 1.00). A row's
// created_at begins no such span: berth bookings dated by departure,
// with a created_at and a cancelled_at, picked by their state in a
// period, are read by departure (found from outside: "how many completed
// berth bookings last month", which a warning told the tester to ask,
// refused).
func TestSpanPeriod(t *testing.T) {
	id := semantic.Column{Name: "id", Type: quarry.TypeInt}
	date := func(n, role string) semantic.Column {
		return semantic.Column{Name: n, Type: quarry.TypeDate, TimeRole: role}
	}
	status := semantic.Column{Name: "status", Type: quarry.TypeText, Values: []string{"cancelled", "completed", "no_show"}}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "reservations", PrimaryKey: "id", TimeColumn: "booked_at", Columns: []semantic.Column{id, status,
				date("created_at", semantic.TimeRoleStart), date("booked_at", semantic.TimeRoleEvent),
				date("check_in", semantic.TimeRoleStart), date("check_out", semantic.TimeRoleEnd)}},
			{Name: "berth_bookings", PrimaryKey: "id", TimeColumn: "departs_on", Columns: []semantic.Column{id, status,
				date("created_at", semantic.TimeRoleStart), date("departs_on", semantic.TimeRoleEvent), date("cancelled_at", semantic.TimeRoleEnd)}},
		},
		Metrics: []semantic.Metric{
			{Name: "count_reservations", Entity: "reservations", Expr: "COUNT(reservations.id)"},
			{Name: "count_berth_bookings", Entity: "berth_bookings", Expr: "COUNT(berth_bookings.id)"},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	march := &semantic.TimeRange{From: "2026-03-01", To: "2026-04-01"}
	state := func(e, v string) []semantic.Filter {
		return []semantic.Filter{{Field: e + ".status", Op: semantic.OpEq, Values: []any{v}}}
	}
	spanFail := func(question string, q *semantic.Query) string {
		for _, c := range verify.Coverage(question, "2026-06-30", m, q) {
			if c.Status == verify.Fail && strings.Contains(c.Detail, "picked by their state in a period") {
				return c.Detail
			}
		}
		return ""
	}
	if spanFail("how many no-show reservations in March", &semantic.Query{Metrics: []string{"count_reservations"}, TimeRange: march, Filters: state("reservations", "no_show")}) == "" {
		t.Error("no-show reservations in March: passed; want refused, the stay's dates to name")
	}
	if d := spanFail("how many completed berth bookings in March", &semantic.Query{Metrics: []string{"count_berth_bookings"}, TimeRange: march, Filters: state("berth_bookings", "completed")}); d != "" {
		t.Errorf("completed berth bookings in March: %s; want it read by departure", d)
	}
}
