package planner

import (
	"github.com/quarrydata/quarry/internal/semantic"
)

// namePartGroups are the groupings that name each row of ent beside its
// key where no one column names them but a first and a last name do
// (found from outside: "top 5 customers by spend" named customers 17, 99
// and 235). Grouped with the key, they split no group; none where either
// is restricted.
func (p *Planner) namePartGroups(ent *semantic.Entity) []string {
	first, last := semantic.NameParts(ent)
	if first == "" || p.m.IsRestricted(ent.Name, first) || p.m.IsRestricted(ent.Name, last) {
		return nil
	}
	return []string{ent.Name + "." + first, ent.Name + "." + last}
}
