package mysqlparse

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// walker checks one parsed statement. It is an ast.Visitor: every node of
// the tree passes through Enter.
type walker struct {
	src      string
	opts     *sqlguard.Options
	viols    []sqlguard.Violation
	funcs    []string
	hasLimit bool

	// Tokens of src as the lexical guard reads them, for the positions of
	// clauses the tree does not place; read on first use.
	toks    []sqlguard.Token
	tokRead bool
	used    map[int]bool // token positions already reported
}

func (w *walker) add(code string, pos int, format string, args ...any) {
	if pos < 0 || pos > len(w.src) {
		pos = 0
	}
	w.viols = append(w.viols, sqlguard.Violation{Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// top checks the statement kind and walks the statement; it returns the
// kind for the verdict.
func (w *walker) top(s ast.StmtNode) string {
	switch n := s.(type) {
	case *ast.SelectStmt:
		w.hasLimit = n.Limit != nil
		s.Accept(w)
		if n.With != nil {
			return "with"
		}
		switch n.Kind {
		case ast.SelectStmtKindTable:
			return "table"
		case ast.SelectStmtKindValues:
			return "values"
		}
		return "select"
	case *ast.SetOprStmt:
		w.hasLimit = n.Limit != nil || (n.SelectList != nil && n.SelectList.Limit != nil)
		s.Accept(w)
		if n.With != nil {
			return "with"
		}
		return "select"
	case *ast.ExplainStmt:
		pos := w.start()
		if n.Analyze {
			w.add(sqlguard.CodeExplainAnalyze, w.find(pos, "ANALYZE"), "EXPLAIN ANALYZE runs the statement it explains; use plain EXPLAIN")
		}
		if n.Explore || n.SQLDigest != "" || n.PlanDigest != "" {
			w.add(sqlguard.CodeStatementNotAllowed, pos, "EXPLAIN of a plan or SQL digest is not a MySQL query; explain the query itself")
			return "explain"
		}
		switch t := n.Stmt.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
			t.Accept(w)
		case nil:
			w.add(sqlguard.CodeStatementNotAllowed, pos, "EXPLAIN without a query is not allowed; explain one SELECT")
		default:
			w.add(sqlguard.CodeStatementNotAllowed, pos, "EXPLAIN of %s is not allowed: only a query may be explained (and MySQL's EXPLAIN of a write can run it); explain one SELECT", stmtName(t))
		}
		return "explain"
	}
	w.add(sqlguard.CodeStatementNotAllowed, w.start(), "%s is not a query; quarry runs only SELECT, WITH ... SELECT, UNION/INTERSECT/EXCEPT, VALUES, TABLE and EXPLAIN without ANALYZE", stmtName(s))
	return ""
}

// Enter implements ast.Visitor. It never skips children, so every node
// of the tree is checked.
func (w *walker) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SelectStmt:
		if x.SelectIntoOpt != nil {
			w.add(sqlguard.CodeInto, w.find(w.start(), "INTO"), "%s writes the result to a file or variables; remove the INTO clause, quarry returns the rows itself", intoName(x.SelectIntoOpt))
		}
		if x.LockInfo != nil && x.LockInfo.LockType != ast.SelectLockNone {
			pos := w.find(w.start(), "FOR", "UPDATE")
			if pos == w.start() {
				pos = w.find(w.start(), "FOR", "SHARE")
			}
			if pos == w.start() {
				pos = w.find(w.start(), "LOCK", "IN")
			}
			w.add(sqlguard.CodeLocking, pos, "the locking clause %s takes row locks; remove it, a read needs no locks", strings.ToUpper(x.LockInfo.LockType.String()))
		}
	case *ast.CommonTableExpression:
		if x.Query == nil {
			w.add(sqlguard.CodeDataModifyingCTE, w.start(), "the CTE %s has no query body; a CTE body must be a SELECT", x.Name.O)
			break
		}
		switch x.Query.Query.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
		default:
			w.add(sqlguard.CodeDataModifyingCTE, x.Query.OriginTextPosition(), "the body of CTE %s is not a query; a CTE body must be a SELECT", x.Name.O)
		}
	case *ast.VariableExpr:
		if x.Value != nil {
			w.add(sqlguard.CodeVariableAssignment, x.OriginTextPosition(), "@%s := ... assigns a user variable, which changes the session; compute the value in the query instead", x.Name)
		}
	case *ast.FuncCallExpr:
		w.call(x)
	case *ast.AggregateFuncExpr:
		w.function(x.F, "", x.OriginTextPosition())
	case *ast.WindowFuncExpr:
		w.function(x.Name, "", x.OriginTextPosition())
	case *ast.SetOprStmt, *ast.SetOprSelectList, *ast.WithClause,
		*ast.FieldList, *ast.SelectField, *ast.TableRefsClause, *ast.Join, *ast.TableSource,
		*ast.TableName, *ast.OnCondition, *ast.GroupByClause, *ast.ByItem, *ast.HavingClause,
		*ast.OrderByClause, *ast.Limit, *ast.WindowSpec, *ast.PartitionByClause,
		*ast.FrameClause, *ast.FrameBound, *ast.RowExpr, *ast.ColumnNameExpr, *ast.ColumnName,
		*ast.BinaryOperationExpr, *ast.UnaryOperationExpr, *ast.BetweenExpr, *ast.CaseExpr,
		*ast.WhenClause, *ast.SubqueryExpr, *ast.CompareSubqueryExpr, *ast.ExistsSubqueryExpr,
		*ast.PatternInExpr, *ast.PatternLikeOrIlikeExpr, *ast.PatternRegexpExpr, *ast.IsNullExpr,
		*ast.IsTruthExpr, *ast.ParenthesesExpr, *ast.DefaultExpr, *ast.PositionExpr,
		*ast.MatchAgainst, *ast.SetCollationExpr, *ast.TimeUnitExpr, *ast.GetFormatSelectorExpr,
		*ast.TrimDirectionExpr, *ast.FuncCastExpr:
		// Structure, columns, operators and casts: read-only.
	case ast.ValueExpr, ast.ParamMarkerExpr:
		// Literals and ? markers.
	default:
		pos := w.start()
		if e, ok := n.(ast.ExprNode); ok {
			pos = e.OriginTextPosition()
		}
		w.add(CodeConstruct, pos, "the construct %s is not one the guard knows to be read-only on MySQL; rewrite the query with plain SELECT syntax", nodeName(n))
	}
	return n, false
}

// Leave implements ast.Visitor.
func (w *walker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// internalNames maps the names the parser gives to calls it builds itself
// to the names the allow-list uses.
var internalNames = map[string]string{
	ast.DateLiteral:      "date",
	ast.TimeLiteral:      "time",
	ast.TimestampLiteral: "timestamp",
	ast.InsertFunc:       "insert",
	ast.CharFunc:         "char",
	ast.JSONMemberOf:     "member",
}

func (w *walker) call(x *ast.FuncCallExpr) {
	w.function(x.FnName.L, x.Schema.L, x.OriginTextPosition())
}

// function checks a call of name (lower case), qualified by schema when
// schema is not empty, at byte pos.
func (w *walker) function(name, schema string, pos int) {
	name = strings.ToLower(name)
	if n, ok := internalNames[name]; ok {
		name = n
	}
	full := name
	if schema != "" {
		full = strings.ToLower(schema) + "." + name
	}
	w.record(full)
	switch {
	case sqlguard.Never(name):
		w.add(sqlguard.CodeFunctionNotAllowed, pos, "%s() is never allowed: it has side effects (files, sessions, locks, sleeping) or runs SQL text the guard cannot see; compute the answer with plain SQL", name)
	case schema != "" && !w.opts.AllowsFunction(full):
		w.add(sqlguard.CodeFunctionNotAllowed, pos, "the call %s(...) names a schema, so it is a stored function the guard cannot see into; call built-in functions without a schema, or list %s in guard.extra_functions if it is read-only", full, full)
	case schema == "" && !w.opts.AllowsFunction(name):
		w.add(sqlguard.CodeFunctionNotAllowed, pos, "%s() is not on the function allow-list for mysql; use a listed function, or add it to guard.extra_functions in quarry.yaml if it is read-only", name)
	}
}

func (w *walker) record(name string) {
	for _, f := range w.funcs {
		if f == name {
			return
		}
	}
	w.funcs = append(w.funcs, name)
}

// tokens returns the lexical guard's tokens of the statement, or nil when
// its lexer rejects the text.
func (w *walker) tokens() []sqlguard.Token {
	if !w.tokRead {
		w.tokRead = true
		if toks, ok := sqlguard.Tokenize(w.src, quarry.DialectMySQL); ok {
			w.toks = toks
		}
	}
	return w.toks
}

// start returns the offset of the statement's first token.
func (w *walker) start() int {
	if t := w.tokens(); len(t) > 0 {
		return t[0].Pos
	}
	return 0
}

// find returns the offset of the first not yet reported run of unquoted
// words equal to seq (case-insensitive), or def when there is none.
func (w *walker) find(def int, seq ...string) int {
	toks := w.tokens()
	for i := range toks {
		if w.used[toks[i].Pos] || i+len(seq) > len(toks) {
			continue
		}
		match := true
		for j, s := range seq {
			t := toks[i+j]
			if t.Kind != sqlguard.TokenWord || !strings.EqualFold(t.Text, s) {
				match = false
				break
			}
		}
		if match {
			if w.used == nil {
				w.used = map[int]bool{}
			}
			w.used[toks[i].Pos] = true
			return toks[i].Pos
		}
	}
	return def
}

func intoName(o *ast.SelectIntoOption) string {
	switch o.Tp {
	case ast.SelectIntoOutfile:
		return "INTO OUTFILE"
	case ast.SelectIntoDumpfile:
		return "INTO DUMPFILE"
	case ast.SelectIntoVars:
		return "INTO @variable"
	}
	return "INTO"
}

// stmtNames names the statements people most often send by mistake.
var stmtNames = map[string]string{
	"SetStmt": "SET", "DoStmt": "DO", "LoadDataStmt": "LOAD DATA", "InsertStmt": "INSERT",
	"UpdateStmt": "UPDATE", "DeleteStmt": "DELETE", "CallStmt": "CALL", "ShowStmt": "SHOW",
	"BeginStmt": "BEGIN/START TRANSACTION", "CommitStmt": "COMMIT", "RollbackStmt": "ROLLBACK",
	"PrepareStmt": "PREPARE", "ExecuteStmt": "EXECUTE", "DeallocateStmt": "DEALLOCATE",
	"AnalyzeTableStmt": "ANALYZE", "FlushStmt": "FLUSH", "KillStmt": "KILL", "UseStmt": "USE",
	"LockTablesStmt": "LOCK TABLES", "UnlockTablesStmt": "UNLOCK TABLES", "TruncateTableStmt": "TRUNCATE",
	"CreateTableStmt": "CREATE TABLE", "DropTableStmt": "DROP TABLE", "AlterTableStmt": "ALTER TABLE",
	"RenameTableStmt": "RENAME TABLE", "GrantStmt": "GRANT", "RevokeStmt": "REVOKE",
	"SetPwdStmt": "SET PASSWORD", "SetRoleStmt": "SET ROLE", "ExplainForStmt": "EXPLAIN FOR CONNECTION",
	"TraceStmt": "TRACE", "ImportIntoStmt": "IMPORT INTO", "CreateViewStmt": "CREATE VIEW",
	"CreateIndexStmt": "CREATE INDEX", "CreateDatabaseStmt": "CREATE DATABASE", "DropDatabaseStmt": "DROP DATABASE",
	"CreateUserStmt": "CREATE USER", "AlterUserStmt": "ALTER USER", "DropUserStmt": "DROP USER",
	"ShutdownStmt": "SHUTDOWN", "HelpStmt": "HELP", "SavepointStmt": "SAVEPOINT",
}

// stmtName names the statement s for a message.
func stmtName(s ast.Node) string {
	t := nodeName(s)
	if n, ok := stmtNames[t]; ok {
		return n
	}
	return "the " + strings.TrimSuffix(t, "Stmt") + " statement"
}

// nodeName is the parser's type name of n, without package.
func nodeName(n ast.Node) string {
	t := fmt.Sprintf("%T", n)
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	return t
}
