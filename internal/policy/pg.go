//go:build cgo

package policy

import (
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// readPostgres reads one statement with PostgreSQL's own parser into the
// lineage tree. Anything it does not know to be a query, or a FROM item it
// does not know, is an error: the checker then refuses.
func readPostgres(sql string) (*Query, error) {
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL cannot parse it: %w", err)
	}
	if len(tree.Stmts) != 1 {
		return nil, errors.New("it is not exactly one statement")
	}
	r := &pgReader{}
	q := r.stmt(tree.Stmts[0].GetStmt())
	if r.err != nil {
		return nil, r.err
	}
	return q, nil
}

type pgReader struct {
	err   error
	depth int
}

func (r *pgReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// maxDepth bounds the nesting the reader follows; the guard bounds the
// statement's size before it gets here.
const maxDepth = 500

// stmt reads a statement node: a SELECT (or VALUES, TABLE), or EXPLAIN of
// one, whose plan estimates answer questions about the data too.
func (r *pgReader) stmt(n *pg_query.Node) *Query {
	switch s := n.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		return r.selectStmt(s.SelectStmt)
	case *pg_query.Node_ExplainStmt:
		q := r.stmt(s.ExplainStmt.GetQuery())
		q.Explain = true
		return q
	}
	r.fail("it is not a query")
	return &Query{}
}

func (r *pgReader) selectStmt(s *pg_query.SelectStmt) *Query {
	q := &Query{}
	if s == nil {
		return q
	}
	if r.depth++; r.depth > maxDepth {
		r.fail("it nests too deep")
		return q
	}
	defer func() { r.depth-- }()
	for _, c := range s.GetWithClause().GetCtes() {
		cte := c.GetCommonTableExpr()
		if cte == nil {
			r.fail("a WITH item is not a common table expression")
			continue
		}
		q.With = append(q.With, &CTE{Name: cte.GetCtename(), Query: r.stmt(cte.GetCtequery()), Recursive: s.GetWithClause().GetRecursive()})
	}
	if s.GetOp() != pg_query.SetOperation_SETOP_NONE && s.GetOp() != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		q.Branches = []*Query{r.selectStmt(s.GetLarg()), r.selectStmt(s.GetRarg())}
	}
	for _, f := range s.GetFromClause() {
		r.from(f, q)
	}
	s.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch fd.Name() {
		case "with_clause", "from_clause", "larg", "rarg":
			return true
		case "sort_clause":
			r.sortClause(s, q)
			return true
		}
		r.field(fd, v, q)
		return true
	})
	return q
}

// sortClause reads a SELECT's ORDER BY. A bare name there that is the
// name of an output column (AS name) is that column, as PostgreSQL
// resolves it even when a FROM item or an input column has the same name:
// its reads are the select list's. Everything else is read as any
// expression.
func (r *pgReader) sortClause(s *pg_query.SelectStmt, q *Query) {
	out := map[string]bool{}
	if s.GetOp() == pg_query.SetOperation_SETOP_NONE || s.GetOp() == pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		for _, t := range s.GetTargetList() {
			if n := t.GetResTarget().GetName(); n != "" {
				out[n] = true
			}
		}
	}
	for _, sb := range s.GetSortClause() {
		if cr := sb.GetSortBy().GetNode().GetColumnRef(); cr != nil && len(cr.GetFields()) == 1 {
			if name := cr.GetFields()[0].GetString_().GetSval(); name != "" && out[name] {
				continue
			}
		}
		r.msg(sb.ProtoReflect(), q)
	}
}

// from reads one FROM item into q's sources, and returns how many it
// added.
func (r *pgReader) from(n *pg_query.Node, q *Query) int {
	before := len(q.Sources)
	switch f := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		rv := f.RangeVar
		q.Sources = append(q.Sources, &Source{Schema: rv.GetSchemaname(), Table: rv.GetRelname(), Alias: rv.GetAlias().GetAliasname(),
			Columns: aliasColumns(rv.GetAlias()), Pos: int(rv.GetLocation())})
	case *pg_query.Node_JoinExpr:
		j := f.JoinExpr
		r.from(j.GetLarg(), q)
		right := len(q.Sources)
		r.from(j.GetRarg(), q)
		if right < len(q.Sources) {
			q.Sources[right].Natural = j.GetIsNatural()
			for _, u := range j.GetUsingClause() {
				q.Sources[right].Using = append(q.Sources[right].Using, u.GetString_().GetSval())
			}
		}
		r.expr(j.GetQuals(), q)
		if a := j.GetAlias().GetAliasname(); a != "" {
			members := make([]int, 0, len(q.Sources)-before)
			for i := before; i < len(q.Sources); i++ {
				members = append(members, i)
			}
			q.Sources = append(q.Sources, &Source{Alias: a, Members: members, Columns: aliasColumns(j.GetAlias())})
		}
		if a := j.GetJoinUsingAlias().GetAliasname(); a != "" {
			// JOIN ... USING (...) AS a names the join columns only.
			q.Sources = append(q.Sources, &Source{Alias: a, Func: true})
		}
	case *pg_query.Node_RangeSubselect:
		rs := f.RangeSubselect
		q.Sources = append(q.Sources, &Source{Alias: rs.GetAlias().GetAliasname(), Derived: r.stmt(rs.GetSubquery())})
	case *pg_query.Node_RangeFunction:
		rf := f.RangeFunction
		for _, fn := range rf.GetFunctions() {
			r.expr(fn, q)
		}
		q.Sources = append(q.Sources, &Source{Alias: rf.GetAlias().GetAliasname(), Func: true})
	case *pg_query.Node_RangeTableSample:
		ts := f.RangeTableSample
		r.from(ts.GetRelation(), q)
		for _, a := range ts.GetArgs() {
			r.expr(a, q)
		}
		r.expr(ts.GetRepeatable(), q)
	case *pg_query.Node_RangeTableFunc:
		tf := f.RangeTableFunc
		r.msg(tf.ProtoReflect(), q)
		q.Sources = append(q.Sources, &Source{Alias: tf.GetAlias().GetAliasname(), Func: true})
	case *pg_query.Node_JsonTable:
		jt := f.JsonTable
		r.msg(jt.ProtoReflect(), q)
		q.Sources = append(q.Sources, &Source{Alias: jt.GetAlias().GetAliasname(), Func: true})
	default:
		name := "an empty FROM item"
		if n.GetNode() != nil {
			name = string(n.ProtoReflect().WhichOneof(n.ProtoReflect().Descriptor().Oneofs().ByName("node")).Message().Name())
		}
		r.fail("its FROM clause holds %s, which quarry does not know", name)
	}
	return len(q.Sources) - before
}

// aliasColumns returns an alias's column list, AS a(x, y, …).
func aliasColumns(a *pg_query.Alias) []string {
	var out []string
	for _, n := range a.GetColnames() {
		out = append(out, n.GetString_().GetSval())
	}
	return out
}

// expr reads an expression node into q: its column references, and the
// queries nested in it.
func (r *pgReader) expr(n *pg_query.Node, q *Query) {
	if n == nil || n.GetNode() == nil {
		return
	}
	r.msg(n.ProtoReflect(), q)
}

// msg walks any message of an expression.
func (r *pgReader) msg(m protoreflect.Message, q *Query) {
	if r.err != nil {
		return
	}
	switch n := m.Interface().(type) {
	case *pg_query.ColumnRef:
		ref := Ref{Pos: int(n.GetLocation())}
		for _, f := range n.GetFields() {
			switch x := f.GetNode().(type) {
			case *pg_query.Node_String_:
				ref.Parts = append(ref.Parts, x.String_.GetSval())
			case *pg_query.Node_AStar:
				ref.Star = true
			default:
				r.fail("a column reference has a part quarry does not know")
			}
		}
		q.Refs = append(q.Refs, ref)
		return
	case *pg_query.SelectStmt:
		q.Subs = append(q.Subs, r.selectStmt(n))
		return
	case *pg_query.FuncCall:
		if name := n.GetFuncname(); len(name) > 0 && RevealsDefinitions(name[len(name)-1].GetString_().GetSval()) {
			r.fail("it calls %s(), which returns a definition as written, whose literals can copy restricted values", name[len(name)-1].GetString_().GetSval())
			return
		}
		if name := n.GetFuncname(); len(name) > 0 && CountsRows(name[len(name)-1].GetString_().GetSval()) {
			r.fail("it calls %s(), whose sizes and counters count the rows of a relation, and a partial index or a partition on a restricted column counts the rows that meet a condition on it", name[len(name)-1].GetString_().GetSval())
			return
		}
	case *pg_query.RangeVar, *pg_query.JoinExpr, *pg_query.RangeSubselect, *pg_query.RangeFunction:
		r.fail("a table reference appears where quarry expects an expression")
		return
	}
	if r.depth++; r.depth > maxDepth {
		r.fail("it nests too deep")
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		r.field(fd, v, q)
		return r.err == nil
	})
	r.depth--
}

func (r *pgReader) field(fd protoreflect.FieldDescriptor, v protoreflect.Value, q *Query) {
	if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
		return
	}
	if fd.IsList() {
		l := v.List()
		for i := 0; i < l.Len(); i++ {
			r.msg(l.Get(i).Message(), q)
		}
		return
	}
	r.msg(v.Message(), q)
}
