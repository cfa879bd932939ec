package mysqlparse

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	// The parser needs a driver for literal values. test_driver is the
	// parser module's own, and importing it registers it (through the
	// module's init), which is the library's documented way.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Rule codes of the MySQL engine check, in addition to sqlguard's.
const (
	// CodeSQLMode: the server's sql_mode makes the text read differently
	// from what the guard assumes; every statement is refused.
	CodeSQLMode = "sql_mode"
	// CodeConstruct: the tree holds a construct the guard does not know
	// to be read-only.
	CodeConstruct = "construct_not_allowed"
	// CodeUnchecked: the check could not run to the end (cancelled, or the
	// parser failed internally). Callers must treat it as a rejection.
	CodeUnchecked = "engine_unchecked"
)

// Checker parses statements with the MySQL grammar in one sql_mode and
// decides whether each is a single read-only query. It is safe for
// concurrent use: parsers (which are not) are pooled inside it.
type Checker struct {
	sqlMode string
	mode    mysql.SQLMode
	refusal error // non-nil: the mode is not supported and every statement is refused
	parsers sync.Pool
}

// New returns a Checker that reads statements the way a server whose
// sql_mode is sqlMode does (the value of SELECT @@sql_mode; DefaultSQLMode
// until it is known). A mode the guard cannot follow (NO_BACKSLASH_ESCAPES,
// ANSI_QUOTES, a combination that implies them, a name it does not know)
// gives a Checker that refuses every statement; Err says why.
func New(sqlMode string) *Checker {
	c := &Checker{sqlMode: sqlMode}
	c.mode, c.refusal = parseMode(sqlMode)
	c.parsers.New = func() any {
		p := parser.New()
		p.SetSQLMode(c.mode)
		return p
	}
	return c
}

// Err returns why the Checker refuses every statement, or nil when it
// checks them.
func (c *Checker) Err() error { return c.refusal }

// SQLMode returns the sql_mode the Checker was made for.
func (c *Checker) SQLMode() string { return c.sqlMode }

// Check decides whether sql is exactly one read-only query under the
// MySQL grammar. Function calls are matched against opts's allow-list for
// the mysql dialect (opts.Dialect is ignored). It never panics.
func (c *Checker) Check(ctx context.Context, sql string, opts sqlguard.Options) (v sqlguard.Verdict) {
	v = sqlguard.Verdict{Dialect: quarry.DialectMySQL}
	opts.Dialect = quarry.DialectMySQL
	if c.refusal != nil {
		return reject(v, CodeSQLMode, 0, c.refusal.Error())
	}
	if err := ctx.Err(); err != nil {
		return reject(v, CodeUnchecked, 0, "the MySQL check was cancelled before it ran ("+err.Error()+"); run the statement again")
	}
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = sqlguard.DefaultMaxBytes
	}
	if len(sql) > limit {
		return reject(v, sqlguard.CodeTooLarge, limit, fmt.Sprintf("the statement is %d bytes, over the %d-byte limit; shorten it or raise the limit", len(sql), limit))
	}
	p := c.parsers.Get().(*parser.Parser)
	defer func() {
		if r := recover(); r != nil {
			// The parser failed internally; drop it rather than reuse it.
			v = reject(sqlguard.Verdict{Dialect: quarry.DialectMySQL}, CodeUnchecked, 0,
				fmt.Sprintf("the MySQL parser failed on this statement (%v); rewrite it as a plain SELECT", r))
			return
		}
		c.parsers.Put(p)
	}()
	text, jts := rewriteJSONTables(sql)
	stmts, _, err := p.ParseSQL(text)
	if err != nil {
		if alt, ok := blankTreeFormat(text); ok {
			// MySQL's EXPLAIN FORMAT=TREE, which the parser does not know:
			// the same statement without the format, at the same offsets.
			if stmts2, _, err2 := p.ParseSQL(alt); err2 == nil {
				stmts, err = stmts2, nil
			}
		}
	}
	if err != nil {
		if toks, ok := sqlguard.Tokenize(sql, quarry.DialectMySQL); ok && len(toks) > 0 && toks[0].Kind == sqlguard.TokenWord && strings.EqualFold(toks[0].Text, "ANALYZE") {
			return reject(v, sqlguard.CodeStatementNotAllowed, toks[0].Pos, "ANALYZE is not a query: MariaDB's ANALYZE <statement> runs the statement, and ANALYZE TABLE writes statistics; use plain EXPLAIN")
		}
		return reject(v, sqlguard.CodeSyntax, errorPos(sql, err), "the MySQL grammar cannot parse the statement ("+strings.TrimSpace(err.Error())+"); fix the syntax, or write it as one plain SELECT")
	}
	switch len(stmts) {
	case 0:
		return reject(v, sqlguard.CodeEmpty, 0, "there is no statement, only whitespace or comments; write one SELECT query")
	case 1:
	default:
		return reject(v, sqlguard.CodeMultipleStatements, secondStatement(sql, stmts),
			fmt.Sprintf("the text holds %d statements; send exactly one SELECT query", len(stmts)))
	}
	w := walker{src: sql, opts: &opts}
	for _, jt := range jts {
		w.function("json_table", "", jt.pos)
	}
	v.Statement = w.top(stmts[0])
	v.Functions = w.funcs
	v.HasLimit = w.hasLimit
	v.Violations = w.viols
	v.Allowed = len(v.Violations) == 0
	return v
}

func reject(v sqlguard.Verdict, code string, pos int, msg string) sqlguard.Verdict {
	v.Allowed = false
	v.Violations = append(v.Violations, sqlguard.Violation{Code: code, Pos: pos, Message: msg})
	return v
}

// errorPos returns the byte offset of the parser's error: where the text
// it quotes after "near" starts, or the end of the text when it quotes
// nothing, or 0 when the message has no such part.
func errorPos(sql string, err error) int {
	msg := err.Error()
	i := strings.Index(msg, `near "`)
	if i < 0 {
		return 0
	}
	near := msg[i+len(`near "`):]
	j := strings.LastIndexByte(near, '"')
	if j < 0 {
		return 0
	}
	near = near[:j]
	if near == "" {
		return len(sql)
	}
	if k := strings.LastIndex(sql, near); k >= 0 {
		return k
	}
	return 0
}

// secondStatement returns the byte offset where the second statement's
// text starts, or 0 when it cannot be found.
func secondStatement(sql string, stmts []ast.StmtNode) int {
	first := stmts[0].OriginalText()
	start := strings.Index(sql, first)
	if start < 0 {
		return 0
	}
	rest := start + len(first)
	second := strings.TrimLeft(stmts[1].OriginalText(), " \t\r\n")
	if i := strings.Index(sql[rest:], second); i >= 0 && second != "" {
		return rest + i
	}
	return 0
}

// blankTreeFormat returns sql with the FORMAT=TREE of a leading
// EXPLAIN/DESCRIBE replaced by spaces, when the explained statement starts
// right after it with SELECT, WITH, TABLE, VALUES or a parenthesis.
func blankTreeFormat(sql string) (string, bool) {
	toks, ok := sqlguard.Tokenize(sql, quarry.DialectMySQL)
	if !ok || len(toks) < 5 {
		return "", false
	}
	word := func(i int, ws ...string) bool {
		if toks[i].Kind != sqlguard.TokenWord {
			return false
		}
		for _, w := range ws {
			if strings.EqualFold(toks[i].Text, w) {
				return true
			}
		}
		return false
	}
	if !word(0, "EXPLAIN", "DESCRIBE", "DESC") || !word(1, "FORMAT") ||
		toks[2].Kind != sqlguard.TokenOp || toks[2].Text != "=" || !word(3, "TREE") {
		return "", false
	}
	if !word(4, "SELECT", "WITH", "TABLE", "VALUES") && (toks[4].Kind != sqlguard.TokenOp || toks[4].Text != "(") {
		return "", false
	}
	start, end := toks[1].Pos, toks[3].Pos+len(toks[3].Text)
	return sql[:start] + strings.Repeat(" ", end-start) + sql[end:], true
}
