package knowledge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// liveSchema answers whether tables and columns exist in the catalog.
type liveSchema struct {
	tables map[string]*quarry.TableInfo // lower "name" and "schema.name"
}

func newLiveSchema(cat *quarry.Catalog) *liveSchema {
	return &liveSchema{tables: tablesByName(cat)}
}

func (s *liveSchema) table(name string) *quarry.TableInfo { return s.tables[strings.ToLower(name)] }

// entity is the live table of e's relation, by its (schema, table) pair.
func (s *liveSchema) entity(e *semantic.Entity) *quarry.TableInfo {
	if t := s.tables[entityKey(e)]; t != nil {
		return t
	}
	return s.tables[strings.ToLower(e.TableName())]
}

// findDrift reports knowledge that refers to tables or columns that the
// catalog no longer has. Lines of model.yaml come from the file just
// written (nm); the other files were not rewritten above their candidates.
func findDrift(cat *quarry.Catalog, old *existing, merged *modelDoc, nm *modelDoc) []Drift {
	live := newLiveSchema(cat)
	var out []Drift
	add := func(file string, line int, what, format string, args ...any) {
		out = append(out, Drift{File: file, Line: line, What: what, Message: fmt.Sprintf(format, args...)})
	}
	entities := map[string]*semantic.Entity{}
	for i := range merged.Entities {
		entities[strings.ToLower(merged.Entities[i].Name)] = &merged.Entities[i]
	}
	tableOf := func(e *semantic.Entity) string { return e.QualifiedName() }
	// gone describes why entity.column does not resolve against the
	// database, or "" when it does or when the entity is not in the model.
	gone := func(entity, column string) string {
		e := entities[strings.ToLower(entity)]
		if e == nil {
			return ""
		}
		t := live.entity(e)
		if t == nil {
			return fmt.Sprintf("table %s no longer exists", tableOf(e))
		}
		if column != "" && t.Column(column) == nil {
			return fmt.Sprintf("column %s.%s no longer exists", tableOf(e), column)
		}
		return ""
	}

	// model.yaml and entities/: entities, columns, relationships, at
	// their places in the files just written (nm).
	entPlace := make(map[string]place, len(nm.Entities))
	for i, e := range nm.Entities {
		entPlace[strings.ToLower(e.Name)] = nm.ents[i]
	}
	relPlace := make(map[string]place, len(nm.Relationships))
	relKey := func(r semantic.Relationship) string {
		return strings.ToLower(r.From + "\x00" + r.FromColumn + "\x00" + r.To + "\x00" + r.ToColumn)
	}
	for i, r := range nm.Relationships {
		relPlace[relKey(r)] = nm.rels[i]
	}
	for _, e := range merged.Entities {
		pl := entPlace[strings.ToLower(e.Name)]
		if why := gone(e.Name, ""); why != "" {
			add(pl.file, pl.line(""), "entity "+e.Name, "%s; remove the entity or set table: to its new name", why)
			continue
		}
		for j, c := range e.Columns {
			if why := gone(e.Name, c.Name); why != "" {
				add(pl.file, pl.line(fmt.Sprintf("columns[%d]", j)), "column "+e.Name+"."+c.Name, "%s; remove it or rename it", why)
			}
		}
	}
	for _, r := range merged.Relationships {
		pl := relPlace[relKey(r)]
		what := fmt.Sprintf("relationship %s.%s -> %s.%s", r.From, r.FromColumn, r.To, r.ToColumn)
		why := gone(r.From, r.FromColumn)
		if why == "" {
			why = gone(r.To, r.ToColumn)
		}
		if why != "" {
			add(pl.file, pl.line(""), what, "%s; fix or remove the relationship", why)
		}
	}

	// metrics.yaml: metrics and dimensions
	refsGone := func(exprs ...string) string {
		for _, x := range exprs {
			for _, r := range qualifiedRefs(x) {
				if why := gone(r.entity, r.column); why != "" {
					return fmt.Sprintf("refers to %s.%s, but %s", r.entity, r.column, why)
				}
			}
		}
		return ""
	}
	xd := old.metrics.d
	for i, m := range old.metrics.Metrics {
		p := fmt.Sprintf("metrics[%d]", i)
		why := ""
		if m.Entity != "" {
			if g := gone(m.Entity, ""); g != "" {
				why = "its entity " + m.Entity + ": " + g
			}
		}
		if why == "" {
			why = refsGone(append([]string{m.Expr, m.Time}, m.Filters...)...)
		}
		if why != "" {
			add(MetricsFile, xd.LineOf(p), "metric "+m.Name, "%s; update the metric", why)
		}
	}
	for i, x := range old.metrics.Dimensions {
		p := fmt.Sprintf("dimensions[%d]", i)
		why := ""
		if g := gone(x.Entity, ""); g != "" {
			why = "its entity " + x.Entity + ": " + g
		} else {
			why = refsGone(x.Expr)
		}
		if why != "" {
			add(MetricsFile, xd.LineOf(p), "dimension "+x.Name, "%s; update the dimension", why)
		}
	}

	// policy.yaml
	for _, r := range old.policy {
		// Any reading of the rule that names a live column keeps it.
		readings := semantic.RestrictedReadings(r.Column)
		if len(readings) == 0 {
			continue
		}
		t, c := readings[0][0], readings[0][1]
		var lt *quarry.TableInfo
		for _, tc := range readings {
			l := live.table(tc[0])
			if l == nil {
				// the policy may name an entity rather than a table
				if e := entities[strings.ToLower(tc[0])]; e != nil {
					l = live.entity(e)
				}
			}
			if l != nil && (lt == nil || l.Column(tc[1]) != nil) {
				t, c, lt = tc[0], tc[1], l
			}
		}
		switch {
		case lt == nil:
			add(PolicyFile, r.Line, "restricted "+r.Column, "table %s no longer exists; update or remove the rule (if the column moved, restrict it where it is now)", t)
		case lt.Column(c) == nil:
			add(PolicyFile, r.Line, "restricted "+r.Column, "column %s no longer exists; update or remove the rule (if the column was renamed, restrict the new name)", r.Column)
		}
	}

	// examples: a lenient scan for names that were in the model and are
	// no longer in the database.
	lostTables := map[string]bool{}
	lostCols := map[string][]string{} // lower column → lower tables that lost it
	for _, e := range old.model.Entities {
		t := tableOf(&e)
		lt := live.entity(&e)
		if lt == nil {
			lostTables[strings.ToLower(lastPart(t))] = true
			continue
		}
		for _, c := range e.Columns {
			if lt.Column(c.Name) == nil {
				lc := strings.ToLower(c.Name)
				lostCols[lc] = append(lostCols[lc], strings.ToLower(lastPart(t)))
			}
		}
	}
	for _, q := range old.examples {
		ids := identifiers(q.SQL)
		var found []string
		for t := range lostTables {
			if ids[t] {
				found = append(found, "table "+t)
			}
		}
		for c, tables := range lostCols {
			if !ids[c] {
				continue
			}
			for _, t := range tables {
				if ids[t] && !liveElsewhere(live, ids, t, c) {
					found = append(found, "column "+t+"."+c)
				}
			}
		}
		if len(found) > 0 {
			sort.Strings(found)
			add(q.File, q.Line, "verified query "+quoteShort(q.Question), "uses %s, which no longer exists; fix the SQL or move the example to examples/_pending/", strings.Join(found, ", "))
		}
	}
	return out
}

// liveElsewhere reports whether another table the query mentions still has
// a column of that name, so the identifier may refer to it.
func liveElsewhere(live *liveSchema, ids map[string]bool, lostTable, col string) bool {
	for id := range ids {
		if id == lostTable {
			continue
		}
		if t := live.table(id); t != nil && t.Column(col) != nil {
			return true
		}
	}
	return false
}

func lastPart(t string) string {
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

func quoteShort(s string) string {
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", s)
}
