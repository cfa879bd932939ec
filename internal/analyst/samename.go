package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// ControlChecks are the checks that run control queries on a semantic
// query's result, in the order they are shown: ties at a ranking's limit,
// groups reconciled with the total, the other join path, rows that
// share the name picked, rows a "not" filter leaves out for having no
// value, periods cut by the data's first day, and rows a period leaves
// out for having no date. Every surface that answers with a semantic query
// runs the same ones.
func (a *Analyst) ControlChecks(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled) []verify.Check {
	checks, _ := a.ControlChecksTied(ctx, m, q, res, compiled)
	return checks
}

// ControlChecksTied is ControlChecks, with the names of the rows a
// ranking's limit cut that tie the last one kept (the ties check's), for
// the answer to name (Evidence.Tied).
func (a *Analyst) ControlChecksTied(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled) ([]verify.Check, []string) {
	if res != nil && res.Cached {
		ctx = fromCache(ctx)
	}
	tie, tied := a.tieCheck(ctx, m, q, res)
	return []verify.Check{tie, a.ReconcileCheck(ctx, m, q, res, compiled), a.PathCheck(ctx, m, q, res, compiled), a.NameCheck(ctx, m, q), a.NullCheck(ctx, m, q), a.FirstPeriodCheck(ctx, m, q, res), a.UndatedCheck(ctx, m, q), a.StatusCheck(ctx, m, q), a.StaleStateCheck(ctx, m, q), a.CurrencyCheck(m, q), a.KindCheck(m, q), a.GoneValueCheck(ctx, m, q, res)}, tied
}

// nameColumn reports whether a column names the rows of its table: name,
// full_name (full_nm), display_name, or <table>_name; not the name of a
// thing the rows hold (a prescription's drug_name). A table whose names
// repeat too often for learn to take one as its label still names its
// rows by it (found from outside: two students named Maria Lopez added
// together, no word).
func nameColumn(table, column string) bool {
	ws := nameWords(column)
	if len(ws) == 0 || ws[len(ws)-1] != "name" {
		return false
	}
	if len(ws) == 1 {
		return true
	}
	own := strings.TrimSuffix(strings.ToLower(table), "s")
	switch ws[0] {
	case "full", "display", own:
		return len(ws) == 2
	}
	return false
}

// nameWords are the words of a column's name, short forms written out
// (full_nm: full, name).
func nameWords(column string) []string {
	var ws []string
	for _, w := range strings.FieldsFunc(strings.ToLower(column), func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
		if long := semantic.ShortForm(w); long != "" {
			w = long
		}
		ws = append(ws, w)
	}
	return ws
}

// tellsApart reports whether a list of e's rows by columns (empty: its
// label and descriptive columns) shows which row is which: its key, its
// label or a part of its names among them.
func tellsApart(e *semantic.Entity, columns []string) bool {
	if len(columns) == 0 {
		return true
	}
	for _, c := range columns {
		if _, col, ok := strings.Cut(c, "."); ok {
			c = col
		}
		if strings.EqualFold(c, e.PrimaryKey) || strings.EqualFold(c, e.Label) || semantic.NamePart(c) || nameColumn(e.Name, c) {
			return true
		}
	}
	return false
}

// CheckSameName is the check that a row picked by its name is one row.
const CheckSameName = "same_name"

// NameCheck looks up, for a filter on a table's name (its label column)
// in an answer that does not show that table's rows one by one, how many
// rows carry the name: "how many loans by Wei García" when three members
// are called that adds their loans together. One row passes; several
// warn, naming how many and their keys. The check names its control
// query. It returns an empty check when no filter is on a name or the
// control cannot run.
func (a *Analyst) NameCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if q == nil || a.Conn == nil {
		return verify.Check{}
	}
	// The conditions on names: the query's own, and those on related
	// rows ("departments where an employee named Maria Garcia works").
	type named struct {
		f       semantic.Filter
		related bool
	}
	var conds []named
	for _, f := range q.Filters {
		if !f.OnRelated() {
			conds = append(conds, named{f, false})
			continue
		}
		if f.Op == semantic.OpSome && !f.Count {
			for _, w := range f.Where {
				conds = append(conds, named{w, true})
			}
		}
	}
	// Each condition on a name, and the conditions on the parts of one
	// name of one table ("Maria" on first_name and "Garcia" on
	// last_name) taken together.
	type group struct {
		e       *semantic.Entity
		filters []semantic.Filter
		said    []string
		related bool
		parts   bool // of the parts of a name
		listed  bool // the rows listed, by columns that do not tell them apart
	}
	var groups []*group
	for _, nc := range conds {
		f := nc.f
		if f.OnRelated() || f.Op != semantic.OpEq || len(f.Values) != 1 {
			continue
		}
		fd, err := m.ResolveField(f.Field)
		if err != nil {
			continue
		}
		e, col := fd.Entity, fd.Column
		if fd.Kind == semantic.FieldDimension {
			ent, c, ok := strings.Cut(strings.TrimSpace(fd.Dimension.Expr), ".")
			if !ok {
				continue
			}
			e = m.Entity(ent)
			if e != nil {
				col = e.Column(c)
			}
		}
		if e == nil || col == nil || e.PrimaryKey == "" || strings.EqualFold(e.PrimaryKey, col.Name) {
			continue
		}
		// A part of a name is one even where learn took it for the label
		// (found from outside: last_nm the label, "Wei Zhang" looked up
		// as every Wei).
		part := semantic.NamePart(col.Name)
		whole := !part && (strings.EqualFold(e.Label, col.Name) || nameColumn(e.Name, col.Name))
		if !whole && !part {
			continue
		}
		listed := q.Rows != nil && strings.EqualFold(q.Rows.Entity, e.Name)
		if listed && tellsApart(e, q.Rows.Columns) {
			continue // the rows are listed one by one, each named
		}
		if slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return strings.EqualFold(d.Name, e.Name+"."+e.PrimaryKey) }) {
			continue
		}
		cond := semantic.Filter{Field: e.Name + "." + col.Name, Op: semantic.OpEq, Values: f.Values}
		said := fmt.Sprint(f.Values[0])
		if part {
			i := slices.IndexFunc(groups, func(g *group) bool {
				return g.parts && g.e == e && g.related == nc.related
			})
			if i >= 0 {
				groups[i].filters = append(groups[i].filters, cond)
				groups[i].said = append(groups[i].said, said)
				continue
			}
		}
		groups = append(groups, &group{e: e, filters: []semantic.Filter{cond}, said: []string{said}, related: nc.related, parts: part, listed: listed})
	}
	for _, g := range groups {
		e, name := g.e, strings.Join(g.said, " ")
		ctl := semantic.Query{Rows: &semantic.RowsQuery{Entity: e.Name, Columns: []string{e.PrimaryKey}, Distinct: true}, Filters: g.filters}
		res, c, ok := a.control(ctx, m, ctl, 6)
		if !ok {
			continue
		}
		n := len(res.Table.Rows)
		if n <= 1 {
			return verify.Check{Name: CheckSameName, Status: verify.Pass, Detail: fmt.Sprintf("one %s row is named %s (control query: %s)", e.Name, name, c.SQL)}
		}
		var keys []string
		for _, r := range res.Table.Rows {
			keys = append(keys, fmt.Sprint(quarry.JSONValue(r[0])))
		}
		more := ""
		if n > 5 {
			n, keys, more = 5, keys[:5], " or more"
		}
		took := "adds them together"
		switch {
		case g.listed:
			// "which city does Maria Lopez live in": two cities, of two
			// people, said as one person's (found from outside).
			took = "lists a row of each of them, by columns that do not say whose"
		case g.related:
			took = "takes in what is related to every one of them"
		}
		return verify.Check{Name: CheckSameName, Status: verify.Warn, Detail: fmt.Sprintf("%d%s rows of %s are named %s (%s %s); the answer %s — ask by %s to tell them apart (control query: %s)",
			n, more, e.Name, name, e.PrimaryKey, strings.Join(keys, ", "), took, e.Name, c.SQL)}
	}
	return verify.Check{}
}
