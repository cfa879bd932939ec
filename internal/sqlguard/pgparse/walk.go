//go:build cgo

package pgparse

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// walker holds the state of one check.
type walker struct {
	sql      string
	opts     *sqlguard.Options
	viols    []sqlguard.Violation
	funcs    []string
	kind     string
	hasLimit bool
	lastLoc  int       // the last node location seen, for nodes without one
	locks    []pending // locking-clause violations waiting for a position
	cur      int       // smallest location so far in the message being walked

	binds map[string][]binding // FROM names, for the field references
	ctes  map[string]bool      // CTE names
	refs  []fieldRef           // field references that may be calls, decided after the walk

	// The Range callbacks, made once per check rather than once per node.
	visitAll, visitClauses func(protoreflect.FieldDescriptor, protoreflect.Value) bool
}

func newWalker(sql string, opts *sqlguard.Options) *walker {
	w := &walker{sql: sql, opts: opts, lastLoc: -1, cur: -1}
	w.visitAll = func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool { return w.visit(fd, v, true) }
	w.visitClauses = func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool { return w.visit(fd, v, false) }
	return w
}

// pending is a locking-clause violation whose position is found from the
// tokens after the walk: the first FOR UPDATE/SHARE at or after from.
type pending struct {
	viol int // index into viols
	from int
}

func (w *walker) add(code string, pos int, format string, args ...any) int {
	if pos < 0 {
		pos = max(w.lastLoc, 0)
	}
	w.viols = append(w.viols, sqlguard.Violation{Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
	return len(w.viols) - 1
}

func (w *walker) record(name string) {
	for _, f := range w.funcs {
		if f == name {
			return
		}
	}
	w.funcs = append(w.funcs, name)
}

// top applies the statement allow-list to the one statement, then walks it.
func (w *walker) top(raw *pg_query.RawStmt) {
	n := raw.GetStmt()
	switch s := n.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		w.kind = selectKind(s.SelectStmt)
		w.hasLimit = hasLimit(s.SelectStmt)
		w.walk(s.SelectStmt.ProtoReflect())
	case *pg_query.Node_ExplainStmt:
		w.kind = "explain"
		w.explain(s.ExplainStmt, raw)
	default:
		name := "an empty statement"
		if n != nil && n.GetNode() != nil {
			name = statementName(string(n.ProtoReflect().WhichOneof(nodeOneof(n)).Message().Name()))
		}
		w.add(sqlguard.CodeStatementNotAllowed, w.firstToken(raw),
			"%s is not a query; quarry runs only one SELECT (or VALUES, TABLE, or EXPLAIN without ANALYZE): rewrite it as a SELECT", name)
	}
}

func nodeOneof(n *pg_query.Node) protoreflect.OneofDescriptor {
	return n.ProtoReflect().Descriptor().Oneofs().ByName("node")
}

func selectKind(s *pg_query.SelectStmt) string {
	switch {
	case s.GetWithClause() != nil:
		return "with"
	case len(s.GetValuesLists()) > 0:
		return "values"
	}
	return "select"
}

// hasLimit reports a top-level LIMIT n or FETCH FIRST n (not LIMIT ALL).
func hasLimit(s *pg_query.SelectStmt) bool {
	c := s.GetLimitCount()
	if c == nil {
		return false
	}
	if k := c.GetAConst(); k != nil && k.GetIsnull() {
		return false
	}
	return true
}

// explain checks EXPLAIN: its options and its target.
func (w *walker) explain(e *pg_query.ExplainStmt, raw *pg_query.RawStmt) {
	for _, o := range e.GetOptions() {
		d := o.GetDefElem()
		if d == nil {
			w.add(sqlguard.CodeStatementNotAllowed, w.firstToken(raw), "EXPLAIN has an option PostgreSQL's parser did not name; use EXPLAIN (FORMAT JSON) or plain EXPLAIN")
			continue
		}
		w.lastLoc = max(w.lastLoc, int(d.GetLocation()))
		name := strings.ToLower(d.GetDefname())
		switch name {
		case "analyze", "analyse":
			if !explicitlyFalse(d.GetArg()) {
				w.add(sqlguard.CodeExplainAnalyze, int(d.GetLocation()),
					"EXPLAIN ANALYZE runs the statement it explains; use EXPLAIN without ANALYZE")
			}
		case "verbose", "costs", "settings", "generic_plan", "buffers", "wal", "timing",
			"summary", "memory", "format", "serialize":
		default:
			w.add(sqlguard.CodeStatementNotAllowed, int(d.GetLocation()),
				"EXPLAIN option %q is not one the guard knows; use only FORMAT, VERBOSE, COSTS, SETTINGS, BUFFERS, WAL, TIMING, SUMMARY, MEMORY or GENERIC_PLAN", d.GetDefname())
		}
	}
	q := e.GetQuery()
	sel := q.GetSelectStmt()
	if sel == nil {
		name := "an empty statement"
		if q != nil && q.GetNode() != nil {
			name = statementName(string(q.ProtoReflect().WhichOneof(nodeOneof(q)).Message().Name()))
		}
		w.add(sqlguard.CodeStatementNotAllowed, w.firstToken(raw),
			"EXPLAIN of %s is not allowed; EXPLAIN only a SELECT", name)
		return
	}
	w.walk(sel.ProtoReflect())
}

// explicitlyFalse reports whether an EXPLAIN boolean option argument is
// one PostgreSQL reads as false (0, false, off). Anything else, including
// no argument, counts as true.
func explicitlyFalse(arg *pg_query.Node) bool {
	if arg == nil {
		return false
	}
	switch a := arg.GetNode().(type) {
	case *pg_query.Node_Integer:
		return a.Integer.GetIval() == 0
	case *pg_query.Node_Boolean:
		return !a.Boolean.GetBoolval()
	case *pg_query.Node_String_:
		s := a.String_.GetSval()
		return strings.EqualFold(s, "false") || strings.EqualFold(s, "off")
	case *pg_query.Node_AConst:
		switch c := a.AConst.GetVal().(type) {
		case *pg_query.A_Const_Ival:
			return c.Ival.GetIval() == 0
		case *pg_query.A_Const_Boolval:
			return !c.Boolval.GetBoolval()
		case *pg_query.A_Const_Sval:
			s := c.Sval.GetSval()
			return strings.EqualFold(s, "false") || strings.EqualFold(s, "off")
		}
	}
	return false
}

// walk visits every populated field of m and of every message below it,
// applying the node rules, and returns the smallest location in the
// subtree (-1 when there is none).
func (w *walker) walk(m protoreflect.Message) int {
	saved := w.cur
	w.cur = -1
	defer func() { w.cur = saved }()
	switch n := m.Interface().(type) {
	case *pg_query.FuncCall:
		w.lastLoc = int(n.GetLocation())
		w.funcCall(n.GetFuncname(), int(n.GetLocation()))
	case *pg_query.RangeTableSample:
		w.lastLoc = int(n.GetLocation())
		w.tableSample(n)
	case *pg_query.A_Expr:
		w.operator(n.GetName(), int(n.GetLocation()))
	case *pg_query.SubLink:
		w.operator(n.GetOperName(), int(n.GetLocation())) // x OPERATOR(s.=) ANY (SELECT ...)
	case *pg_query.SortBy:
		w.operator(n.GetUseOp(), int(n.GetLocation())) // ORDER BY x USING OPERATOR(s.<)
	case *pg_query.TypeName:
		w.typeName(n)
	case *pg_query.ColumnRef:
		w.columnRef(n)
	case *pg_query.A_Indirection:
		m.Range(w.visitAll)
		pos := w.cur
		if pos < 0 {
			pos = max(w.lastLoc, 0)
		}
		w.indirection(n, pos)
		return w.cur
	case *pg_query.RangeVar, *pg_query.RangeSubselect, *pg_query.RangeFunction, *pg_query.JoinExpr,
		*pg_query.RangeTableFunc, *pg_query.JsonTable:
		w.fromItem(n)
	case *pg_query.IntoClause:
		pos := int(n.GetRel().GetLocation())
		if n.GetRel() == nil {
			pos = -1
		}
		w.add(sqlguard.CodeInto, pos, "SELECT INTO creates a table; remove the INTO clause and just SELECT")
		return pos
	case *pg_query.CommonTableExpr:
		w.fromItem(n)
		if q := n.GetCtequery(); q != nil && q.GetSelectStmt() == nil {
			name := "an empty statement"
			if q.GetNode() != nil {
				name = statementName(string(q.ProtoReflect().WhichOneof(nodeOneof(q)).Message().Name()))
			}
			w.add(sqlguard.CodeDataModifyingCTE, int(n.GetLocation()),
				"the CTE %q runs %s, which PostgreSQL executes even if nothing reads it; every CTE must be a SELECT", n.GetCtename(), name)
			return int(n.GetLocation())
		}
	case *pg_query.SelectStmt:
		// Walk the clauses first, so that locking clauses of nested
		// queries claim their FOR tokens before this query's do.
		m.Range(w.visitClauses)
		for range n.GetLockingClause() {
			i := w.add(sqlguard.CodeLocking, -1, "FOR UPDATE/SHARE locks rows and needs write access; remove the locking clause (also inside subqueries and CTEs)")
			w.locks = append(w.locks, pending{viol: i, from: max(w.cur, 0)})
		}
		return w.cur
	case *pg_query.LockingClause:
		// Only reachable outside SelectStmt.locking_clause, which is
		// handled above; reject it all the same.
		i := w.add(sqlguard.CodeLocking, -1, "FOR UPDATE/SHARE locks rows and needs write access; remove the locking clause")
		w.locks = append(w.locks, pending{viol: i, from: max(w.lastLoc, 0)})
	default:
		if !knownNode(n) {
			name := string(m.Descriptor().Name())
			if strings.HasSuffix(name, "Stmt") {
				w.add(sqlguard.CodeStatementNotAllowed, -1,
					"%s is nested in the query; quarry runs only SELECT queries, so remove it", statementName(name))
			} else {
				w.add(CodeConstruct, nodeLocation(m),
					"the construct %s is not one the guard knows to be read-only on PostgreSQL; rewrite the query with plain SELECT syntax", name)
			}
		}
	}
	m.Range(w.visitAll)
	return w.cur
}

// visit walks one field of the message being walked and folds its
// smallest location into w.cur. With all false it skips
// SelectStmt.locking_clause, which walk handles itself.
func (w *walker) visit(fd protoreflect.FieldDescriptor, v protoreflect.Value, all bool) bool {
	if !all && fd.Number() == lockingClauseField {
		return true
	}
	if loc := w.field(fd, v); loc >= 0 && (w.cur < 0 || loc < w.cur) {
		w.cur = loc
	}
	return true
}

// lockingClauseField is the field number of SelectStmt.locking_clause.
const lockingClauseField = 15

// field walks one populated field and returns the smallest location in it.
func (w *walker) field(fd protoreflect.FieldDescriptor, v protoreflect.Value) int {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if fd.IsMap() {
			return -1 // pg_query has no maps; nothing to walk
		}
		if fd.IsList() {
			l := v.List()
			minLoc := -1
			for i := 0; i < l.Len(); i++ {
				if loc := w.walk(l.Get(i).Message()); loc >= 0 && (minLoc < 0 || loc < minLoc) {
					minLoc = loc
				}
			}
			return minLoc
		}
		return w.walk(v.Message())
	case protoreflect.Int32Kind:
		if fd.Name() == "location" && !fd.IsList() {
			if loc := int(v.Int()); loc >= 0 {
				w.lastLoc = loc
				return loc
			}
		}
	}
	return -1
}
