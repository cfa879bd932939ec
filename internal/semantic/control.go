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
	comp := &compiler{m: m, d: dl}
	exists, _, err := comp.existsSQL(g.Name, c.Name, OpNone)
	if err != nil {
		return "", err
	}
	return "SELECT COUNT(*) AS empty_groups FROM " + comp.tableRef(g.Name) + " WHERE " + exists, nil
}

// directJoin is the columns of the one relationship between two entities:
// outer's column and related's column, or an error when they are not
// joined directly.
func (c *compiler) directJoin(outer, related string) (ocol, rcol string, err error) {
	n := 0
	for _, r := range c.m.Relationships {
		switch {
		case strings.EqualFold(r.From, related) && strings.EqualFold(r.To, outer):
			ocol, rcol, n = r.ToColumn, r.FromColumn, n+1
		case strings.EqualFold(r.From, outer) && strings.EqualFold(r.To, related):
			ocol, rcol, n = r.FromColumn, r.ToColumn, n+1
		}
	}
	switch {
	case n == 0 || strings.EqualFold(outer, related):
		return "", "", quarry.Errorf(quarry.KindUnsupported, "%s and %s are not joined directly", outer, related)
	case n > 1:
		return "", "", quarry.Errorf(quarry.KindUnsupported, "%d relationships join %s and %s; quarry does not guess which one is meant", n, outer, related)
	}
	return ocol, rcol, nil
}

// existsSQL is "[NOT] EXISTS (SELECT 1 FROM related WHERE related.col =
// outer.col)": whether a row of outer has rows of related (OpSome) or
// none (OpNone). It returns the outer column it refers to.
func (c *compiler) existsSQL(outer, related string, op Op) (string, colRef, error) {
	o, r := c.m.Entity(outer), c.m.Entity(related)
	if o == nil || r == nil {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "unknown entity %q or %q", outer, related)
	}
	ocol, rcol, err := c.directJoin(o.Name, r.Name)
	if err != nil {
		return "", colRef{}, err
	}
	ref := colRef{o.Name, ocol}
	if err := c.checkPolicy(ref); err != nil {
		return "", colRef{}, err
	}
	if err := c.checkPolicy(colRef{r.Name, rcol}); err != nil {
		return "", colRef{}, err
	}
	not := "NOT "
	if op == OpSome {
		not = ""
	}
	return not + "EXISTS (SELECT 1 FROM " + c.tableRef(r.Name) + " WHERE " + c.col(colRef{r.Name, rcol}) + " = " + c.col(ref) + ")", ref, nil
}

// relatedFilter reports whether a filter is on the rows of a related
// entity rather than on a field: none, some, or a count of them.
func relatedFilter(f Filter) bool {
	return f.Op == OpNone || f.Op == OpSome || f.Count
}

// relatedSQL renders a filter on the rows of another entity that refer to
// each row of outer: [NOT] EXISTS for none and some, and for a count
// "(SELECT COUNT(*) FROM related WHERE related.col = outer.col) op n",
// which is 0 for a row with none (so "fewer than 2 orders" keeps the
// customers who never ordered).
func (c *compiler) relatedSQL(outer string, f Filter) (string, colRef, error) {
	if !f.Count {
		if len(f.Values) > 0 {
			return "", colRef{}, quarry.Errorf(quarry.KindInput, "filter %s on %s takes no values", f.Op, f.Field)
		}
		return c.existsSQL(outer, f.Field, f.Op)
	}
	switch f.Op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
	default:
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "a count of %s takes a comparison (<, <=, >, >=, =, !=), not %q", f.Field, f.Op)
	}
	if len(f.Values) != 1 {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "a count of %s is compared with one number, got %d values", f.Field, len(f.Values))
	}
	if _, ok := quarry.Float(f.Values[0]); !ok {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "a count of %s is compared with a number, not %v", f.Field, f.Values[0])
	}
	o, r := c.m.Entity(outer), c.m.Entity(f.Field)
	if o == nil || r == nil {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "unknown entity %q or %q", outer, f.Field)
	}
	ocol, rcol, err := c.directJoin(o.Name, r.Name)
	if err != nil {
		return "", colRef{}, err
	}
	ref := colRef{o.Name, ocol}
	for _, x := range []colRef{ref, {r.Name, rcol}} {
		if err := c.checkPolicy(x); err != nil {
			return "", colRef{}, err
		}
	}
	lit, err := c.d.literal(f.Values[0])
	if err != nil {
		return "", colRef{}, err
	}
	op := string(f.Op)
	if f.Op == OpNe {
		op = "<>"
	}
	return "(SELECT COUNT(*) FROM " + c.tableRef(r.Name) + " WHERE " + c.col(colRef{r.Name, rcol}) + " = " + c.col(ref) + ") " + op + " " + lit, ref, nil
}
