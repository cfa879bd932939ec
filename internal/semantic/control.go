package semantic

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// EmptyGroupsSQL is a control query: how many rows of entity group have no
// row of entity counted, through the one relationship between them
// (SELECT COUNT(*) … WHERE … NOT IN …). A count grouped by group's
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

// existsSQL is "outer.col [NOT] IN (SELECT related.col FROM related)":
// whether a row of outer has rows of related (OpSome) or none (OpNone).
// It returns the outer column it refers to.
func (c *compiler) existsSQL(outer, related string, op Op) (string, colRef, error) {
	return c.relatedSQL(outer, Filter{Field: related, Op: op})
}

// relatedFilter reports whether a filter is on the rows of a related
// entity rather than on a field: none, some, or a count of them.
func relatedFilter(f Filter) bool { return f.OnRelated() }

// relatedSQL renders a filter on the rows of another entity that refer to
// each row of outer — directly, or through the one entity that links the
// two (a student's pets through has_pet) — and meet the filter's Where
// conditions: [NOT] IN a subquery for none and some (semiJoin), and for a
// count "IN (… GROUP BY … HAVING COUNT(*) op n)", or, where 0 meets the
// comparison, NOT IN those whose count does not (so "fewer than 2 orders"
// keeps the customers who never ordered). It returns the outer column it
// refers to.
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
	if f.Count && c.throughChain(o.Name, r.Name) {
		// A count through other rows counts those rows (a customer's
		// order lines, not the products they hold).
		return "", colRef{}, quarry.Errorf(quarry.KindUnsupported, "quarry counts only the rows of %s that refer to each %s row directly, not through other tables", r.Name, o.Name)
	}
	from, inner, conds, ref, err := c.subquery(o.Name, r.Name, f.Where)
	if err != nil {
		return "", colRef{}, err
	}
	if f.Count {
		op := string(f.Op)
		if f.Op == OpNe {
			op = "<>"
		}
		n, _ := quarry.Float(f.Values[0])
		count := "COUNT(*) " + op + " " + lit
		switch zero, one := countPasses(f.Op, 0, n), countPasses(f.Op, 1, n); {
		case zero && !one && f.Op != OpNe:
			// No row of 1 or more passes (fewer than 1, exactly 0): none.
			return c.semiJoin(false, ref, inner, from, conds, ""), ref, nil
		case !zero && one && f.Op != OpLt && f.Op != OpLe && f.Op != OpEq:
			// Every row of 1 or more passes (more than 0): some.
			return c.semiJoin(true, ref, inner, from, conds, ""), ref, nil
		case zero:
			// A row with none passes: those whose count fails are out.
			return c.semiJoin(false, ref, inner, from, conds, "NOT ("+count+")"), ref, nil
		}
		return c.semiJoin(true, ref, inner, from, conds, count), ref, nil
	}
	return c.semiJoin(f.Op == OpSome, ref, inner, from, conds, ""), ref, nil
}

// countPasses reports whether a count of k meets "count op n".
func countPasses(op Op, k, n float64) bool {
	switch op {
	case OpEq:
		return k == n
	case OpNe:
		return k != n
	case OpLt:
		return k < n
	case OpLe:
		return k <= n
	case OpGt:
		return k > n
	case OpGe:
		return k >= n
	}
	return false
}

// semiJoin renders whether outer's column ref is among the values of
// inner in the rows of a subquery (in) or is not (!in): "ref IN (SELECT
// inner FROM from WHERE conds [GROUP BY inner HAVING having])". The
// subquery does not refer to the outer row, so every engine runs it once
// rather than once per outer row: a correlated EXISTS over a column with
// no index took 46 s on SQLite where this takes 0.04 s (found from
// outside: "how many orders had a Ribeye Steak last month" ran past the
// timeout). NOT IN is read as NOT EXISTS reads: an empty inner value is
// never in the list, and a row whose ref is empty (it can be, unless it
// is the key) has none.
func (c *compiler) semiJoin(in bool, ref, inner colRef, from string, conds []string, having string) string {
	if !in && c.d.d.AntiJoinExists() {
		return c.antiJoin(ref, inner, from, conds, having)
	}
	if !in && !c.isKey(inner) {
		conds = append([]string{c.col(inner) + " IS NOT NULL"}, conds...)
	}
	sub := "SELECT " + c.col(inner) + " FROM " + from
	if len(conds) > 0 {
		sub += " WHERE " + strings.Join(conds, " AND ")
	}
	if having != "" {
		sub += " GROUP BY " + c.col(inner) + " HAVING " + having
	}
	if in {
		return c.col(ref) + " IN (" + sub + ")"
	}
	not := c.col(ref) + " NOT IN (" + sub + ")"
	if c.isKey(ref) {
		return not
	}
	return "(" + c.col(ref) + " IS NULL OR " + not + ")"
}

// antiJoin is semiJoin's NOT IN as NOT EXISTS, for an engine that runs
// it as a hash anti-join (dialect AntiJoinExists: PostgreSQL, whose NOT IN
// a large subquery runs once per outer row): "NOT EXISTS (SELECT 1 FROM
// from WHERE inner = ref AND conds)", and with having over the groups
// that fail, "NOT EXISTS (SELECT 1 FROM (SELECT inner AS k … GROUP BY
// inner HAVING having) AS failing WHERE failing.k = ref)".
func (c *compiler) antiJoin(ref, inner colRef, from string, conds []string, having string) string {
	if having == "" {
		return "NOT EXISTS (SELECT 1 FROM " + from + " WHERE " + strings.Join(append([]string{c.col(inner) + " = " + c.col(ref)}, conds...), " AND ") + ")"
	}
	sub := "SELECT " + c.col(inner) + " AS k FROM " + from
	if len(conds) > 0 {
		sub += " WHERE " + strings.Join(conds, " AND ")
	}
	sub += " GROUP BY " + c.col(inner) + " HAVING " + having
	return "NOT EXISTS (SELECT 1 FROM (" + sub + ") AS failing WHERE failing.k = " + c.col(ref) + ")"
}

// isKey reports whether ref is its entity's one primary key column, which
// is never empty.
func (c *compiler) isKey(ref colRef) bool {
	e := c.m.Entity(ref.Entity)
	return e != nil && e.PrimaryKey != "" && strings.EqualFold(e.PrimaryKey, ref.Column)
}

// subquery is the FROM of a subquery over related's rows that refer to
// each row of outer, and its conditions: the one that ties them to
// outer's row, then each of where's, with the rows they are on joined up
// from related's ("products with no sales": the order lines of completed
// orders, the one order each line refers to; "drivers with more than 100
// delivery attempts": those of shipments of real customers, up two
// steps). It returns the outer column it refers to.
func (c *compiler) subquery(outer, related string, where []Filter) (from string, inner colRef, conds []string, ref colRef, err error) {
	from, inner, ref, through, err := c.relatedFrom(outer, related)
	if err != nil {
		return "", colRef{}, nil, colRef{}, err
	}
	from, conds, err = c.subqueryFrom(related, outer, from, through, where)
	return from, inner, conds, ref, err
}

// subqueryFrom is subquery's conditions on a FROM made already, which
// joins through besides related; the tables where's conditions are on are
// joined to it.
func (c *compiler) subqueryFrom(related, outer, from string, through []string, where []Filter) (string, []string, error) {
	var conds []string
	joined := map[string]bool{}
	for _, e := range through {
		joined[strings.ToLower(e)] = true // already in the FROM
	}
	for _, w := range where {
		s, up, err := c.whereOn(related, outer, w, joined)
		if err != nil {
			return "", nil, err
		}
		for _, step := range up {
			if joined[strings.ToLower(step.To)] {
				continue
			}
			// Left: a row that refers to none (a work order with no
			// technician yet) is kept by a condition that keeps the
			// empty ("not a test technician"), as the outer query's
			// left joins keep it (found from outside: a customer's only
			// work orders, with none, dropped, at 1.00).
			j, err := c.joinUp("LEFT JOIN", step)
			if err != nil {
				return "", nil, err
			}
			from += j
			joined[strings.ToLower(step.To)] = true
		}
		conds = append(conds, s)
	}
	return from, conds, nil
}

// throughSQL renders a plain filter with Through: "outer.col NOT IN
// (SELECT through.key FROM through … WHERE NOT (filter))", the filter's
// row joined up from through's: no row it reaches fails the filter. It
// returns the outer column it refers to.
func (c *compiler) throughSQL(outer string, f Filter) (string, colRef, error) {
	if relatedFilter(f) || f.Against != "" {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "only a plain filter is read through %s", f.Through)
	}
	t := c.m.Entity(f.Through)
	if t == nil {
		return "", colRef{}, quarry.Errorf(quarry.KindInput, "unknown entity %q to read %s through", f.Through, f.Field)
	}
	w := f
	w.Through = ""
	from, inner, conds, ref, err := c.subquery(outer, t.Name, []Filter{w})
	if err != nil {
		// Up a chain of references from outer's rows to through's (a
		// part used's visit's work order): the one each row reaches.
		steps, uerr := c.upChain(outer, t.Name, "")
		if uerr != nil || len(steps) < 2 {
			return "", colRef{}, err
		}
		first := steps[0]
		up, own := colRef{first.To, first.ToColumn}, colRef{outer, first.FromColumn}
		if err := c.checkCols(up, own); err != nil {
			return "", colRef{}, err
		}
		chain := c.tableRef(first.To)
		var joined []string
		for _, r := range steps[1:] {
			j, err := c.joinUp("JOIN", r)
			if err != nil {
				return "", colRef{}, err
			}
			chain += j
			joined = append(joined, r.From)
		}
		if from, conds, err = c.subqueryFrom(t.Name, outer, chain, joined, []Filter{w}); err != nil {
			return "", colRef{}, err
		}
		inner, ref = up, own
	}
	last := len(conds) - 1
	conds[last] = "NOT (" + conds[last] + ")"
	return c.semiJoin(false, ref, inner, from, conds, ""), ref, nil
}

// relatedFrom is the FROM of a subquery over related's rows, and its
// column (inner) that holds outer's column (ref) in the rows of each outer
// row: the one relationship between
// them, or else the path Model.Related finds (an entity whose rows refer
// to both, or a chain of references to both). joined are the entities the
// FROM joins besides related. Every column it joins on passes the column
// policy.
func (c *compiler) relatedFrom(outer, related string) (from string, inner, ref colRef, joined []string, err error) {
	ocol, rcol, err := c.directJoin(outer, related)
	if err == nil {
		ref = colRef{outer, ocol}
		if err := c.checkCols(ref, colRef{related, rcol}); err != nil {
			return "", colRef{}, colRef{}, nil, err
		}
		return c.tableRef(related), colRef{related, rcol}, ref, nil, nil
	}
	if strings.EqualFold(outer, related) || c.m.joinedDirectly(outer, related) > 0 {
		return "", colRef{}, colRef{}, nil, err // joined, but not by one relationship
	}
	path, ok := c.m.Related(outer, related)
	if !ok {
		return "", colRef{}, colRef{}, nil, quarry.Errorf(quarry.KindUnsupported, "%s and %s are not joined directly or in exactly one way through the tables that refer to them", outer, related)
	}
	from = c.tableRef(path.Link)
	if !strings.EqualFold(path.Link, related) {
		joined = append(joined, path.Link)
	}
	// Up from the link to related, then to the last step before outer.
	steps := append(slices.Clone(path.ToRelated), path.ToOuter[:len(path.ToOuter)-1]...)
	for _, r := range steps {
		j, err := c.joinUp("JOIN", r)
		if err != nil {
			return "", colRef{}, colRef{}, nil, err
		}
		from += j
		if !strings.EqualFold(r.To, related) {
			joined = append(joined, r.To)
		}
	}
	last := path.ToOuter[len(path.ToOuter)-1]
	ref = colRef{outer, last.ToColumn}
	lo := colRef{last.From, last.FromColumn}
	if err := c.checkCols(ref, lo); err != nil {
		return "", colRef{}, colRef{}, nil, err
	}
	return from, lo, ref, joined, nil
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
// of an entity the subquery joins already (joined), or on the columns of
// the one row of another entity each related row refers to, directly or
// up a chain of such references (up: the steps to join, from related's
// rows; the one shortest chain, at most three steps, never through the
// outer rows, which the subquery refers to and cannot join again).
func (c *compiler) whereOn(related, outer string, w Filter, joined map[string]bool) (sql string, up []Relationship, err error) {
	if relatedFilter(w) || w.Against != "" {
		return "", nil, quarry.Errorf(quarry.KindUnsupported, "a condition on the %s rows must be a plain filter on their columns", related)
	}
	if w.Through != "" {
		// On the row each related row reaches by way of another table
		// (an exam result's class's teacher), in a subquery of its own.
		s, _, err := c.throughSQL(related, w)
		return s, nil, err
	}
	fd, err := c.m.ResolveField(w.Field)
	if err != nil {
		return "", nil, err
	}
	x, refs, err := c.fieldExpr(fd)
	if err != nil {
		return "", nil, err
	}
	via := ""
	for _, r := range refs {
		switch {
		case strings.EqualFold(r.Entity, related):
		case joined[strings.ToLower(r.Entity)] && via == "":
			// A table the subquery already joins on its way to the
			// outer row ("bought Toys in Q1": the order of each line).
		case via == "" || strings.EqualFold(r.Entity, via):
			if via == "" {
				if up, err = c.upChain(related, r.Entity, outer); err != nil {
					return "", nil, quarry.Errorf(quarry.KindInput, "the condition on %s is about %s rows, not %s rows", w.Field, r.Entity, related)
				}
			}
			via = r.Entity
		default:
			return "", nil, quarry.Errorf(quarry.KindInput, "the condition on %s is about %s rows, not %s rows", w.Field, r.Entity, related)
		}
	}
	if len(refs) == 0 {
		return "", nil, quarry.Errorf(quarry.KindInput, "the condition on %s reads no column of %s", w.Field, related)
	}
	sql, err = c.filterSQL(x, refs, w)
	return sql, up, err
}

// upChain is the chain of references from child's rows up to the one row
// of parent each refers to: the one many-to-one relationship between
// them (parentJoin's), or else the one shortest chain of such references,
// each to a row's key, of at most three steps, none through avoid; an
// error when there is none or more than one.
func (c *compiler) upChain(child, parent, avoid string) ([]Relationship, error) {
	if strings.EqualFold(parent, avoid) {
		return nil, quarry.Errorf(quarry.KindUnsupported, "%s is the outer table", parent)
	}
	if _, err := c.parentJoin(child, parent); err == nil {
		for _, r := range c.m.refsFrom(child, parent) {
			return []Relationship{r}, nil
		}
	}
	if c.m.joinedDirectly(child, parent) > 0 {
		return nil, quarry.Errorf(quarry.KindUnsupported, "each %s row does not refer to one %s row", child, parent)
	}
	paths := shortest(c.m.upPaths(child, parent, 3, map[string]bool{strings.ToLower(avoid): true}))
	if len(paths) != 1 {
		return nil, quarry.Errorf(quarry.KindUnsupported, "%s rows do not refer to %s rows in exactly one way", child, parent)
	}
	for _, r := range paths[0] {
		if pe := c.m.Entity(r.To); pe == nil || !strings.EqualFold(pe.PrimaryKey, r.ToColumn) {
			return nil, quarry.Errorf(quarry.KindUnsupported, "each %s row does not refer to one %s row by its key", r.From, r.To)
		}
	}
	return paths[0], nil
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
	return c.joinUp("JOIN", *found)
}

// joinUp is " JOIN r.To ON r.To.key = r.From.column" (or a LEFT JOIN, by
// kind): the one row step r's rows refer to, both columns passing the
// column policy.
func (c *compiler) joinUp(kind string, r Relationship) (string, error) {
	p, k := colRef{r.To, r.ToColumn}, colRef{r.From, r.FromColumn}
	if err := c.checkCols(p, k); err != nil {
		return "", err
	}
	return " " + kind + " " + c.tableRef(r.To) + " ON " + c.col(p) + " = " + c.col(k), nil
}

// throughChain reports whether related's rows reach outer's through a
// chain of references longer than one linking table, whose rows a count
// would count (a customer's order lines, not the products they hold).
func (c *compiler) throughChain(outer, related string) bool {
	p, ok := c.m.Related(outer, related)
	return ok && (len(p.ToOuter) > 1 || len(p.ToRelated) > 1 || strings.EqualFold(p.Link, related))
}
