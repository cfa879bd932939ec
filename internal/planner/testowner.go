package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// ownerBy reports how child's rows belong to parent's, for leaving out
// the rows of no real data: owned (a key named after the parent: an
// order's customer_id), whose test, deleted and void rows take theirs
// with them as goesWith says; or refersTest, a key named otherwise (a
// procedure's surgeon_id, an admission's attending_doctor_id, both to
// staff) to a table that marks test rows, whose test rows alone make
// theirs test data — a test surgeon's procedures are made up too, where a
// deleted one's still happened (found from outside: the procedures of a
// test surgeon counted in 19 answers, 103 for 75, at 1.00). The one
// reference of child to parent only: two (a trip's origin and
// destination) name roles, of which none is the owner.
func (p *Planner) ownerBy(m *semantic.Model, parent *semantic.Entity, child string) (owned, refersTest bool) {
	if parent == nil || parent.Role != nil || strings.EqualFold(parent.Name, child) {
		return false, false
	}
	if p.owns(parent.Name, child) {
		return true, false
	}
	n := 0
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, child) && strings.EqualFold(r.To, parent.Name) {
			n++
		}
	}
	if n != 1 {
		return false, false
	}
	for _, c := range parent.Columns {
		if _, ok := unrealFilter(m, parent, c); ok && testWord(semantic.UnrealFlag(c)) {
			return false, true
		}
	}
	return false, false
}
