//go:build cgo

package pgparse

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Available reports whether this build has PostgreSQL's parser. It is true
// in builds with cgo; without cgo, Check is the lexer-only fallback.
func Available() bool { return true }

// Check returns PostgreSQL's verdict on sql: allowed only when the parser
// reads exactly one statement that is a query, or an EXPLAIN of a query
// without ANALYZE, and nothing anywhere in its tree can write, lock, change
// settings or call a function off the allow-list. opts.Dialect is taken to
// be PostgreSQL. Check is pure and safe for concurrent use.
func Check(sql string, opts sqlguard.Options) sqlguard.Verdict {
	opts.Dialect = quarry.DialectPostgres
	v := sqlguard.Verdict{Dialect: quarry.DialectPostgres}
	if bad, ok := precheck(sql, opts); !ok {
		v.Violations = []sqlguard.Violation{bad}
		return v
	}
	if bad, ok := complexity(sql); !ok {
		v.Violations = []sqlguard.Violation{bad}
		return v
	}
	tree, err := pg_query.Parse(sql)
	if err != nil {
		v.Violations = []sqlguard.Violation{syntaxViolation(sql, err)}
		return v
	}
	switch len(tree.Stmts) {
	case 0:
		v.Violations = []sqlguard.Violation{{Code: sqlguard.CodeEmpty, Pos: 0,
			Message: "PostgreSQL reads no statement, only whitespace or comments; write one SELECT query"}}
		return v
	case 1:
	default:
		pos := skipSpace(sql, int(tree.Stmts[1].GetStmtLocation()))
		v.Violations = []sqlguard.Violation{{Code: sqlguard.CodeMultipleStatements, Pos: pos,
			Message: fmt.Sprintf("PostgreSQL reads %d statements; send exactly one SELECT, without a second statement after a semicolon", len(tree.Stmts))}}
		return v
	}
	w := newWalker(sql, &opts)
	w.top(tree.Stmts[0])
	w.fields()
	w.placeLocks()
	sort.SliceStable(w.viols, func(i, j int) bool { return w.viols[i].Pos < w.viols[j].Pos })
	v.Statement = w.kind
	v.Functions = w.funcs
	v.HasLimit = w.hasLimit
	v.Violations = w.viols
	v.Allowed = len(w.viols) == 0
	return v
}

// precheck applies the limits the parser cannot: size, UTF-8 and NUL
// (libpg_query reads a C string and would stop at the first NUL).
func precheck(sql string, opts sqlguard.Options) (sqlguard.Violation, bool) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = sqlguard.DefaultMaxBytes
	}
	if len(sql) > limit {
		return sqlguard.Violation{Code: sqlguard.CodeTooLarge, Pos: limit,
			Message: fmt.Sprintf("the statement is %d bytes, over the %d-byte limit; shorten it or raise the limit", len(sql), limit)}, false
	}
	if i := strings.IndexByte(sql, 0); i >= 0 {
		return sqlguard.Violation{Code: sqlguard.CodeNUL, Pos: i,
			Message: "the statement contains a NUL byte, after which PostgreSQL's parser would stop reading; remove it"}, false
	}
	if !utf8.ValidString(sql) {
		pos := 0
		for i, r := range sql {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRuneInString(sql[i:]); size <= 1 {
					pos = i
					break
				}
			}
		}
		return sqlguard.Violation{Code: sqlguard.CodeEncoding, Pos: pos,
			Message: "the statement is not valid UTF-8; send it as UTF-8 text"}, false
	}
	return sqlguard.Violation{}, true
}

// MaxOperators bounds the operators, keywords and opening parentheses of
// a statement. PostgreSQL's parser builds a tree one level deeper for each
// link of a chain of binary operators, casts, joins or set operations, and
// libpg_query walks that tree recursively in C: around 25,000 levels
// overflow an 8 MB thread stack and kill the whole process (fewer on a
// smaller stack). Statements over the bound are rejected before parsing.
const MaxOperators = 4000

// scanFrom is the size below which a statement cannot hold more than
// MaxOperators tokens of two bytes or more (such as "+1"), so it is not
// scanned for them.
const scanFrom = 2 * MaxOperators

// complexity rejects statements that could make the parser recurse too
// deep. It counts every token except identifiers, constants, commas,
// dots, brackets, closing parentheses, semicolons and comments, which
// never deepen the tree.
func complexity(sql string) (sqlguard.Violation, bool) {
	if len(sql) < scanFrom {
		return sqlguard.Violation{}, true
	}
	res, err := pg_query.Scan(sql)
	if err != nil {
		return sqlguard.Violation{}, true // Parse reports the error
	}
	n := 0
	for _, t := range res.GetTokens() {
		switch t.GetToken() {
		case pg_query.Token_IDENT, pg_query.Token_UIDENT, pg_query.Token_FCONST, pg_query.Token_SCONST,
			pg_query.Token_USCONST, pg_query.Token_BCONST, pg_query.Token_XCONST, pg_query.Token_ICONST,
			pg_query.Token_PARAM, pg_query.Token_ASCII_44, pg_query.Token_ASCII_46, pg_query.Token_ASCII_91,
			pg_query.Token_ASCII_93, pg_query.Token_ASCII_41, pg_query.Token_ASCII_59,
			pg_query.Token_SQL_COMMENT, pg_query.Token_C_COMMENT:
			continue
		}
		if n++; n > MaxOperators {
			return sqlguard.Violation{Code: sqlguard.CodeTooLarge, Pos: int(t.GetStart()),
				Message: fmt.Sprintf("the statement has more than %d operators, keywords and parentheses, more than the guard lets PostgreSQL's parser nest; split or simplify it", MaxOperators)}, false
		}
	}
	return sqlguard.Violation{}, true
}

// syntaxViolation turns a parse error into a verdict, with the engine's
// message and its position converted from characters to bytes.
func syntaxViolation(sql string, err error) sqlguard.Violation {
	var pe *parser.Error
	pos := 0
	if errors.As(err, &pe) && pe.Cursorpos > 0 {
		pos = charToByte(sql, pe.Cursorpos-1)
	}
	return sqlguard.Violation{Code: sqlguard.CodeSyntax, Pos: pos,
		Message: fmt.Sprintf("PostgreSQL cannot parse the statement: %s; fix the syntax", err.Error())}
}

// charToByte converts a 0-based character index into a byte offset.
func charToByte(s string, chars int) int {
	n := 0
	for i := range s {
		if n == chars {
			return i
		}
		n++
	}
	return len(s)
}

// skipSpace returns the offset of the first byte at or after pos that is
// not ASCII white space.
func skipSpace(s string, pos int) int {
	for pos >= 0 && pos < len(s) && strings.IndexByte(" \t\n\r\f\v", s[pos]) >= 0 {
		pos++
	}
	return max(min(pos, len(s)), 0)
}
