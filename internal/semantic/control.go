package semantic

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// EmptyGroupsSQL is a control query: how many rows of entity group have no
// row of entity counted, through the one relationship between them
// (SELECT COUNT(*) … WHERE NOT EXISTS …). A count grouped by group's
// columns and filtered to admit zero ("fewer than 2") is complete only
// when this is 0. It is an error when the two entities are not joined
// directly.
func EmptyGroupsSQL(m *Model, group, counted string, d quarry.Dialect) (string, error) {
	dl, err := newDialect(d)
	if err != nil {
		return "", err
	}
	g, c := m.Entity(group), m.Entity(counted)
	if g == nil || c == nil {
		return "", quarry.Errorf(quarry.KindInput, "unknown entity %q or %q", group, counted)
	}
	var gcol, ccol string
	for _, r := range m.Relationships {
		switch {
		case strings.EqualFold(r.From, c.Name) && strings.EqualFold(r.To, g.Name):
			ccol, gcol = r.FromColumn, r.ToColumn
		case strings.EqualFold(r.From, g.Name) && strings.EqualFold(r.To, c.Name):
			gcol, ccol = r.FromColumn, r.ToColumn
		default:
			continue
		}
		break
	}
	if gcol == "" || ccol == "" {
		return "", quarry.Errorf(quarry.KindUnsupported, "%s and %s are not joined directly", g.Name, c.Name)
	}
	comp := &compiler{m: m, d: dl}
	return "SELECT COUNT(*) AS empty_groups FROM " + comp.tableRef(g.Name) +
		" WHERE NOT EXISTS (SELECT 1 FROM " + comp.tableRef(c.Name) +
		" WHERE " + comp.col(colRef{c.Name, ccol}) + " = " + comp.col(colRef{g.Name, gcol}) + ")", nil
}
