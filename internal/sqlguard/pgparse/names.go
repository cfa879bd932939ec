//go:build cgo

package pgparse

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// funcCall checks a call by its name list (function, schema.function or
// catalog.schema.function as the parser gives it: unquoted parts already
// lower case, quoted parts as written).
func (w *walker) funcCall(parts []*pg_query.Node, pos int) {
	names := make([]string, 0, len(parts))
	for _, p := range parts {
		s := p.GetString_()
		if s == nil {
			w.add(sqlguard.CodeFunctionNotAllowed, pos, "the call names its function in a form the guard cannot read; call a built-in function by its plain name")
			return
		}
		names = append(names, s.GetSval())
	}
	if len(names) == 0 {
		return
	}
	name := names[len(names)-1]
	lower := strings.ToLower(name)
	shown := strings.Join(names, ".")
	switch {
	case sqlguard.Never(lower):
		w.record(lower)
		w.add(sqlguard.CodeFunctionNotAllowed, pos,
			"%s() is never allowed: it has side effects (files, sessions, locks, sequences, settings, sleeping) or runs SQL text the guard cannot see; compute the answer with plain SQL", shown)
		return
	case len(names) > 2:
		w.record(shown)
		w.add(sqlguard.CodeFunctionNotAllowed, pos, "the call %s() names a database; call built-in functions without a qualifier", shown)
		return
	case name != lower:
		w.record(shown)
		w.add(sqlguard.CodeFunctionNotAllowed, pos,
			"%q is a quoted name with capitals, so it is not the built-in %s(); write the function name unquoted", name, lower)
		return
	}
	if len(names) == 1 {
		w.record(name)
		if !w.opts.AllowsFunction(name) {
			w.add(sqlguard.CodeFunctionNotAllowed, pos,
				"%s() is not on the function allow-list for postgres; use a listed function, or add it to guard.extra_functions in quarry.yaml if it is read-only", name)
		}
		return
	}
	schema := names[0]
	if schema == "pg_catalog" {
		w.record(name)
		if !w.opts.AllowsFunction(name) && !grammarFunction(name) {
			w.add(sqlguard.CodeFunctionNotAllowed, pos,
				"%s() is not on the function allow-list for postgres; use a listed function, or add it to guard.extra_functions in quarry.yaml if it is read-only", shown)
		}
		return
	}
	w.record(shown)
	if schema != strings.ToLower(schema) || !w.opts.AllowsFunction(shown) {
		w.add(sqlguard.CodeFunctionNotAllowed, pos,
			"the call %s() names a schema; call built-in functions without a schema (only pg_catalog is accepted), or list %s in guard.extra_functions if it is read-only", shown, shown)
	}
}

// grammarFunction reports whether name is one of the pg_catalog functions
// that PostgreSQL's grammar itself writes for SQL-standard syntax (LIKE ...
// ESCAPE, SIMILAR TO, AT TIME ZONE, OVERLAPS, IS NORMALIZED, COLLATION FOR,
// SYSTEM_USER, XMLEXISTS, JSON_OBJECT ...). All are read-only built-ins;
// they are accepted only with the pg_catalog qualifier the grammar adds.
func grammarFunction(name string) bool {
	switch name {
	case "like_escape", "similar_to_escape", "similar_escape", "timezone", "overlaps",
		"is_normalized", "normalize", "pg_collation_for", "system_user", "xmlexists",
		"json_object", "extract", "position", "substring", "overlay", "btrim", "ltrim", "rtrim":
		return true
	}
	return false
}

// tableSample accepts only the built-in sampling methods: a method is a
// function, and an unknown one could be anything.
func (w *walker) tableSample(n *pg_query.RangeTableSample) {
	var names []string
	for _, p := range n.GetMethod() {
		names = append(names, p.GetString_().GetSval())
	}
	shown := strings.Join(names, ".")
	if len(names) == 1 {
		switch names[0] {
		case "system", "bernoulli", "system_rows", "system_time":
			return
		}
	}
	w.add(sqlguard.CodeFunctionNotAllowed, int(n.GetLocation()),
		"TABLESAMPLE %s is not a built-in sampling method; use TABLESAMPLE SYSTEM (n) or BERNOULLI (n)", shown)
}

// operator rejects an operator named with a schema other than pg_catalog
// (OPERATOR(myschema.+), in an expression, before ANY/ALL (subquery) or
// in ORDER BY ... USING): it is user-defined, and the function behind it
// is unknown. Unqualified operators are out of the guard's scope.
func (w *walker) operator(parts []*pg_query.Node, pos int) {
	if name, ok := outsideCatalog(parts); ok {
		w.add(sqlguard.CodeFunctionNotAllowed, pos,
			"OPERATOR(%s) names a user-defined operator, whose function the guard cannot see; use the built-in operator without a schema", name)
	}
}

// outsideCatalog returns a schema-qualified name, dotted, when its schema
// is not pg_catalog; ok is false for an unqualified or pg_catalog name.
func outsideCatalog(parts []*pg_query.Node) (string, bool) {
	if len(parts) < 2 {
		return "", false
	}
	if s := parts[0].GetString_(); s != nil && s.GetSval() == "pg_catalog" && len(parts) == 2 {
		return "", false
	}
	names := make([]string, 0, len(parts))
	for _, p := range parts {
		names = append(names, p.GetString_().GetSval())
	}
	return strings.Join(names, "."), true
}

// typeName rejects a type named with a schema other than pg_catalog (in a
// cast, a column definition list, JSON_TABLE, XMLTABLE or RETURNING): a
// value of it is made by that type's own input or cast function, which
// the guard cannot see. Unqualified types are out of the guard's scope.
func (w *walker) typeName(n *pg_query.TypeName) {
	shown, ok := outsideCatalog(n.GetNames())
	if !ok {
		return
	}
	w.record(shown)
	w.add(sqlguard.CodeFunctionNotAllowed, int(n.GetLocation()),
		"the type %s names a schema, so it is not a built-in type: casting to it runs that type's own input or cast function, which the guard cannot see; use a built-in type without a schema", shown)
}

// statementName turns a parse-node type name into the words a person
// would use for the statement.
func statementName(node string) string {
	switch node {
	case "InsertStmt":
		return "INSERT"
	case "UpdateStmt":
		return "UPDATE"
	case "DeleteStmt":
		return "DELETE"
	case "MergeStmt":
		return "MERGE"
	case "VariableSetStmt":
		return "SET"
	case "VariableShowStmt":
		return "SHOW"
	case "CopyStmt":
		return "COPY"
	case "DoStmt":
		return "DO"
	case "CallStmt":
		return "CALL"
	case "PrepareStmt":
		return "PREPARE"
	case "ExecuteStmt":
		return "EXECUTE"
	case "DeallocateStmt":
		return "DEALLOCATE"
	case "DeclareCursorStmt":
		return "DECLARE CURSOR"
	case "FetchStmt":
		return "FETCH/MOVE"
	case "ClosePortalStmt":
		return "CLOSE"
	case "LockStmt":
		return "LOCK"
	case "ListenStmt":
		return "LISTEN"
	case "UnlistenStmt":
		return "UNLISTEN"
	case "NotifyStmt":
		return "NOTIFY"
	case "VacuumStmt":
		return "VACUUM/ANALYZE"
	case "TransactionStmt":
		return "a transaction command (BEGIN, COMMIT, ROLLBACK, SAVEPOINT ...)"
	case "CreateTableAsStmt":
		return "CREATE TABLE AS / CREATE MATERIALIZED VIEW"
	case "ExplainStmt":
		return "EXPLAIN"
	case "DiscardStmt":
		return "DISCARD"
	case "CheckPointStmt":
		return "CHECKPOINT"
	case "LoadStmt":
		return "LOAD"
	case "TruncateStmt":
		return "TRUNCATE"
	case "RefreshMatViewStmt":
		return "REFRESH MATERIALIZED VIEW"
	case "ReindexStmt":
		return "REINDEX"
	case "ClusterStmt":
		return "CLUSTER"
	case "VariableResetStmt":
		return "RESET"
	case "AlterSystemStmt":
		return "ALTER SYSTEM"
	case "GrantStmt", "GrantRoleStmt":
		return "GRANT/REVOKE"
	case "DropStmt":
		return "DROP"
	case "SelectStmt":
		return "SELECT"
	}
	s := strings.TrimSuffix(node, "Stmt")
	switch {
	case strings.HasPrefix(s, "Create"):
		return "a CREATE statement (" + node + ")"
	case strings.HasPrefix(s, "Alter"):
		return "an ALTER statement (" + node + ")"
	case strings.HasPrefix(s, "Drop"):
		return "a DROP statement (" + node + ")"
	}
	return "the statement " + node
}

// firstToken returns the offset of the statement's first token that is
// not a comment.
func (w *walker) firstToken(raw *pg_query.RawStmt) int {
	start := int(raw.GetStmtLocation())
	res, err := pg_query.Scan(w.sql)
	if err != nil {
		return skipSpace(w.sql, start)
	}
	for _, t := range res.GetTokens() {
		if int(t.GetStart()) < start || t.GetToken() == pg_query.Token_SQL_COMMENT || t.GetToken() == pg_query.Token_C_COMMENT {
			continue
		}
		return int(t.GetStart())
	}
	return skipSpace(w.sql, start)
}

// placeLocks gives each locking-clause violation the position of its FOR
// token: in the order the clauses were found (inner queries first), each
// takes the first FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE / FOR KEY
// SHARE not yet taken at or after the start of its query.
func (w *walker) placeLocks() {
	if len(w.locks) == 0 {
		return
	}
	res, err := pg_query.Scan(w.sql)
	if err != nil {
		return
	}
	toks := res.GetTokens()
	var fors []int
	for i, t := range toks {
		if t.GetToken() != pg_query.Token_FOR || i+1 >= len(toks) {
			continue
		}
		switch toks[i+1].GetToken() {
		case pg_query.Token_UPDATE, pg_query.Token_SHARE, pg_query.Token_NO, pg_query.Token_KEY:
			fors = append(fors, int(t.GetStart()))
		}
	}
	taken := make([]bool, len(fors))
	for _, p := range w.locks {
		for i, pos := range fors {
			if !taken[i] && pos >= p.from {
				taken[i] = true
				w.viols[p.viol].Pos = pos
				break
			}
		}
	}
}
