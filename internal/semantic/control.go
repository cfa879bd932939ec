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
	return c.relatedSQL(outer, Filter{Field: related, Op: op})
}

// relatedFilter reports whether a filter is on the rows of a related
// entity rather than on a field: none, some, or a count of them.
func relatedFilter(f Filter) bool { return f.OnRelated() }

// relatedSQL renders a filter on the rows of another entity that refer to
// each row of outer — directly, or through the one entity that links the
// two (a student's pets through has_pet) — and meet the filter's Where
// conditions: [NOT] EXISTS for none and some, and for a count "(SELECT
// COUNT(*) …) op n", which is 0 for a row with none (so "fewer than 2
// orders" keeps the customers who never ordered). It returns the outer
// column it refers to.
func (c *compiler) relatedSQL(outer string, f Filter) (string, colRef, error) {
	var lit string
	switch {
	case f.Count:
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
		l, err := c.d.literal(f.Values[0])
		if err != nil {
			return "", colRef{}, err
		}
		lit = l
	case len(f.Values) > 0:
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "filter %s on %s takes no values", f.Op, f.Field)
	}
	o, r := c.m.Entity(outer), c.m.Entity(f.Field)
	if o == nil || r == nil {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "unknown entity %q or %q", outer, f.Field)
	}
	from, link, ref, err := c.relatedFrom(o.Name, r.Name)
	if err != nil {
		return "", colRef{}, err
	}
	conds := []string{link}
	joined := map[string]bool{}
	for _, w := range f.Where {
		s, via, err := c.whereOn(r.Name, w)
		if err != nil {
			return "", colRef{}, err
		}
		if via != "" && !joined[strings.ToLower(via)] {
			// "products with no sales": the order lines of completed
			// orders, the one order each line refers to.
			j, err := c.parentJoin(r.Name, via)
			if err != nil {
				return "", colRef{}, err
			}
			from += j
			joined[strings.ToLower(via)] = true
		}
		conds = append(conds, s)
	}
	where := strings.Join(conds, " AND ")
	if f.Count {
		op := string(f.Op)
		if f.Op == OpNe {
			op = "<>"
		}
		return "(SELECT COUNT(*) FROM " + from + " WHERE " + where + ") " + op + " " + lit, ref, nil
	}
	not := "NOT "
	if f.Op == OpSome {
		not = ""
	}
	return not + "EXISTS (SELECT 1 FROM " + from + " WHERE " + where + ")", ref, nil
}

// relatedFrom is the FROM of a subquery over related's rows and the
// condition that ties them to outer's row: the one relationship between
// them, or else the one entity whose rows refer to both (many of its rows
// to one of each). Every column it joins on passes the column policy.
func (c *compiler) relatedFrom(outer, related string) (from, link string, ref colRef, err error) {
	ocol, rcol, err := c.directJoin(outer, related)
	if err == nil {
		ref = colRef{outer, ocol}
		if err := c.checkCols(ref, colRef{related, rcol}); err != nil {
			return "", "", colRef{}, err
		}
		return c.tableRef(related), c.col(colRef{related, rcol}) + " = " + c.col(ref), ref, nil
	}
	if strings.EqualFold(outer, related) {
		return "", "", colRef{}, err
	}
	for _, rel := range c.m.Relationships {
		if strings.EqualFold(rel.From, outer) && strings.EqualFold(rel.To, related) || strings.EqualFold(rel.From, related) && strings.EqualFold(rel.To, outer) {
			return "", "", colRef{}, err // joined, but not by one relationship
		}
	}
	type linking struct {
		entity             string
		toOuter, toRelated Relationship
	}
	var links []linking
	for i := range c.m.Entities {
		l := c.m.Entities[i].Name
		if strings.EqualFold(l, outer) || strings.EqualFold(l, related) {
			continue
		}
		var to, tr []Relationship
		for _, rel := range c.m.Relationships {
			if !strings.EqualFold(rel.From, l) || rel.Cardinality == OneToMany || rel.Cardinality == ManyToMany {
				continue
			}
			switch {
			case strings.EqualFold(rel.To, outer):
				to = append(to, rel)
			case strings.EqualFold(rel.To, related):
				tr = append(tr, rel)
			}
		}
		if len(to) == 1 && len(tr) == 1 {
			links = append(links, linking{l, to[0], tr[0]})
		}
	}
	if len(links) != 1 {
		return "", "", colRef{}, quarry.Errorf(quarry.KindUnsupported, "%s and %s are not joined directly or through exactly one table that links them", outer, related)
	}
	lk := links[0]
	ref = colRef{outer, lk.toOuter.ToColumn}
	lo, lr, rr := colRef{lk.entity, lk.toOuter.FromColumn}, colRef{lk.entity, lk.toRelated.FromColumn}, colRef{related, lk.toRelated.ToColumn}
	if err := c.checkCols(ref, lo, lr, rr); err != nil {
		return "", "", colRef{}, err
	}
	from = c.tableRef(lk.entity) + " JOIN " + c.tableRef(related) + " ON " + c.col(rr) + " = " + c.col(lr)
	return from, c.col(lo) + " = " + c.col(ref), ref, nil
}

func (c *compiler) checkCols(refs ...colRef) error {
	for _, r := range refs {
		if err := c.checkPolicy(r); err != nil {
			return err
		}
	}
	return nil
}

// whereOn renders a condition of a related filter: a plain filter on a
// column of the related entity (or a dimension over its columns alone),
// or on the columns of the one row of another entity each related row
// refers to (via: that entity, which the subquery joins: parentJoin).
func (c *compiler) whereOn(related string, w Filter) (sql, via string, err error) {
	if relatedFilter(w) || w.Against != "" {
		return "", "", quarry.Errorf(quarry.KindUnsupported, "a condition on the %s rows must be a plain filter on their columns", related)
	}
	fd, err := c.m.ResolveField(w.Field)
	if err != nil {
		return "", "", err
	}
	x, refs, err := c.fieldExpr(fd)
	if err != nil {
		return "", "", err
	}
	for _, r := range refs {
		switch {
		case strings.EqualFold(r.Entity, related):
		case via == "" || strings.EqualFold(r.Entity, via):
			if _, err := c.parentJoin(related, r.Entity); err != nil {
				return "", "", quarry.Errorf(quarry.KindInput, "the condition on %s is about %s rows, not %s rows", w.Field, r.Entity, related)
			}
			via = r.Entity
		default:
			return "", "", quarry.Errorf(quarry.KindInput, "the condition on %s is about %s rows, not %s rows", w.Field, r.Entity, related)
		}
	}
	if len(refs) == 0 {
		return "", "", quarry.Errorf(quarry.KindInput, "the condition on %s reads no column of %s", w.Field, related)
	}
	sql, err = c.filterSQL(x, refs, w)
	return sql, via, err
}

// parentJoin is " JOIN parent ON …": the one row of parent that each row
// of child refers to, through the one many-to-one relationship between
// them; an error when there is not exactly one.
func (c *compiler) parentJoin(child, parent string) (string, error) {
	var found *Relationship
	n := 0
	for i := range c.m.Relationships {
		r := &c.m.Relationships[i]
		if strings.EqualFold(r.From, child) && strings.EqualFold(r.To, parent) || strings.EqualFold(r.From, parent) && strings.EqualFold(r.To, child) {
			found, n = r, n+1
		}
	}
	if n != 1 || strings.EqualFold(child, parent) || !strings.EqualFold(found.From, child) || found.Cardinality != ManyToOne && found.Cardinality != "" {
		return "", quarry.Errorf(quarry.KindUnsupported, "each %s row does not refer to one %s row", child, parent)
	}
	if pe := c.m.Entity(found.To); pe == nil || !strings.EqualFold(pe.PrimaryKey, found.ToColumn) {
		return "", quarry.Errorf(quarry.KindUnsupported, "each %s row does not refer to one %s row by its key", child, parent)
	}
	p, k := colRef{found.To, found.ToColumn}, colRef{found.From, found.FromColumn}
	if err := c.checkCols(p, k); err != nil {
		return "", err
	}
	return " JOIN " + c.tableRef(found.To) + " ON " + c.col(p) + " = " + c.col(k), nil
}
