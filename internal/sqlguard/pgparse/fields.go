//go:build cgo

package pgparse

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// PostgreSQL's attribute notation: field selection is a function call.
// (expr).f is f(expr) unless expr is of a composite type with a column f,
// and t.f, where t names a FROM item, is f(t) (t's whole row) unless t has
// a column f. The parser writes neither as a FuncCall: (expr).f is an
// A_Indirection holding the String f, t.f a two-part ColumnRef (s.t.f and
// d.s.t.f likewise). The walk records each such field here and decides it
// after the whole statement is walked, when every FROM item is known.

// bindKind is what a name in FROM stands for.
type bindKind int

const (
	bindTable  bindKind = iota // a table or view (or a CTE of that name)
	bindRecord                 // a subquery, join, CTE, XMLTABLE or JSON_TABLE: a record
	bindFunc                   // a function in FROM: its whole row is the function's result
)

// binding is one FROM item a name can refer to.
type binding struct {
	kind   bindKind
	schema string          // bindTable: the schema as written, or ""
	rel    string          // bindTable: the relation name as written
	rename []string        // bindTable: the alias's column list, AS a(x, y, …), which renames columns by position
	cols   map[string]bool // bindFunc: every column name it can have; nil when unknown
}

// fieldRef is one field name that PostgreSQL may read as a call.
type fieldRef struct {
	q    string // the FROM name before the field (t of t.f, or of (t).f); "" for (expr).f
	f    string // the field name as the parser gives it
	pos  int
	bare bool // (t).f with t a one-name column reference: t may be a whole row
}

// tableOutputs are the output columns of the table functions of the
// allow-list (besides the alias and function name, which name a scalar
// result). A function in FROM that is not here has unknown columns.
var tableOutputs = map[string][]string{
	"unnest": nil, "generate_series": nil, "generate_subscripts": nil, "regexp_matches": nil,
	"regexp_split_to_table": nil, "string_to_table": nil, "json_object_keys": nil,
	"jsonb_object_keys": nil, "jsonb_path_query": nil,
	"json_array_elements": {"value"}, "json_array_elements_text": {"value"},
	"jsonb_array_elements": {"value"}, "jsonb_array_elements_text": {"value"},
	"json_each": {"key", "value"}, "json_each_text": {"key", "value"},
	"jsonb_each": {"key", "value"}, "jsonb_each_text": {"key", "value"},
	"json_to_record": nil, "json_to_recordset": nil, "jsonb_to_record": nil, "jsonb_to_recordset": nil,
}

// bind records the name a FROM item is known by.
func (w *walker) bind(name string, b binding) {
	if name == "" {
		return
	}
	if w.binds == nil {
		w.binds = map[string][]binding{}
	}
	w.binds[name] = append(w.binds[name], b)
}

// fromItem records the names the FROM items among the walked nodes bind.
func (w *walker) fromItem(m any) {
	switch n := m.(type) {
	case *pg_query.RangeVar:
		name := n.GetRelname()
		if a := n.GetAlias(); a != nil {
			name = a.GetAliasname()
		}
		var rename []string
		for _, c := range n.GetAlias().GetColnames() {
			rename = append(rename, c.GetString_().GetSval())
		}
		w.bind(name, binding{kind: bindTable, schema: n.GetSchemaname(), rel: n.GetRelname(), rename: rename})
	case *pg_query.RangeSubselect:
		w.bind(n.GetAlias().GetAliasname(), binding{kind: bindRecord})
	case *pg_query.JoinExpr:
		w.bind(n.GetAlias().GetAliasname(), binding{kind: bindRecord})
		w.bind(n.GetJoinUsingAlias().GetAliasname(), binding{kind: bindRecord})
	case *pg_query.RangeTableFunc:
		w.bind(n.GetAlias().GetAliasname(), binding{kind: bindRecord})
	case *pg_query.JsonTable:
		w.bind(n.GetAlias().GetAliasname(), binding{kind: bindRecord})
	case *pg_query.CommonTableExpr:
		if w.ctes == nil {
			w.ctes = map[string]bool{}
		}
		w.ctes[n.GetCtename()] = true
	case *pg_query.RangeFunction:
		w.rangeFunction(n)
	}
}

// rangeFunction binds a function in FROM, by its alias or, without one,
// by the name of each function, with the columns it can have.
func (w *walker) rangeFunction(n *pg_query.RangeFunction) {
	cols := map[string]bool{"ordinality": true}
	known := true
	var names []string
	addCols := func(defs []*pg_query.Node) {
		for _, d := range defs {
			cols[d.GetColumnDef().GetColname()] = true
		}
	}
	addCols(n.GetColdeflist())
	for _, item := range n.GetFunctions() {
		parts := item.GetList().GetItems()
		if len(parts) == 0 {
			continue
		}
		if len(parts) > 1 {
			addCols(parts[1].GetList().GetItems())
		}
		fc := parts[0].GetFuncCall()
		if fc == nil {
			continue // CAST, COALESCE ...: one column, named by the alias
		}
		fn := fc.GetFuncname()
		name := fn[len(fn)-1].GetString_().GetSval()
		names = append(names, name)
		cols[name] = true
		out, ok := tableOutputs[name]
		if !ok || (len(fn) > 1 && fn[0].GetString_().GetSval() != "pg_catalog") {
			known = false
		}
		for _, c := range out {
			cols[c] = true
		}
	}
	b := binding{kind: bindFunc}
	if known {
		b.cols = cols
	}
	if a := n.GetAlias(); a != nil {
		cols[a.GetAliasname()] = true
		for _, c := range a.GetColnames() {
			cols[c.GetString_().GetSval()] = true
		}
		w.bind(a.GetAliasname(), b)
		return
	}
	for _, name := range names {
		w.bind(name, b)
	}
}

// columnRef records t.f (and s.t.f, d.s.t.f) for deciding after the walk.
func (w *walker) columnRef(n *pg_query.ColumnRef) {
	fields := n.GetFields()
	if len(fields) < 2 {
		return
	}
	f := fields[len(fields)-1].GetString_()
	q := fields[len(fields)-2].GetString_()
	if f == nil || q == nil {
		return // t.* is the whole row, not a call
	}
	w.refs = append(w.refs, fieldRef{q: q.GetSval(), f: f.GetSval(), pos: int(n.GetLocation())})
}

// indirection records every field name of (expr).f[...].g, at pos.
func (w *walker) indirection(n *pg_query.A_Indirection, pos int) {
	q := ""
	if c := n.GetArg().GetColumnRef(); c != nil && len(c.GetFields()) == 1 {
		q = c.GetFields()[0].GetString_().GetSval()
	}
	for i, x := range n.GetIndirection() {
		if s := x.GetString_(); s != nil {
			w.refs = append(w.refs, fieldRef{q: q, f: s.GetSval(), pos: pos, bare: i == 0 && q != ""})
		}
		// A_Indices is a subscript and A_Star expands the row: no call.
	}
}

// callable reports whether f, read as a function name, is allowed.
func (w *walker) callable(f string) bool {
	return f == strings.ToLower(f) && w.opts.AllowsFunction(f)
}

// fields decides every recorded field once the walk has seen every FROM
// item: a field that PostgreSQL could read as a call of a function off the
// allow-list is rejected.
func (w *walker) fields() {
	for _, r := range w.refs {
		if w.callable(r.f) {
			if r.q == "" || r.bare {
				w.record(r.f) // most likely a call of an allowed function
			}
			continue
		}
		switch {
		case r.q == "" || r.bare:
			if r.bare && w.provenColumn(r.q, r.f) {
				continue
			}
			w.refuseField(r, "(...)."+r.f, "the guard cannot prove that "+r.f+" is a column of the expression",
				"call the function directly, or select a table's column by name (t.col)")
		default:
			if why := w.fieldCall(r.q, r.f); why != "" {
				w.refuseField(r, r.q+"."+r.f, why, "select a real column, or call the function directly")
			}
		}
	}
}

// refuseField rejects a field that reads as a call.
func (w *walker) refuseField(r fieldRef, shown, why, fix string) {
	w.record(r.f)
	never := ""
	if r.f == strings.ToLower(r.f) && sqlguard.Never(r.f) {
		never = ", which is never allowed"
	}
	w.add(sqlguard.CodeFunctionNotAllowed, r.pos,
		"%s is PostgreSQL's attribute notation for the call %s(...)%s: %s; %s", shown, r.f, never, why, fix)
}

// fieldCall returns why q.f could be the call f(q), or "" when it cannot:
// f must be a column of every FROM item q can name.
func (w *walker) fieldCall(q, f string) string {
	bs := w.binds[q]
	if len(bs) == 0 {
		if _, ok := pgFuncs()[f]; ok {
			return "no FROM item is named " + q + ", so " + f + " is not shown to be a column"
		}
		return ""
	}
	for _, b := range bs {
		switch b.kind {
		case bindTable:
			if b.schema == "" && w.ctes[b.rel] && pgFuncs()[f] {
				return f + " is a function that takes a whole row, and " + q + " may be a CTE, whose columns the guard does not check"
			}
			if tabs := w.catalogTables(b); len(tabs) > 0 {
				for _, t := range tabs {
					if !hasColumn(t, f, b.rename) {
						return f + " is not a column of " + t.Name + " in the connection's catalog"
					}
				}
			} else if pgFuncs()[f] {
				return f + " is a function that takes a whole row, and the catalog does not list " + b.rel + "'s columns"
			}
		case bindRecord:
			if pgFuncs()[f] {
				return f + " is a function that takes a whole row, and " + q + " is a subquery, join or table function whose columns the guard does not check"
			}
		case bindFunc:
			if b.cols != nil {
				if !b.cols[f] {
					return f + " is not a column of the function " + q + " in FROM"
				}
			} else if _, ok := pgFuncs()[f]; ok {
				return q + " is a function in FROM whose columns the guard does not know"
			}
		}
	}
	return ""
}

// provenColumn reports whether (t).f is a column: t must name only
// tables of the catalog that all have the column f, and no FROM item of
// the statement may have a column named t (a column wins over a table).
func (w *walker) provenColumn(t, f string) bool {
	if w.opts.Catalog == nil || len(w.binds[t]) == 0 {
		return false
	}
	for _, b := range w.binds[t] {
		tabs := w.catalogTables(b)
		if len(tabs) == 0 || w.ctes[b.rel] {
			return false
		}
		for _, tab := range tabs {
			if !hasColumn(tab, f, b.rename) {
				return false
			}
		}
	}
	for _, bs := range w.binds {
		for _, b := range bs {
			tabs := w.catalogTables(b)
			if len(tabs) == 0 || w.ctes[b.rel] {
				return false
			}
			for _, tab := range tabs {
				if hasColumn(tab, t, b.rename) {
					return false
				}
			}
		}
	}
	return true
}

// catalogTables returns the catalog's tables a table binding can be
// (by exact name, in any schema when none is written), or none when the
// binding is not a table or the catalog does not have it. A name that is
// also a CTE's may be either.
func (w *walker) catalogTables(b binding) []*quarry.TableInfo {
	c := w.opts.Catalog
	if c == nil || b.kind != bindTable {
		return nil
	}
	return c.Lookup(b.schema, b.rel)
}

// hasColumn reports whether t has a column named exactly name.
func hasColumn(t *quarry.TableInfo, name string, rename []string) bool {
	for i, c := range t.Columns {
		col := c.Name
		if i < len(rename) {
			col = rename[i] // AS a(x, …): the column is now called x
		}
		if col == name {
			return true
		}
	}
	return false
}
