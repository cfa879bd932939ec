package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/quarrydata/quarry/internal/sqlguard/mysqlparse"
)

// readMySQL reads one statement with the MySQL grammar (the TiDB parser,
// as the guard runs it, in MySQL 8's default sql_mode) into the lineage
// tree. MariaDB's view definitions (VIEW_DEFINITION, with every name
// qualified as `db`.`t`.`c`) read the same way. A statement that is not a
// query, a FROM item the reader does not know, or an expression node that
// could hold a relation it does not know is an error: the checker then
// refuses.
func readMySQL(sql string) (*Query, error) {
	p, err := mysqlparse.Parse(sql, mysqlparse.DefaultSQLMode)
	if err != nil {
		return nil, err
	}
	if len(p.Stmts) != 1 {
		return nil, errors.New("it is not exactly one statement")
	}
	r := &myReader{jsonTables: map[int]bool{}}
	for _, pos := range p.JSONTables {
		r.jsonTables[jsonTableArg(p.Text, pos)] = true
	}
	q := r.stmt(p.Stmts[0])
	if r.err != nil {
		return nil, r.err
	}
	return q, nil
}

// jsonTableArg returns the offset, in the parser's text, of the argument
// expression of the JSON_TABLE call rewritten at pos to "(SELECT   expr)":
// where the derived table's one select field starts.
func jsonTableArg(text string, pos int) int {
	i := pos + len("(SELECT ")
	for i < len(text) && text[i] == ' ' {
		i++
	}
	return i
}

// myMaxDepth bounds the query nesting the reader follows; the guard bounds
// the statement's size before it gets here.
const myMaxDepth = 500

type myReader struct {
	jsonTables map[int]bool // offsets of the argument of rewritten JSON_TABLE calls
	err        error
	depth      int
}

func (r *myReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// stmt reads a statement: a SELECT (also TABLE and VALUES), a set
// operation, or EXPLAIN of one, whose plan answers questions about the
// data too.
func (r *myReader) stmt(s ast.StmtNode) *Query {
	switch x := s.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return r.resultSet(x)
	case *ast.ExplainStmt:
		if x.Stmt == nil {
			r.fail("it explains no query")
			return &Query{}
		}
		q := r.stmt(x.Stmt)
		q.Explain = true
		return q
	}
	r.fail("it is not a query (%s)", myNodeName(s))
	return &Query{}
}

// resultSet reads a query: a SELECT, a set operation or one of its
// parenthesised branch lists.
func (r *myReader) resultSet(n ast.Node) *Query {
	if r.depth++; r.depth > myMaxDepth {
		r.fail("it nests too deep")
		return &Query{}
	}
	defer func() { r.depth-- }()
	switch x := n.(type) {
	case *ast.SelectStmt:
		return r.selectStmt(x)
	case *ast.SetOprStmt:
		if x.SelectList == nil {
			r.fail("a set operation has no branches")
			return &Query{}
		}
		q := r.setList(x.SelectList)
		if x.With != nil {
			if q.With != nil {
				// WITH before a parenthesised list that has its own.
				q = &Query{Branches: []*Query{q}}
			}
			q.With = r.with(x.With)
		}
		r.orderLimit(q, x.OrderBy, x.Limit)
		return q
	case *ast.SetOprSelectList:
		return r.setList(x)
	}
	r.fail("it holds a query the policy cannot read (%s)", myNodeName(n))
	return &Query{}
}

// setList reads the branches of a set operation; its ORDER BY and LIMIT
// name output columns, and the queries nested in them are read.
func (r *myReader) setList(l *ast.SetOprSelectList) *Query {
	if len(l.Selects) == 1 && l.With == nil && l.OrderBy == nil && l.Limit == nil {
		return r.resultSet(l.Selects[0]) // one parenthesised branch
	}
	q := &Query{With: r.with(l.With)}
	for _, s := range l.Selects {
		q.Branches = append(q.Branches, r.resultSet(s))
	}
	if len(q.Branches) == 0 {
		r.fail("a set operation has no branches")
	}
	r.orderLimit(q, l.OrderBy, l.Limit)
	return q
}

func (r *myReader) orderLimit(q *Query, o *ast.OrderByClause, l *ast.Limit) {
	if o != nil {
		r.expr(q, o)
	}
	if l != nil {
		r.expr(q, l)
	}
}

func (r *myReader) with(w *ast.WithClause) []*CTE {
	if w == nil {
		return nil
	}
	var out []*CTE
	for _, c := range w.CTEs {
		if c == nil || c.Query == nil || c.Query.Query == nil {
			r.fail("a WITH item has no query")
			continue
		}
		out = append(out, &CTE{Name: c.Name.O, Query: r.resultSet(c.Query.Query), Recursive: w.IsRecursive})
	}
	return out
}

// selectStmt reads every clause of a SELECT (TABLE t and VALUES are
// SELECTs in the parser's tree: a star over t, and rows of expressions).
// The clauses are those SelectStmt.Accept visits; table hints, locking
// clauses and INTO name no column.
func (r *myReader) selectStmt(s *ast.SelectStmt) *Query {
	q := &Query{With: r.with(s.With)}
	if s.From != nil {
		if s.From.TableRefs == nil {
			r.fail("a FROM clause is empty")
		} else {
			r.from(q, s.From.TableRefs)
		}
	}
	if s.Fields != nil {
		for _, f := range s.Fields.Fields {
			switch {
			case f == nil:
			case f.WildCard != nil:
				q.Refs = append(q.Refs, Ref{Parts: nonEmpty(f.WildCard.Schema.O, f.WildCard.Table.O), Star: true, Pos: f.Offset})
			case f.Expr != nil:
				r.expr(q, f.Expr)
			}
		}
	}
	if s.Where != nil {
		r.expr(q, s.Where)
	}
	if s.GroupBy != nil {
		r.expr(q, s.GroupBy)
	}
	if s.Having != nil {
		r.expr(q, s.Having)
	}
	for _, l := range s.Lists {
		if l != nil {
			r.expr(q, l)
		}
	}
	for i := range s.WindowSpecs {
		r.expr(q, &s.WindowSpecs[i])
	}
	if s.OrderBy != nil && s.Fields != nil {
		// ORDER BY name is the select list's column of that alias when
		// there is one (MySQL searches the select list first): that
		// column's reads are the select list's, read above.
		out := map[string]bool{}
		for _, f := range s.Fields.Fields {
			if f.AsName.L != "" {
				out[f.AsName.L] = true
			}
		}
		for _, it := range s.OrderBy.Items {
			if c, ok := it.Expr.(*ast.ColumnNameExpr); ok && c.Name.Table.L == "" && out[c.Name.Name.L] {
				continue
			}
			r.expr(q, it)
		}
		r.orderLimit(q, nil, s.Limit)
		return q
	}
	r.orderLimit(q, s.OrderBy, s.Limit)
	return q
}

// from flattens a FROM tree into q's sources, left to right. NATURAL and
// USING mark the last source of a join's right side, so that the checker
// sees every source of both sides when it resolves them (the right side
// may itself be a parenthesised join).
func (r *myReader) from(q *Query, n ast.ResultSetNode) {
	switch x := n.(type) {
	case *ast.Join:
		if x.Left == nil {
			r.fail("a join has no left side")
			return
		}
		r.from(q, x.Left)
		if x.Right == nil {
			if x.On != nil || len(x.Using) > 0 || x.NaturalJoin {
				r.fail("a join condition has no right side")
			}
			return
		}
		r.from(q, x.Right)
		if len(q.Sources) == 0 {
			return
		}
		last := q.Sources[len(q.Sources)-1]
		last.Natural = last.Natural || x.NaturalJoin
		for _, u := range x.Using {
			if u != nil {
				last.Using = append(last.Using, u.Name.O)
			}
		}
		if x.On != nil && x.On.Expr != nil {
			r.expr(q, x.On.Expr)
		}
	case *ast.TableSource:
		r.tableSource(q, x)
	default:
		r.fail("its FROM clause holds %s, which the policy cannot read", myNodeName(n))
	}
}

func (r *myReader) tableSource(q *Query, ts *ast.TableSource) {
	alias := ts.AsName.O
	switch s := ts.Source.(type) {
	case *ast.TableName:
		if s.TableSample != nil || s.AsOf != nil {
			r.fail("%s has a TABLESAMPLE or AS OF clause, which the policy cannot read", s.Name.O)
			return
		}
		q.Sources = append(q.Sources, &Source{Schema: s.Schema.O, Table: s.Name.O, Alias: alias, Hinted: len(s.IndexHints) > 0 || len(s.PartitionNames) > 0})
	case *ast.SelectStmt:
		if r.jsonTable(s) {
			// JSON_TABLE(expr, ...): its columns are its own; expr reads
			// the sources before it.
			q.Sources = append(q.Sources, &Source{Func: true, Alias: alias, Pos: s.Fields.Fields[0].Offset})
			r.expr(q, s.Fields.Fields[0].Expr)
			return
		}
		q.Sources = append(q.Sources, &Source{Derived: r.resultSet(s), Alias: alias})
	case *ast.SetOprStmt:
		q.Sources = append(q.Sources, &Source{Derived: r.resultSet(s), Alias: alias})
	case *ast.Join:
		if alias != "" {
			r.fail("a parenthesised join has an alias")
			return
		}
		r.from(q, s)
	default:
		r.fail("its FROM clause holds %s, which the policy cannot read", myNodeName(ts.Source))
	}
}

// jsonTable reports whether s is the derived table a JSON_TABLE call was
// rewritten to: (SELECT expr), expr at the call's argument.
func (r *myReader) jsonTable(s *ast.SelectStmt) bool {
	if len(r.jsonTables) == 0 || s.From != nil || s.Fields == nil || len(s.Fields.Fields) != 1 {
		return false
	}
	f := s.Fields.Fields[0]
	return f != nil && f.Expr != nil && r.jsonTables[f.Offset]
}

// expr walks an expression (or a clause of expressions) into q: column
// references to q.Refs, subqueries to q.Subs.
func (r *myReader) expr(q *Query, n ast.Node) {
	if n == nil || r.err != nil {
		return
	}
	n.Accept(&myExprs{r: r, q: q})
}

// myExprs is the ast.Visitor of one query's expressions. It does not
// descend into subqueries (they are read as queries of their own) and
// refuses nodes it does not know.
type myExprs struct {
	r *myReader
	q *Query
}

func (v *myExprs) Enter(n ast.Node) (ast.Node, bool) {
	if v.r.err != nil {
		return n, true
	}
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		v.column(x.Name, x.OriginTextPosition())
		return n, true
	case *ast.ColumnName:
		// A column name outside a column expression.
		v.column(x, 0)
		return n, true
	case *ast.SubqueryExpr:
		if x.Query == nil {
			v.r.fail("a subquery has no query")
		} else {
			v.q.Subs = append(v.q.Subs, v.r.resultSet(x.Query))
		}
		return n, true
	case *ast.SelectStmt, *ast.SetOprStmt:
		v.q.Subs = append(v.q.Subs, v.r.resultSet(x))
		return n, true
	case *ast.MatchAgainst:
		// MATCH (col, ...) AGAINST (expr): the columns have no offsets
		// of their own.
		for _, c := range x.ColumnNames {
			v.column(c, x.OriginTextPosition())
		}
		if x.Against != nil {
			v.r.expr(v.q, x.Against)
		}
		return n, true
	case *ast.DefaultExpr:
		// DEFAULT(col) is the column's declared default, not its data.
		return n, true
	case *ast.FuncCallExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr, *ast.VariableExpr,
		*ast.GroupByClause, *ast.HavingClause, *ast.OrderByClause, *ast.ByItem, *ast.Limit,
		*ast.WindowSpec, *ast.PartitionByClause, *ast.FrameClause, *ast.FrameBound, *ast.RowExpr,
		*ast.BinaryOperationExpr, *ast.UnaryOperationExpr, *ast.BetweenExpr, *ast.CaseExpr,
		*ast.WhenClause, *ast.CompareSubqueryExpr, *ast.ExistsSubqueryExpr,
		*ast.PatternInExpr, *ast.PatternLikeOrIlikeExpr, *ast.PatternRegexpExpr, *ast.IsNullExpr,
		*ast.IsTruthExpr, *ast.ParenthesesExpr, *ast.PositionExpr, *ast.SetCollationExpr, *ast.TimeUnitExpr, *ast.GetFormatSelectorExpr,
		*ast.TrimDirectionExpr, *ast.FuncCastExpr:
		return n, false
	case ast.ValueExpr, ast.ParamMarkerExpr:
		return n, false
	}
	v.r.fail("it holds %s, which the policy cannot read", myNodeName(n))
	return n, true
}

func (v *myExprs) Leave(n ast.Node) (ast.Node, bool) { return n, v.r.err == nil }

func (v *myExprs) column(c *ast.ColumnName, pos int) {
	if c == nil {
		return
	}
	parts := nonEmpty(c.Schema.O, c.Table.O, c.Name.O)
	if len(parts) == 0 || c.Name.O == "" {
		v.r.fail("a column reference has no name")
		return
	}
	v.q.Refs = append(v.q.Refs, Ref{Parts: parts, Pos: pos})
}

// nonEmpty returns the non-empty parts, in order, or nil.
func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// myNodeName is the parser's type name of n, without package.
func myNodeName(n ast.Node) string {
	t := fmt.Sprintf("%T", n)
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	return t
}
