package sqlguard

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// DefaultMaxBytes is the size limit when Options.MaxBytes is 0.
const DefaultMaxBytes = 1 << 20

// Options configure one check.
type Options struct {
	// Dialect selects the lexing and function rules. The zero value and
	// quarry.DialectGeneric apply the rules of every dialect at once.
	Dialect quarry.Dialect
	// MaxBytes is the largest statement accepted; 0 means DefaultMaxBytes.
	MaxBytes int
	// ExtraFunctions are added to the function allow-list (case-insensitive,
	// without schema). They cannot re-enable a function that is never allowed.
	ExtraFunctions []string
	// Catalog is the schema of the connection the statement will run on,
	// or nil when it is unknown. The PostgreSQL engine check uses it to
	// tell a column t.f from PostgreSQL's attribute notation for the call
	// f(t); it must list every column of the tables it lists (a catalog
	// with columns removed makes those columns read as calls).
	Catalog *quarry.Catalog
}

// Violation is one broken rule.
type Violation struct {
	Code    string `json:"code"`
	Pos     int    `json:"pos"` // byte offset into the checked text
	Message string `json:"message"`
}

// Verdict is the outcome of a check. Statement is the kind of the statement
// ("select", "values", "table", "with", "explain") when the text got far
// enough to tell.
type Verdict struct {
	Allowed    bool           `json:"allowed"`
	Dialect    quarry.Dialect `json:"dialect"`
	Statement  string         `json:"statement,omitempty"`
	Violations []Violation    `json:"violations,omitempty"`
	Functions  []string       `json:"functions,omitempty"` // called, normalised, in order of first call
	HasLimit   bool           `json:"has_limit"`           // a top-level LIMIT or FETCH is present
}

// Rule codes. Each names one rule; docs/guard.md gives an example and the fix.
const (
	CodeEncoding            = "encoding"              // not valid UTF-8
	CodeNUL                 = "nul_byte"              // a NUL byte anywhere
	CodeTooLarge            = "too_large"             // over Options.MaxBytes
	CodeEmpty               = "empty"                 // no statement at all
	CodeNonASCII            = "non_ascii"             // non-ASCII outside literals and quoted identifiers
	CodeBidi                = "bidi_control"          // a bidirectional control character anywhere
	CodeControlChar         = "control_char"          // an ASCII control character outside literals
	CodeUnterminated        = "unterminated"          // an unterminated quote, comment or dollar quote
	CodeNestedComment       = "nested_comment"        // /* inside a block comment
	CodeBackslash           = "backslash"             // a backslash inside quotes or outside literals
	CodeDollar              = "dollar"                // $ outside literals where it is not PostgreSQL quoting
	CodeExecutableComment   = "executable_comment"    // MySQL /*! /*M! /*+
	CodeHashComment         = "hash_comment"          // # where it starts a comment (MySQL)
	CodeDashComment         = "dash_comment"          // -- not followed by whitespace (MySQL)
	CodeBracketIdentifier   = "bracket_identifier"    // [ ] identifiers (SQLite)
	CodeBacktick            = "backtick"              // backticks where the dialect has none
	CodeMetaCommand         = "meta_command"          // a client meta-command (\ or . first)
	CodeMultipleStatements  = "multiple_statements"   // more than one statement
	CodeSyntax              = "syntax"                // unbalanced parentheses and similar
	CodeStatementNotAllowed = "statement_not_allowed" // the statement is not a query
	CodeExplainAnalyze      = "explain_analyze"       // EXPLAIN ANALYZE executes its target
	CodeDataModifyingCTE    = "data_modifying_cte"    // a CTE body that is not a query
	CodeWriteKeyword        = "write_keyword"         // INSERT, UPDATE, DROP, PRAGMA ... anywhere
	CodeInto                = "into"                  // SELECT INTO, INTO OUTFILE/DUMPFILE/@var
	CodeLocking             = "locking_clause"        // FOR UPDATE/SHARE, LOCK IN SHARE MODE
	CodeVariableAssignment  = "variable_assignment"   // := (MySQL user variables)
	CodeFunctionNotAllowed  = "function_not_allowed"  // a call of a function not on the allow-list
	CodeFileAccess          = "file_access"           // a file read through a table position (DuckDB)
)

// Codes lists every rule code of Check, for documentation and tests.
func Codes() []string {
	return []string{
		CodeEncoding, CodeNUL, CodeTooLarge, CodeEmpty, CodeNonASCII, CodeBidi,
		CodeControlChar, CodeUnterminated, CodeNestedComment, CodeBackslash,
		CodeDollar, CodeExecutableComment, CodeHashComment, CodeDashComment,
		CodeBracketIdentifier, CodeBacktick, CodeMetaCommand,
		CodeMultipleStatements, CodeSyntax, CodeStatementNotAllowed,
		CodeExplainAnalyze, CodeDataModifyingCTE, CodeWriteKeyword, CodeInto,
		CodeLocking, CodeVariableAssignment, CodeFunctionNotAllowed, CodeFileAccess,
	}
}

// String is the one-line display of v: "allowed: select" or
// "rejected: code at byte N: message (+k more)".
func (v Verdict) String() string {
	if v.Allowed {
		if v.Statement == "" {
			return "allowed"
		}
		return "allowed: " + v.Statement
	}
	if len(v.Violations) == 0 {
		return "rejected"
	}
	first := v.Violations[0]
	s := fmt.Sprintf("rejected: %s at byte %d: %s", first.Code, first.Pos, first.Message)
	if n := len(v.Violations) - 1; n > 0 {
		s += fmt.Sprintf(" (+%d more)", n)
	}
	return s
}

// Err returns nil when v allows the statement, and otherwise a
// *quarry.Error of kind KindRejected whose message is the first violation.
func (v Verdict) Err() error {
	if v.Allowed {
		return nil
	}
	if len(v.Violations) == 0 {
		return quarry.Errorf(quarry.KindRejected, "the guard rejected the statement")
	}
	first := v.Violations[0]
	return quarry.Errorf(quarry.KindRejected, "the guard rejected the statement (%s at byte %d): %s", first.Code, first.Pos, first.Message)
}

// Has reports whether v has a violation with the given code.
func (v Verdict) Has(code string) bool {
	for _, x := range v.Violations {
		if x.Code == code {
			return true
		}
	}
	return false
}

// Merge combines verdicts on the same statement: the result allows only
// when every verdict allows, and carries every violation. Statement,
// Functions and HasLimit come from the first verdict that has them.
func Merge(vs ...Verdict) Verdict {
	var out Verdict
	if len(vs) == 0 {
		return out
	}
	out.Allowed = true
	for _, v := range vs {
		if out.Dialect == "" {
			out.Dialect = v.Dialect
		}
		if out.Statement == "" {
			out.Statement = v.Statement
		}
		if out.Functions == nil {
			out.Functions = v.Functions
		}
		out.HasLimit = out.HasLimit || v.HasLimit
		out.Allowed = out.Allowed && v.Allowed
		out.Violations = append(out.Violations, v.Violations...)
	}
	return out
}

// Check decides whether sql is one read-only statement that may run on
// opts.Dialect. It never panics and never touches a database.
func Check(sql string, opts Options) Verdict {
	d := normDialect(opts.Dialect)
	v := Verdict{Dialect: d}
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if len(sql) > limit {
		v.Violations = append(v.Violations, Violation{Code: CodeTooLarge, Pos: limit,
			Message: fmt.Sprintf("the statement is %d bytes, over the %d-byte limit; shorten it or raise the limit", len(sql), limit)})
		return v
	}
	if bad, pos := precheck(sql); bad != "" {
		v.Violations = append(v.Violations, precheckViolation(bad, pos, sql))
		return v
	}
	lx := lexer{src: sql, d: d, toks: make([]token, 0, 16+len(sql)/5)}
	if viol, ok := lx.run(); !ok {
		v.Violations = append(v.Violations, viol)
		return v
	}
	if len(lx.toks) == 0 {
		v.Violations = append(v.Violations, Violation{Code: CodeEmpty, Pos: 0,
			Message: "there is no statement, only whitespace or comments; write one SELECT query"})
		return v
	}
	w := walker{src: sql, d: d, toks: lx.toks, opts: &opts}
	w.run()
	v.Statement = w.kind
	v.Functions = w.funcs
	v.HasLimit = w.hasLimit
	v.Violations = w.viols
	v.Allowed = len(v.Violations) == 0
	return v
}

func normDialect(d quarry.Dialect) quarry.Dialect {
	switch quarry.Dialect(strings.ToLower(string(d))) {
	case quarry.DialectSQLite:
		return quarry.DialectSQLite
	case quarry.DialectPostgres, "postgresql", "pg":
		return quarry.DialectPostgres
	case quarry.DialectMySQL, "mariadb":
		return quarry.DialectMySQL
	case quarry.DialectDuckDB:
		return quarry.DialectDuckDB
	default:
		return quarry.DialectGeneric
	}
}
