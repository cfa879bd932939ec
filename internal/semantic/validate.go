package semantic

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a Model: where (a path such as
// "metrics[revenue].expr") and what.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// Validate checks that every reference in the model resolves: entity
// columns in expressions, filters, relationships and dimensions; metric
// references in derived metrics, without cycles; time grains; the column
// policy. It returns the problems in model order; none means valid.
func (m *Model) Validate() []Problem {
	var ps []Problem
	add := func(path, format string, args ...any) {
		ps = append(ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	// One index for every look-up: m.Entity scans the entities, and the
	// loops below run over all of them.
	ix := m.EntityIndex()
	refs := refNamesOf(m, ix.Get)
	var adj map[string][]edge
	checkExpr := func(path, expr string) {
		if strings.Contains(expr, ";") || strings.Contains(expr, "--") || strings.Contains(expr, "/*") {
			add(path, "an expression may not contain ';' or comments")
		}
		_, refs := rewriteRefs(expr, refs, true, nil)
		for _, r := range refs {
			e := ix.Get(r.Entity)
			if e == nil {
				add(path, "%s refers to %q, which is not an entity", r, r.Entity)
			} else if e.Column(r.Column) == nil {
				add(path, "%s: entity %s has no column %q", r, e.Name, r.Column)
			}
		}
	}
	checkCol := func(path, entity, col, what string) {
		if col == "" {
			return
		}
		e := ix.Get(entity)
		if e != nil && e.Column(col) == nil {
			add(path, "%s %q is not a column of %s", what, col, e.Name)
		}
	}
	names := map[string]string{}
	for i, e := range m.Entities {
		path := fmt.Sprintf("entities[%s]", e.Name)
		if e.Name == "" {
			add(fmt.Sprintf("entities[%d]", i), "an entity needs a name")
			continue
		}
		if names["e:"+strings.ToLower(e.Name)] != "" {
			add(path, "entity %s is defined twice", e.Name)
		}
		names["e:"+strings.ToLower(e.Name)] = e.Name
		checkCol(path+".primary_key", e.Name, e.PrimaryKey, "primary key")
		checkCol(path+".time_column", e.Name, e.TimeColumn, "time column")
		checkCol(path+".label", e.Name, e.Label, "label")
	}
	for i, r := range m.Relationships {
		path := fmt.Sprintf("relationships[%d]", i)
		if r.Name != "" {
			path = fmt.Sprintf("relationships[%s]", r.Name)
		}
		for _, side := range []struct{ ent, col, what string }{{r.From, r.FromColumn, "from"}, {r.To, r.ToColumn, "to"}} {
			if ix.Get(side.ent) == nil {
				add(path+"."+side.what, "%q is not an entity", side.ent)
			} else if side.col == "" {
				add(path+"."+side.what+"_column", "the join column is missing")
			} else {
				checkCol(path+"."+side.what+"_column", side.ent, side.col, "join column")
			}
		}
		switch r.Cardinality {
		case ManyToOne, OneToOne, OneToMany, ManyToMany:
		default:
			add(path+".cardinality", "cardinality %q is not one of many_to_one, one_to_one, one_to_many, many_to_many", r.Cardinality)
		}
	}
	for _, mt := range m.Metrics {
		path := fmt.Sprintf("metrics[%s]", mt.Name)
		if names["m:"+strings.ToLower(mt.Name)] != "" {
			add(path, "metric %s is defined twice", mt.Name)
		}
		names["m:"+strings.ToLower(mt.Name)] = mt.Name
		switch {
		case mt.Expr != "" && mt.Derived != "":
			add(path, "a metric has either expr or derived, not both")
		case mt.Expr == "" && mt.Derived == "":
			add(path, "a metric needs an expr (an aggregate) or derived (an expression over other metrics)")
		}
		if mt.Entity != "" && ix.Get(mt.Entity) == nil {
			add(path+".entity", "%q is not an entity", mt.Entity)
		}
		if mt.Expr != "" {
			checkExpr(path+".expr", mt.Expr)
		}
		for i, f := range mt.Filters {
			checkExpr(fmt.Sprintf("%s.filters[%d]", path, i), f)
		}
		if mt.Time != "" {
			e, c, ok := strings.Cut(mt.Time, ".")
			if !ok || strings.Contains(c, ".") {
				add(path+".time", "time must be written entity.column")
			} else if ix.Get(e) == nil {
				add(path+".time", "%q is not an entity", e)
			} else {
				checkCol(path+".time", e, c, "time")
			}
		}
		for _, ref := range DerivedRefs(mt.Derived) {
			if m.Metric(ref) == nil {
				add(path+".derived", "{%s} is not a metric", ref)
			}
		}
		if mt.Expr != "" {
			if adj == nil {
				adj = m.edges()
			}
			m.checkReach(mt, path, ix, refs, adj, add)
		}
	}
	for _, mt := range m.Metrics {
		if mt.Derived != "" && m.derivedCycle(mt.Name, mt.Name, map[string]bool{}) {
			add(fmt.Sprintf("metrics[%s].derived", mt.Name), "derived metrics refer to each other in a cycle")
		}
	}
	for _, d := range m.Dimensions {
		path := fmt.Sprintf("dimensions[%s]", d.Name)
		if names["d:"+strings.ToLower(d.Name)] != "" {
			add(path, "dimension %s is defined twice", d.Name)
		}
		names["d:"+strings.ToLower(d.Name)] = d.Name
		if d.Entity != "" && ix.Get(d.Entity) == nil {
			add(path+".entity", "%q is not an entity", d.Entity)
		}
		if d.Expr == "" {
			add(path+".expr", "a dimension needs an expr over entity.column")
		}
		checkExpr(path+".expr", d.Expr)
		for _, g := range d.Grains {
			if !isGrain(string(g)) {
				add(path+".grains", "grain %q is not one of day, week, month, quarter, year", g)
			}
		}
	}
	for i, r := range m.Restricted {
		t, c, ok := strings.Cut(r, ".")
		if !ok {
			add(fmt.Sprintf("restricted[%d]", i), "%q must be written table.column", r)
			continue
		}
		if e := ix.Get(t); e != nil && e.Column(c) == nil {
			add(fmt.Sprintf("restricted[%d]", i), "%s has no column %q", e.Name, c)
		}
	}
	return ps
}

// checkReach reports entities a metric reads that no relationship joins to
// the metric's entity, and inputs reached only by fan-out joins (the
// metric then belongs to the other entity).
func (m *Model) checkReach(mt Metric, path string, ix EntityIndex, names refNames, adj map[string][]edge, add func(string, string, ...any)) {
	c := &compiler{m: m, adj: adj, trees: map[string]*joinTree{}}
	root, err := c.metricEntity(&mt)
	if err != nil {
		return
	}
	t := c.tree(root)
	exprs := append([]string{mt.Expr}, mt.Filters...)
	for _, x := range exprs {
		_, refs := rewriteRefs(x, names, false, nil)
		for _, r := range refs {
			e := ix.Get(r.Entity).Name
			if e == root {
				continue
			}
			if _, ok := t.steps[e]; !ok {
				add(path, "no relationship joins %s to %s; add one under relationships", root, e)
			} else if x == mt.Expr && t.cost[e].fanOuts > 0 {
				add(path+".expr", "the aggregate reads %s, which is on the many side of %s; set the metric's entity to %s", r, root, e)
			}
		}
	}
}

func (m *Model) derivedCycle(start, name string, seen map[string]bool) bool {
	mt := m.Metric(name)
	if mt == nil || mt.Derived == "" {
		return false
	}
	if seen[mt.Name] {
		return mt.Name == start
	}
	seen[mt.Name] = true
	for _, r := range DerivedRefs(mt.Derived) {
		if r == start || m.derivedCycle(start, r, seen) {
			return true
		}
	}
	return false
}
