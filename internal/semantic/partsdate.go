package semantic

import (
	"fmt"
	"slices"
	"strings"
)

// PartsDate is the date of the one table the rows of entity belong to,
// where entity has no date of its own: order_items, each a line of one
// order, are dated by orders.ordered_at, and go with their order, dated
// ahead or deleted. Not a date the parent began on (a student's
// enrollment, a member's joining), which dates none of the rows that came
// later; of several dated parents, the one dated by the event each of
// its rows records (an order's, not a product's launch). "" where entity
// is unknown or dated itself, or none or several of the tables it points
// at have such a date. find looks entities up (nil: m.Entity).
func (m *Model) PartsDate(entity string, find func(string) *Entity) string {
	if find == nil {
		find = m.Entity
	}
	if e := find(entity); e == nil || e.TimeColumn != "" {
		return ""
	}
	var dated, events []string
	for _, r := range m.Relationships {
		if !strings.EqualFold(r.From, entity) || r.Cardinality != ManyToOne && r.Cardinality != OneToOne {
			continue
		}
		to := find(r.To)
		if to == nil || to.TimeColumn == "" || to.Role != nil {
			continue
		}
		c := to.Column(to.TimeColumn)
		if c != nil && (c.TimeRole == TimeRoleStart || c.TimeRole == TimeRoleBirth) {
			// "F grades in 2025" are not those of the students who
			// enrolled in 2025 (found from outside).
			continue
		}
		f := to.Name + "." + to.TimeColumn
		if !slices.Contains(dated, f) {
			dated = append(dated, f)
			if c != nil && c.TimeRole == TimeRoleEvent {
				events = append(events, f)
			}
		}
	}
	switch {
	case len(dated) == 1:
		return dated[0]
	case len(events) == 1:
		return events[0]
	}
	return "" // none, or several: which date?
}

// AttendedOn is the date of the event each row of entity is for
// (entity.column), where filters pick the rows by whether they were
// attended (a status of no_show, attended …: AttendanceOutcome), their
// own date is when each was made (a sign-up: time role start), and they
// refer to exactly one table of dated events (an event's scheduled_for,
// time role event): a no-show happens on the event's day, not on the
// sign-up's. "" otherwise.
func (m *Model) AttendedOn(entity string, filters []Filter) string {
	e := m.Entity(entity)
	if e == nil || e.TimeColumn == "" {
		return ""
	}
	if own := e.Column(e.TimeColumn); own == nil || own.TimeRole != TimeRoleStart {
		return ""
	}
	picked := slices.ContainsFunc(filters, func(f Filter) bool {
		fd, ok := m.ColumnField(f.Field)
		if !ok || fd.Entity != e || !StatusName(fd.Column.Name) || f.Op != OpEq && f.Op != OpIn || len(f.Values) == 0 {
			return false
		}
		return !slices.ContainsFunc(f.Values, func(v any) bool { return !AttendanceOutcome(fmt.Sprint(v)) })
	})
	if !picked {
		return ""
	}
	found := ""
	for _, r := range m.Relationships {
		if !strings.EqualFold(r.From, e.Name) || r.Cardinality == OneToMany || r.Cardinality == ManyToMany {
			continue
		}
		p := m.Entity(r.To)
		if p == nil || p == e || p.TimeColumn == "" || m.IsRestricted(p.Name, p.TimeColumn) || InUse(p) {
			// A vehicle's acquisition is no event a rental is for
			// (found from outside: no-shows dated by the car's
			// purchase, 0 for 36 at 1.00).
			continue
		}
		if c := p.Column(p.TimeColumn); c == nil || c.TimeRole != TimeRoleEvent {
			continue
		}
		if found != "" {
			return "" // two tables of events: which day is not for quarry to pick
		}
		found = p.Name + "." + p.TimeColumn
	}
	return found
}

// MakingWord reports whether a word is the past of a verb of making a
// row (booked, ordered, placed, created, submitted …): what was done when
// the row was made, which a cancellation may follow.
func MakingWord(v string) bool {
	switch v {
	case "booked", "ordered", "placed", "reserved", "scheduled", "created", "opened", "registered", "signed", "submitted",
		"requested", "issued", "filed", "applied", "enrolled", "invoiced", "listed", "posted", "subscribed", "hired", "joined",
		"planned", "assigned", "raised", "logged", "quoted", "proposed", "offered", "accepted", "approved", "confirmed":
		return true
	}
	return false
}

// EnteredName reports whether a date column's name says when its row was
// entered (created_at, inserted_on, date_added, booked_at): the making of
// the record. A booking's booked_for is the day it is for, not when it
// was made.
func EnteredName(col string) bool {
	for _, w := range NameWords(col) {
		switch w {
		case "created", "creation", "inserted", "added", "entered":
			return true
		case "booked":
			return !DayFor(col)
		}
	}
	return false
}

// DayFor reports whether a date column's name says the day its row is
// for: a verb of making a row right before "for" (booked_for,
// reserved_for, scheduled_for), the day the thing made takes place, not
// the day it was made. Not created_for: whom a record was made for.
func DayFor(col string) bool {
	ws := NameWords(col)
	for i := 0; i+1 < len(ws); i++ {
		if ws[i+1] == "for" && MakingWord(ws[i]) && ws[i] != "created" {
			return true
		}
	}
	return false
}

// ExistedBy is the date that says whether a row of e existed on a day:
// the date its row was entered (EnteredName, time role start), where e is
// dated by the event each row records (a booking's scheduled_for, which
// may come long after the booking was made); else e's own date. "" where
// e has no date.
func ExistedBy(e *Entity) string {
	if e == nil || e.TimeColumn == "" {
		return ""
	}
	own := e.Name + "." + e.TimeColumn
	if c := e.Column(e.TimeColumn); c == nil || c.TimeRole != TimeRoleEvent {
		return own
	}
	found := ""
	for _, c := range e.Columns {
		if !c.Temporal() || c.TimeRole != TimeRoleStart && c.TimeRole != TimeRoleEvent || !EnteredName(c.Name) || strings.EqualFold(c.Name, e.TimeColumn) {
			continue
		}
		if found != "" {
			return own
		}
		found = e.Name + "." + c.Name
	}
	if found == "" {
		return own
	}
	return found
}
