// Package pgparse is the PostgreSQL engine check of quarry's read-only
// guard: it parses a statement with PostgreSQL's own grammar (libpg_query
// through pg_query_go) and decides from the parse tree, not from the text,
// whether the statement may run.
//
// Check requires exactly one statement; allows only a query (SELECT, set
// operations, VALUES, TABLE) or an EXPLAIN of one without ANALYZE; and
// walks every node of the tree, generically, rejecting INTO clauses,
// locking clauses at any depth, CTEs whose body is not a query, nested
// statements of any other kind, unknown TABLESAMPLE methods, nodes it
// does not know, and every function call that sqlguard's PostgreSQL
// allow-list does not accept, after normalising schema, quoting and case,
// including the calls PostgreSQL's attribute notation hides ((x).f and
// t.f for f(x) and f(t)). The verdict is data, in the
// same form and with the same rule codes as sqlguard.Check.
//
// The parser needs cgo. A build without cgo gets a lexer-only fallback with
// the same API that rejects more: see Available.
package pgparse

// Engine rule codes, in addition to the codes of sqlguard.
const (
	// CodeEngineUnchecked means the engine check did not run (for example
	// the check was cancelled). Treat it as a rejection.
	CodeEngineUnchecked = "engine_unchecked"
	// CodeConstruct means the tree holds a node the guard does not know to
	// be read-only (the same code as mysqlparse's).
	CodeConstruct = "construct_not_allowed"
)
