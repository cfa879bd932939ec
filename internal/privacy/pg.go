//go:build cgo

package privacy

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/quarrydata/quarry/internal/quarry"
)

// aggregatedPG reads sql with PostgreSQL's own parser. SQLite and DuckDB
// statements are read by it too: what it cannot parse is refused, and
// where it reads a statement otherwise than the engine, the companion
// (run by the engine) returns other rows than the result and Judge
// refuses.
func aggregatedPG(d quarry.Dialect, sql string, cat *quarry.Catalog) (*Plan, error) {
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return nil, refuse("quarry cannot read the statement with the SQL parser (%s)", firstLine(err.Error()))
	}
	if len(tree.Stmts) != 1 {
		return nil, refuse("it is not exactly one statement")
	}
	sel := tree.Stmts[0].GetStmt().GetSelectStmt()
	if sel == nil {
		return nil, refuse("it is not a SELECT")
	}
	c := &pgClassifier{d: d, cat: cat, sel: sel, version: tree.Version}
	if err := c.read(); err != nil {
		return nil, err
	}
	return c.plan()
}

// pgClassifier reads one SELECT.
type pgClassifier struct {
	d       quarry.Dialect
	cat     *quarry.Catalog
	sel     *pg_query.SelectStmt
	keys    map[string]bool // the GROUP BY expressions, canonical
	aliases map[string]bool // the output names, lower case
	tables  []*pg_query.RangeVar
	inputs  []*pg_query.Node       // the columns aggregated, once each
	regroup map[int]*pg_query.Node // GROUP BY items read as an output's alias: its expression
	agg     bool                   // an aggregate was read in the output
	version int32
}

func (c *pgClassifier) read() error {
	s := c.sel
	switch {
	case s.Op != pg_query.SetOperation_SETOP_NONE:
		return refuse("it combines queries (UNION, INTERSECT or EXCEPT), and a branch may return rows")
	case s.WithClause != nil:
		return refuse("it has a WITH clause; write the aggregate over the tables themselves")
	case len(s.ValuesLists) > 0:
		return refuse("it is a VALUES list")
	case s.IntoClause != nil || len(s.LockingClause) > 0:
		return refuse("it is not a plain SELECT")
	case len(s.WindowClause) > 0:
		return refuse("it uses window functions, which return a value per row")
	case len(s.FromClause) == 0:
		return refuse("it reads no table")
	}
	for _, f := range s.FromClause {
		if err := c.from(f); err != nil {
			return err
		}
	}
	c.aliases = map[string]bool{}
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil || rt.Val == nil {
			return refuse("an output of the statement cannot be read")
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && star(cr) {
			return refuse("it selects * (every column of every row)")
		}
		if rt.Name != "" {
			c.aliases[strings.ToLower(rt.Name)] = true
		}
	}
	c.keys = map[string]bool{}
	c.regroup = map[int]*pg_query.Node{}
	for i, g := range s.GroupClause {
		if g.GetGroupingSet() != nil {
			return refuse("it uses GROUPING SETS, ROLLUP or CUBE")
		}
		if i, ok := ordinal(g); ok {
			if i < 1 || i > len(s.TargetList) {
				return refuse("GROUP BY %d names no output column", i)
			}
			c.keys[canon(s.TargetList[i-1].GetResTarget().Val)] = true
			continue
		}
		if name, ok := bareName(g); ok {
			// An output's name. SQLite and PostgreSQL group by a column
			// of the tables read when one has that name, and by the
			// output only when none does: the output is a key only when
			// no column can take the name (or it is that column itself).
			for _, t := range s.TargetList {
				rt := t.GetResTarget()
				if !strings.EqualFold(rt.Name, name) {
					continue
				}
				if !sameColumn(rt.Val, name) && c.mayBeColumn(name) {
					return refuse("GROUP BY %s names both an output (AS %s) and what may be a column of the tables it reads; the engine groups by the column, so that output would be one row's value: name the output otherwise, or group by its expression", name, rt.Name)
				}
				c.keys[canon(rt.Val)] = true
				if !sameColumn(rt.Val, name) {
					// The companion groups by the expression itself: were the
					// engine to read the name as a column after all (a catalog
					// out of date), its groups, and so its rows, would differ
					// from the result's, and Judge refuses.
					c.regroup[i] = rt.Val
				}
			}
		}
		if err := c.expr(g, ctxKey); err != nil {
			return err
		}
		c.keys[canon(g)] = true
	}
	for _, t := range s.TargetList {
		if err := c.expr(t.GetResTarget().Val, ctxOutput); err != nil {
			return err
		}
	}
	if s.HavingClause != nil {
		if err := c.expr(s.HavingClause, ctxOutput); err != nil {
			return err
		}
	}
	for _, o := range s.SortClause {
		sb := o.GetSortBy()
		if sb == nil {
			return refuse("its ORDER BY cannot be read")
		}
		if _, ok := ordinal(sb.Node); ok {
			continue
		}
		if name, ok := bareName(sb.Node); ok && c.aliases[strings.ToLower(name)] {
			continue
		}
		if err := c.expr(sb.Node, ctxOutput); err != nil {
			return err
		}
	}
	for _, n := range []*pg_query.Node{s.LimitCount, s.LimitOffset} {
		if n != nil && n.GetAConst() == nil {
			return refuse("its LIMIT or OFFSET is not a number written out (a subquery or an expression there can depend on a row's value)")
		}
	}
	for _, n := range s.DistinctClause {
		if n != nil && n.Node != nil {
			return refuse("it uses DISTINCT ON")
		}
	}
	if len(s.GroupClause) == 0 && !c.agg {
		return refuse("it does not aggregate: it has no GROUP BY and no aggregate (count, sum, avg) in what it returns")
	}
	return nil
}

// from collects the table occurrences of a FROM item.
func (c *pgClassifier) from(n *pg_query.Node) error {
	switch {
	case n.GetRangeVar() != nil:
		c.tables = append(c.tables, n.GetRangeVar())
		return nil
	case n.GetJoinExpr() != nil:
		j := n.GetJoinExpr()
		if j.Alias != nil {
			return refuse("it names a join with an alias")
		}
		if err := c.from(j.Larg); err != nil {
			return err
		}
		return c.from(j.Rarg)
	}
	return refuse("it reads from something other than tables (a subquery, a function or VALUES); aggregate over the tables themselves")
}

// expr checks one expression: every column outside an aggregate is a
// GROUP BY key, every aggregate is one that copies at most one value of
// one column, and nothing else (subqueries, windows, unknown nodes)
// occurs.
func (c *pgClassifier) expr(n *pg_query.Node, where int) error {
	if n == nil {
		return nil
	}
	if where == ctxOutput && c.keys[canon(n)] {
		return nil
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_AConst, *pg_query.Node_SqlvalueFunction:
		return nil
	case *pg_query.Node_ColumnRef:
		if star(x.ColumnRef) {
			return refuse("it selects * (every column of every row)")
		}
		if where == ctxOutput {
			return refuse("it returns the column %s, which is neither a GROUP BY key nor inside an aggregate", colName(x.ColumnRef))
		}
		return nil
	case *pg_query.Node_FuncCall:
		return c.call(x.FuncCall, where)
	case *pg_query.Node_AExpr:
		if err := c.expr(x.AExpr.Lexpr, where); err != nil {
			return err
		}
		return c.expr(x.AExpr.Rexpr, where)
	case *pg_query.Node_List:
		return c.exprs(x.List.Items, where)
	case *pg_query.Node_BoolExpr:
		return c.exprs(x.BoolExpr.Args, where)
	case *pg_query.Node_TypeCast:
		return c.expr(x.TypeCast.Arg, where)
	case *pg_query.Node_CoalesceExpr:
		return c.exprs(x.CoalesceExpr.Args, where)
	case *pg_query.Node_MinMaxExpr:
		return c.exprs(x.MinMaxExpr.Args, where)
	case *pg_query.Node_NullTest:
		return c.expr(x.NullTest.Arg, where)
	case *pg_query.Node_BooleanTest:
		return c.expr(x.BooleanTest.Arg, where)
	case *pg_query.Node_CaseExpr:
		if err := c.expr(x.CaseExpr.Arg, where); err != nil {
			return err
		}
		if err := c.exprs(x.CaseExpr.Args, where); err != nil {
			return err
		}
		return c.expr(x.CaseExpr.Defresult, where)
	case *pg_query.Node_CaseWhen:
		if err := c.expr(x.CaseWhen.Expr, where); err != nil {
			return err
		}
		return c.expr(x.CaseWhen.Result, where)
	case *pg_query.Node_SubLink:
		return refuse("it has a subquery in what it returns, groups, or orders by")
	}
	return refuse("it has an expression quarry cannot read as aggregated (%s)", nodeName(n))
}

func (c *pgClassifier) exprs(ns []*pg_query.Node, where int) error {
	for _, n := range ns {
		if err := c.expr(n, where); err != nil {
			return err
		}
	}
	return nil
}

// call checks a function call.
func (c *pgClassifier) call(f *pg_query.FuncCall, where int) error {
	name, ok := funcName(f.Funcname)
	if !ok {
		return refuse("it calls a function of another schema (%s)", strings.Join(strs(f.Funcname), "."))
	}
	if f.Over != nil {
		return refuse("it uses the window function %s, which returns a value per row", name)
	}
	if copiesList(name) {
		return refuse("it calls %s, which returns the values of the rows it aggregates", name)
	}
	special := f.AggStar || f.AggDistinct || f.AggFilter != nil || len(f.AggOrder) > 0 || f.AggWithinGroup || f.FuncVariadic
	if aggregate(name) && (len(f.Args) == 1 || f.AggStar && name == "count" && len(f.Args) == 0) {
		switch {
		case where == ctxKey:
			return refuse("it groups by an aggregate")
		case copiesOne(name):
			return refuse("it calls %s, which returns one row's value as it is, however large the group", name)
		case f.AggFilter != nil || len(f.AggOrder) > 0 || f.AggWithinGroup || f.FuncVariadic:
			return refuse("%s has a FILTER, ORDER BY or WITHIN GROUP clause; aggregate a column over the group's rows", name)
		}
		c.agg = true
		if f.AggStar {
			return nil
		}
		cr := f.Args[0].GetColumnRef()
		if cr == nil || star(cr) {
			return refuse("%s aggregates an expression; aggregate one column (an expression such as CASE can pick out a single row's value)", name)
		}
		c.input(f.Args[0])
		return nil
	}
	if special {
		return refuse("it calls %s with aggregate syntax quarry does not know", name)
	}
	// A scalar function (min and max of two or more arguments in SQLite
	// are scalar too): its arguments stand where it stands.
	return c.exprs(f.Args, where)
}

// plan writes the companion: the statement with count columns appended.
func (c *pgClassifier) plan() (*Plan, error) {
	comp := proto.Clone(c.sel).(*pg_query.SelectStmt)
	for i, n := range c.regroup {
		comp.GroupClause[i] = proto.Clone(n).(*pg_query.Node)
	}
	p := &Plan{Columns: len(comp.TargetList)}
	comp.TargetList = append(comp.TargetList, pg_query.MakeResTargetNodeWithNameAndVal("quarry_rows",
		&pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("count")}, AggStar: true, Funcformat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}}}, 0))
	for i, t := range c.tables {
		id, err := c.identity(t)
		if err != nil {
			return nil, err
		}
		count := &pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("count")},
			Args: []*pg_query.Node{id}, AggDistinct: true, Funcformat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}}}
		comp.TargetList = append(comp.TargetList, pg_query.MakeResTargetNodeWithNameAndVal("quarry_t"+itoa(i+1), count, 0))
		p.Tables = append(p.Tables, tableName(t))
	}
	for i, in := range c.inputs {
		count := &pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("count")},
			Args: []*pg_query.Node{proto.Clone(in).(*pg_query.Node)}, Funcformat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}}}
		comp.TargetList = append(comp.TargetList, pg_query.MakeResTargetNodeWithNameAndVal("quarry_a"+itoa(i+1), count, 0))
		p.Inputs = append(p.Inputs, colName(in.GetColumnRef()))
	}
	out, err := pg_query.Deparse(&pg_query.ParseResult{Version: c.version, Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: comp}}}}})
	if err != nil {
		return nil, refuse("quarry cannot write the count of rows behind each group (%s)", firstLine(err.Error()))
	}
	p.Companion = out
	return p, nil
}

// input records a column an aggregate reads, once.
func (c *pgClassifier) input(n *pg_query.Node) {
	for _, in := range c.inputs {
		if canon(in) == canon(n) {
			return
		}
	}
	c.inputs = append(c.inputs, n)
}

// mayBeColumn reports whether name may be a column of a table the
// statement reads: a column the catalog lists, a system column of the
// engine, or any name of a table the catalog does not know.
func (c *pgClassifier) mayBeColumn(name string) bool {
	if systemColumn(c.d, name) || c.cat == nil {
		return true
	}
	for _, t := range c.tables {
		if t.Catalogname != "" {
			return true
		}
		ts := c.cat.Lookup(t.Schemaname, t.Relname)
		if len(ts) != 1 || len(ts[0].Columns) == 0 || hasColumn(ts[0], name) {
			return true
		}
	}
	return false
}

// sameColumn reports whether n is a reference to a column called name,
// so that grouping by the name reads the same whether the engine takes
// it as the output or as the column.
func sameColumn(n *pg_query.Node, name string) bool {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 {
		return false
	}
	last := cr.Fields[len(cr.Fields)-1].GetString_()
	return last != nil && strings.EqualFold(last.Sval, name)
}

// identity is what tells one row of a table occurrence from another, and
// is never NULL: on SQLite and DuckDB the row identity (a SQLite primary
// key other than INTEGER PRIMARY KEY may hold NULLs, which count(DISTINCT)
// would not count), by a name of it no column of the table takes; on
// PostgreSQL the primary key, else ctid.
func (c *pgClassifier) identity(t *pg_query.RangeVar) (*pg_query.Node, error) {
	qual := []*pg_query.Node{}
	switch {
	case t.Alias != nil && t.Alias.Aliasname != "":
		qual = append(qual, pg_query.MakeStrNode(t.Alias.Aliasname))
	case t.Schemaname != "":
		qual = append(qual, pg_query.MakeStrNode(t.Schemaname), pg_query.MakeStrNode(t.Relname))
	default:
		qual = append(qual, pg_query.MakeStrNode(t.Relname))
	}
	col := func(name string) *pg_query.Node {
		return pg_query.MakeColumnRefNode(append(append([]*pg_query.Node{}, qual...), pg_query.MakeStrNode(name)), 0)
	}
	var pk []string
	var info *quarry.TableInfo
	if c.cat != nil && t.Catalogname == "" {
		if ts := c.cat.Lookup(t.Schemaname, t.Relname); len(ts) == 1 {
			info = ts[0]
			pk = info.PrimaryKey
		}
	}
	if c.d == quarry.DialectSQLite || c.d == quarry.DialectDuckDB {
		for _, name := range []string{"rowid", "_rowid_", "oid"} {
			if info == nil || !hasColumn(info, name) {
				return col(name), nil
			}
		}
		return nil, refuse("quarry cannot tell the rows of %s apart (its columns take every name of the row identity)", tableName(t))
	}
	switch {
	case len(pk) == 1 && c.d == quarry.DialectPostgres:
		return col(pk[0]), nil
	case len(pk) > 1 && c.d == quarry.DialectPostgres:
		var args []*pg_query.Node
		for _, k := range pk {
			args = append(args, col(k))
		}
		return &pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: &pg_query.RowExpr{Args: args, RowFormat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}}}, nil
	case c.d == quarry.DialectPostgres:
		return col("ctid"), nil
	}
	return nil, refuse("quarry cannot tell the rows of %s apart (it has no primary key)", tableName(t))
}

// canon is an expression written without its positions, so that the same
// expression written twice compares equal.
func canon(n *pg_query.Node) string {
	if n == nil {
		return ""
	}
	m := proto.Clone(n)
	clearLocations(m.ProtoReflect())
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	return string(b)
}

func clearLocations(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Name() == "location":
			m.Clear(fd)
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				clearLocations(l.Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			clearLocations(v.Message())
		}
		return true
	})
}

func ordinal(n *pg_query.Node) (int, bool) {
	if k := n.GetAConst(); k != nil && !k.Isnull && k.GetIval() != nil {
		return int(k.GetIval().Ival), true
	}
	return 0, false
}

func bareName(n *pg_query.Node) (string, bool) {
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		return cr.Fields[0].GetString_().Sval, true
	}
	return "", false
}

func star(cr *pg_query.ColumnRef) bool {
	for _, f := range cr.Fields {
		if f.GetAStar() != nil {
			return true
		}
	}
	return false
}

func colName(cr *pg_query.ColumnRef) string { return strings.Join(strs(cr.Fields), ".") }

func strs(ns []*pg_query.Node) []string {
	var out []string
	for _, n := range ns {
		if s := n.GetString_(); s != nil {
			out = append(out, s.Sval)
		} else {
			out = append(out, "*")
		}
	}
	return out
}

// funcName is a function's name in lower case, when it is unqualified or
// PostgreSQL's own (pg_catalog).
func funcName(ns []*pg_query.Node) (string, bool) {
	parts := strs(ns)
	if len(parts) == 0 || len(parts) > 2 || len(parts) == 2 && !strings.EqualFold(parts[0], "pg_catalog") {
		return strings.ToLower(strings.Join(parts, ".")), false
	}
	return strings.ToLower(parts[len(parts)-1]), true
}

func tableName(t *pg_query.RangeVar) string {
	name := t.Relname
	if t.Schemaname != "" {
		name = t.Schemaname + "." + name
	}
	if t.Alias != nil && t.Alias.Aliasname != "" {
		name += " " + t.Alias.Aliasname
	}
	return name
}

func nodeName(n *pg_query.Node) string {
	return string(n.ProtoReflect().WhichOneof(n.ProtoReflect().Descriptor().Oneofs().Get(0)).Name())
}

func hasColumn(t *quarry.TableInfo, name string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}
