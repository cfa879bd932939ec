package privacy

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard/mysqlparse"
)

// aggregatedMySQL reads sql with the MySQL grammar (the TiDB parser, as
// the guard reads it) by the same rules as aggregatedPG, and writes the
// companion by appending the counts to its select list and restoring it.
func aggregatedMySQL(sql string, cat *quarry.Catalog) (*Plan, error) {
	p, err := mysqlparse.Parse(sql, mysqlparse.DefaultSQLMode)
	if err != nil {
		return nil, refuse("quarry cannot read the statement with the MySQL grammar (%s)", firstLine(err.Error()))
	}
	if len(p.Stmts) != 1 {
		return nil, refuse("it is not exactly one statement")
	}
	sel, ok := p.Stmts[0].(*ast.SelectStmt)
	if !ok {
		if _, set := p.Stmts[0].(*ast.SetOprStmt); set {
			return nil, refuse("it combines queries (UNION, INTERSECT or EXCEPT), and a branch may return rows")
		}
		return nil, refuse("it is not a SELECT")
	}
	c := &myClassifier{cat: cat, sel: sel}
	if err := c.read(); err != nil {
		return nil, err
	}
	return c.plan()
}

type myClassifier struct {
	cat     *quarry.Catalog
	sel     *ast.SelectStmt
	keys    map[string]bool
	aliases map[string]bool
	tables  []*ast.TableSource
	inputs  []ast.ExprNode // the columns aggregated, once each
	regroup []func()       // GROUP BY items read as an output's alias: set to its expression
	agg     bool
}

// mayBeColumn reports whether name (lower case) may be a column of a
// table the statement reads (a table the catalog does not know may have
// any).
func (c *myClassifier) mayBeColumn(name string) bool {
	if systemColumn(quarry.DialectMySQL, name) || c.cat == nil {
		return true
	}
	for _, t := range c.tables {
		tn := t.Source.(*ast.TableName)
		ts := c.cat.Lookup(tn.Schema.O, tn.Name.O)
		if len(ts) != 1 || len(ts[0].Columns) == 0 || hasColumn(ts[0], name) {
			return true
		}
	}
	return false
}

// sameColumnMy reports whether n is a reference to a column called name.
func sameColumnMy(n ast.ExprNode, name string) bool {
	cn, ok := n.(*ast.ColumnNameExpr)
	return ok && cn.Name.Name.L == name
}

func (c *myClassifier) read() error {
	s := c.sel
	switch {
	case s.Kind != ast.SelectStmtKindSelect:
		return refuse("it is a TABLE or VALUES statement")
	case s.With != nil:
		return refuse("it has a WITH clause; write the aggregate over the tables themselves")
	case s.SelectIntoOpt != nil || s.LockInfo != nil:
		return refuse("it is not a plain SELECT")
	case len(s.WindowSpecs) > 0:
		return refuse("it uses window functions, which return a value per row")
	case s.From == nil || s.From.TableRefs == nil:
		return refuse("it reads no table")
	case s.Fields == nil:
		return refuse("an output of the statement cannot be read")
	}
	if err := c.from(s.From.TableRefs); err != nil {
		return err
	}
	c.aliases = map[string]bool{}
	for _, f := range s.Fields.Fields {
		if f.WildCard != nil || f.Expr == nil {
			return refuse("it selects * (every column of every row)")
		}
		if f.AsName.L != "" {
			c.aliases[f.AsName.L] = true
		}
	}
	c.keys = map[string]bool{}
	if g := s.GroupBy; g != nil {
		if g.Rollup {
			return refuse("it uses GROUPING SETS, ROLLUP or CUBE")
		}
		for _, it := range g.Items {
			if pos, ok := it.Expr.(*ast.PositionExpr); ok {
				if pos.P != nil || pos.N < 1 || pos.N > len(s.Fields.Fields) {
					return refuse("GROUP BY names no output column")
				}
				c.keys[restore(s.Fields.Fields[pos.N-1].Expr)] = true
				continue
			}
			if cn, ok := it.Expr.(*ast.ColumnNameExpr); ok && cn.Name.Table.L == "" {
				// MySQL looks a GROUP BY name up among the columns of the
				// tables first, then the outputs: an output is a key only
				// when no column can take its name, or it is that column.
				for _, f := range s.Fields.Fields {
					if f.AsName.L != cn.Name.Name.L {
						continue
					}
					if !sameColumnMy(f.Expr, cn.Name.Name.L) && c.mayBeColumn(cn.Name.Name.L) {
						return refuse("GROUP BY %s names both an output (AS %s) and what may be a column of the tables it reads; the engine groups by the column, so that output would be one row's value: name the output otherwise, or group by its expression", cn.Name.Name.O, f.AsName.O)
					}
					c.keys[restore(f.Expr)] = true
					if !sameColumnMy(f.Expr, cn.Name.Name.L) {
						// The companion groups by the expression itself (see
						// the PostgreSQL reading).
						c.regroup = append(c.regroup, func() { it.Expr = f.Expr })
					}
				}
			}
			if err := c.expr(it.Expr, ctxKey); err != nil {
				return err
			}
			c.keys[restore(it.Expr)] = true
		}
	}
	for _, f := range s.Fields.Fields {
		if err := c.expr(f.Expr, ctxOutput); err != nil {
			return err
		}
	}
	if s.Having != nil {
		if err := c.expr(s.Having.Expr, ctxOutput); err != nil {
			return err
		}
	}
	if s.OrderBy != nil {
		for _, it := range s.OrderBy.Items {
			if _, ok := it.Expr.(*ast.PositionExpr); ok {
				continue
			}
			if cn, ok := it.Expr.(*ast.ColumnNameExpr); ok && cn.Name.Table.L == "" && c.aliases[cn.Name.Name.L] {
				continue
			}
			if err := c.expr(it.Expr, ctxOutput); err != nil {
				return err
			}
		}
	}
	if l := s.Limit; l != nil {
		for _, n := range []ast.ExprNode{l.Count, l.Offset} {
			if _, ok := n.(ast.ValueExpr); n != nil && !ok {
				return refuse("its LIMIT or OFFSET is not a number written out (a subquery or an expression there can depend on a row's value)")
			}
		}
	}
	if s.GroupBy == nil && !c.agg {
		return refuse("it does not aggregate: it has no GROUP BY and no aggregate (count, sum, avg) in what it returns")
	}
	return nil
}

func (c *myClassifier) from(n ast.ResultSetNode) error {
	switch x := n.(type) {
	case *ast.Join:
		if err := c.from(x.Left); err != nil {
			return err
		}
		if x.Right != nil {
			return c.from(x.Right)
		}
		return nil
	case *ast.TableSource:
		if tn, ok := x.Source.(*ast.TableName); ok && tn.TableSample == nil && tn.AsOf == nil && !x.Lateral {
			c.tables = append(c.tables, x)
			return nil
		}
	}
	return refuse("it reads from something other than tables (a subquery, a function or VALUES); aggregate over the tables themselves")
}

func (c *myClassifier) expr(n ast.ExprNode, where int) error {
	if n == nil {
		return nil
	}
	if where == ctxOutput && c.keys[restore(n)] {
		return nil
	}
	switch x := n.(type) {
	case ast.ValueExpr, *ast.TimeUnitExpr, *ast.TrimDirectionExpr, *ast.GetFormatSelectorExpr:
		return nil
	case *ast.ColumnNameExpr:
		if where == ctxOutput {
			return refuse("it returns the column %s, which is neither a GROUP BY key nor inside an aggregate", x.Name.OrigColName())
		}
		return nil
	case *ast.AggregateFuncExpr:
		return c.aggregate(x, where)
	case *ast.WindowFuncExpr:
		return refuse("it uses the window function %s, which returns a value per row", strings.ToLower(x.Name))
	case *ast.FuncCallExpr:
		name := x.FnName.L
		if x.Schema.L != "" {
			return refuse("it calls a function of another schema (%s.%s)", x.Schema.O, x.FnName.O)
		}
		if copiesList(name) {
			return refuse("it calls %s, which returns the values of the rows it aggregates", name)
		}
		return c.exprs(x.Args, where)
	case *ast.BinaryOperationExpr:
		return c.exprs([]ast.ExprNode{x.L, x.R}, where)
	case *ast.UnaryOperationExpr:
		return c.expr(x.V, where)
	case *ast.ParenthesesExpr:
		return c.expr(x.Expr, where)
	case *ast.FuncCastExpr:
		return c.expr(x.Expr, where)
	case *ast.IsNullExpr:
		return c.expr(x.Expr, where)
	case *ast.IsTruthExpr:
		return c.expr(x.Expr, where)
	case *ast.BetweenExpr:
		return c.exprs([]ast.ExprNode{x.Expr, x.Left, x.Right}, where)
	case *ast.PatternLikeOrIlikeExpr:
		return c.exprs([]ast.ExprNode{x.Expr, x.Pattern}, where)
	case *ast.PatternInExpr:
		if x.Sel != nil {
			return refuse("it has a subquery in what it returns, groups, or orders by")
		}
		return c.exprs(append([]ast.ExprNode{x.Expr}, x.List...), where)
	case *ast.CaseExpr:
		if err := c.expr(x.Value, where); err != nil {
			return err
		}
		for _, w := range x.WhenClauses {
			if err := c.exprs([]ast.ExprNode{w.Expr, w.Result}, where); err != nil {
				return err
			}
		}
		return c.expr(x.ElseClause, where)
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return refuse("it has a subquery in what it returns, groups, or orders by")
	}
	return refuse("it has an expression quarry cannot read as aggregated (%T)", n)
}

func (c *myClassifier) exprs(ns []ast.ExprNode, where int) error {
	for _, n := range ns {
		if err := c.expr(n, where); err != nil {
			return err
		}
	}
	return nil
}

func (c *myClassifier) aggregate(x *ast.AggregateFuncExpr, where int) error {
	name := strings.ToLower(x.F)
	switch {
	case copiesList(name) || !aggregate(name):
		return refuse("it calls %s, which returns the values of the rows it aggregates or is not an aggregate quarry knows", name)
	case where == ctxKey:
		return refuse("it groups by an aggregate")
	case copiesOne(name):
		return refuse("it calls %s, which returns one row's value as it is, however large the group", name)
	case x.Order != nil || len(x.Args) != 1:
		return refuse("%s has an ORDER BY or more than one argument; aggregate one column over the group's rows", name)
	}
	c.agg = true
	switch x.Args[0].(type) {
	case *ast.ColumnNameExpr:
		for _, in := range c.inputs {
			if restore(in) == restore(x.Args[0]) {
				return nil
			}
		}
		c.inputs = append(c.inputs, x.Args[0])
		return nil
	case ast.ValueExpr:
		if name == "count" && !x.Distinct {
			return nil // count(*), which the grammar reads as count(1)
		}
	}
	return refuse("%s aggregates an expression; aggregate one column (an expression such as CASE can pick out a single row's value)", name)
}

// plan appends the counts to the statement's select list and restores it.
func (c *myClassifier) plan() (*Plan, error) {
	p := &Plan{Columns: len(c.sel.Fields.Fields)}
	for _, set := range c.regroup {
		set()
	}
	counts := []string{"COUNT(*) AS quarry_rows"}
	for i, t := range c.tables {
		tn := t.Source.(*ast.TableName)
		qual := []string{tn.Name.O}
		switch {
		case t.AsName.O != "":
			qual = []string{t.AsName.O}
		case tn.Schema.O != "":
			qual = []string{tn.Schema.O, tn.Name.O}
		}
		var pk []string
		if c.cat != nil {
			if ts := c.cat.Lookup(tn.Schema.O, tn.Name.O); len(ts) == 1 {
				pk = ts[0].PrimaryKey
			}
		}
		if len(pk) == 0 {
			return nil, refuse("quarry cannot tell the rows of %s apart (it has no primary key)", strings.Join(qual, "."))
		}
		var cols []string
		for _, k := range pk {
			cols = append(cols, quoteMy(append(append([]string{}, qual...), k)...))
		}
		counts = append(counts, fmt.Sprintf("COUNT(DISTINCT %s) AS quarry_t%d", strings.Join(cols, ", "), i+1))
		name := tn.Name.O
		if tn.Schema.O != "" {
			name = tn.Schema.O + "." + name
		}
		if t.AsName.O != "" {
			name += " " + t.AsName.O
		}
		p.Tables = append(p.Tables, name)
	}
	for i, in := range c.inputs {
		var b strings.Builder
		if err := in.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil {
			return nil, refuse("quarry cannot write the count of rows behind each group (%s)", firstLine(err.Error()))
		}
		counts = append(counts, fmt.Sprintf("COUNT(%s) AS quarry_a%d", b.String(), i+1))
		p.Inputs = append(p.Inputs, in.(*ast.ColumnNameExpr).Name.OrigColName())
	}
	tmpl, err := mysqlparse.Parse("SELECT "+strings.Join(counts, ", ")+" FROM t", mysqlparse.DefaultSQLMode)
	if err != nil || len(tmpl.Stmts) != 1 {
		return nil, refuse("quarry cannot write the count of rows behind each group")
	}
	c.sel.Fields.Fields = append(c.sel.Fields.Fields, tmpl.Stmts[0].(*ast.SelectStmt).Fields.Fields...)
	var b strings.Builder
	if err := c.sel.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil {
		return nil, refuse("quarry cannot write the count of rows behind each group (%s)", firstLine(err.Error()))
	}
	p.Companion = b.String()
	return p, nil
}

// restore writes an expression back as SQL, the canonical form keys are
// compared in (names as the grammar folds them).
func restore(n ast.Node) string {
	var b strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags|format.RestoreNameLowercase, &b)); err != nil {
		return fmt.Sprintf("%p", n) // equal to nothing else
	}
	return b.String()
}

// quoteMy writes a dotted name with MySQL's backquotes.
func quoteMy(parts ...string) string {
	for i, p := range parts {
		parts[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return strings.Join(parts, ".")
}
