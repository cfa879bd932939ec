package semantic

import (
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
