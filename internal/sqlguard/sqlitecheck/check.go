package sqlitecheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Engine rule codes, in addition to the codes of sqlguard.
const (
	CodeEngineError       = "engine_error"               // SQLite cannot prepare the statement
	CodeEngineDenied      = "engine_denied"              // the authorizer refused an action
	CodeEngineNotReadOnly = "engine_not_readonly"        // sqlite3_stmt_readonly is false
	CodeEngineMultiple    = "engine_multiple_statements" // SQLite found more than one statement
	CodeEngineNoResult    = "engine_no_result"           // the statement returns no columns
	CodeEngineSchema      = "engine_other_schema"        // a table in another schema or database
	// CodeEngineUnchecked means the engine check could not run to the end
	// (the schema could not be synthesised within the bound, or the check
	// was cancelled). Callers must treat it as a rejection: the statement
	// has not been shown to be read-only.
	CodeEngineUnchecked = "engine_unchecked"
)

// Codes lists the engine rule codes, for documentation and display.
func Codes() []string {
	return []string{CodeEngineError, CodeEngineDenied, CodeEngineNotReadOnly, CodeEngineMultiple,
		CodeEngineNoResult, CodeEngineSchema, CodeEngineUnchecked}
}

// MaxSynthesis bounds the prepare attempts of Checker.Check while it
// synthesises tables and columns.
const MaxSynthesis = 64

// Checker holds an in-memory SQLite database (no files) in which it
// prepares statements to get SQLite's own verdict. Because the user's
// schema is not there, it creates the tables and columns a statement names
// as SQLite reports them missing, then drops them again. A Checker is safe
// for concurrent use; checks are serialised.
type Checker struct {
	mu   sync.Mutex
	conn *sqlite3.Conn
	// State of the check in progress, read by the authorizer.
	ddl    bool // the checker's own schema statements are running
	opts   sqlguard.Options
	denied []Denial
}

// New opens the checker's in-memory database.
func New() (*Checker, error) {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "open the in-memory SQLite database for the guard")
	}
	c := &Checker{conn: conn}
	auth := Authorizer(func(name string) bool { return c.opts.AllowsFunction(name) }, func(d Denial) { c.denied = append(c.denied, d) })
	err = conn.SetAuthorizer(func(action sqlite3.AuthorizerActionCode, n3, n4, schema, inner string) sqlite3.AuthorizerReturnCode {
		if c.ddl {
			return sqlite3.AUTH_OK
		}
		return auth(action, n3, n4, schema, inner)
	})
	if err != nil {
		conn.Close()
		return nil, quarry.Wrap(quarry.KindInternal, err, "install the guard's SQLite authorizer")
	}
	return c, nil
}

// Close releases the in-memory database.
func (c *Checker) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}

// Guard returns the combined SQLite verdict: sqlguard.Check and, when that
// allows the statement, the engine verdict of Check. opts.Dialect is set
// to SQLite.
func (c *Checker) Guard(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	opts.Dialect = quarry.DialectSQLite
	lex := sqlguard.Check(sql, opts)
	if !lex.Allowed {
		return lex
	}
	return Combine(lex, c.Check(ctx, sql, opts))
}

// Combine merges the lexical and the engine verdict on one statement: it
// allows only when both allow.
func Combine(lexical, engine sqlguard.Verdict) sqlguard.Verdict {
	return sqlguard.Merge(lexical, engine)
}

// Check returns SQLite's own verdict on sql, against a schema synthesised
// from the names the statement uses. It prepares the statement (never
// steps it) under the authorizer, requires exactly one statement, a
// read-only one (sqlite3_stmt_readonly) that returns columns, and no table
// outside the main schema.
func (c *Checker) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := sqlguard.Verdict{Dialect: quarry.DialectSQLite}
	if c.conn == nil {
		return reject(v, CodeEngineUnchecked, 0, "the engine check is closed; the statement was not checked")
	}
	opts.Dialect = quarry.DialectSQLite
	c.opts = opts
	c.denied = nil
	old := c.conn.SetInterrupt(ctx)
	s := &synth{c: c, sql: sql}
	defer func() {
		c.conn.SetInterrupt(old)
		s.dropAll()
	}()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return reject(v, CodeEngineUnchecked, 0, "the engine check was cancelled before it finished; treat the statement as rejected")
		}
		if attempt >= MaxSynthesis {
			return reject(v, CodeEngineUnchecked, 0, fmt.Sprintf("the engine check could not build a schema for the statement in %d attempts; treat it as rejected, or check it against the real database", MaxSynthesis))
		}
		c.denied = nil
		stmt, tail, err := c.conn.Prepare(sql)
		if err == nil {
			defer stmt.Close()
			return c.judge(v, stmt, tail)
		}
		if len(c.denied) > 0 {
			return denied(v, c.denied)
		}
		msg := errText(err)
		handled, verdict := s.repair(msg)
		if verdict != nil {
			v.Violations = verdict
			return v
		}
		if !handled {
			if ctx.Err() != nil {
				return reject(v, CodeEngineUnchecked, 0, "the engine check was cancelled before it finished; treat the statement as rejected")
			}
			if strings.Contains(msg, "ambiguous column name") {
				return reject(v, CodeEngineUnchecked, 0, "SQLite reports "+msg+" against the synthesised schema; qualify the column with its table")
			}
			return reject(v, CodeEngineError, 0, "SQLite cannot prepare the statement ("+msg+"); fix the SQL")
		}
	}
}

// judge applies the checks on a prepared statement.
func (c *Checker) judge(v sqlguard.Verdict, stmt *sqlite3.Stmt, tail string) sqlguard.Verdict {
	if strings.TrimSpace(tail) != "" {
		s2, _, err := c.conn.Prepare(tail)
		if s2 != nil {
			s2.Close()
			return reject(v, CodeEngineMultiple, len(stmt.SQL())-len(tail), "SQLite reads more than one statement; send exactly one")
		}
		if err != nil {
			return reject(v, CodeEngineMultiple, len(stmt.SQL())-len(tail), "SQLite cannot read the text after the statement ("+errText(err)+"); send exactly one statement")
		}
	}
	if len(c.denied) > 0 {
		return denied(v, c.denied)
	}
	if !stmt.ReadOnly() {
		return reject(v, CodeEngineNotReadOnly, 0, "SQLite reports that the statement writes; send a query that only reads")
	}
	if stmt.ColumnCount() == 0 {
		return reject(v, CodeEngineNoResult, 0, "the statement returns no result columns, so it is not a query; send a SELECT")
	}
	v.Allowed = true
	return v
}

// CheckWithConn returns SQLite's verdict on sql using conn, a read-only
// connection whose schema is the real one: no schema is synthesised. It
// installs Authorizer(opts.AllowsFunction, nil) on conn and leaves it
// installed, so execution on conn runs under the same policy.
func CheckWithConn(ctx context.Context, conn *sqlite3.Conn, sql string, opts sqlguard.Options) sqlguard.Verdict {
	stmt, v := Prepare(ctx, conn, sql, opts)
	if stmt != nil {
		stmt.Close()
	}
	return v
}

// Prepare is CheckWithConn that hands back the prepared statement when the
// verdict allows it, so the caller runs exactly the statement that was
// checked. The caller closes the statement. On rejection the statement is nil.
func Prepare(ctx context.Context, conn *sqlite3.Conn, sql string, opts sqlguard.Options) (*sqlite3.Stmt, sqlguard.Verdict) {
	v := sqlguard.Verdict{Dialect: quarry.DialectSQLite}
	opts.Dialect = quarry.DialectSQLite
	var seen []Denial
	if err := conn.SetAuthorizer(Authorizer(opts.AllowsFunction, func(d Denial) { seen = append(seen, d) })); err != nil {
		return nil, reject(v, CodeEngineUnchecked, 0, "could not install the SQLite authorizer; the statement was not checked")
	}
	defer conn.SetAuthorizer(Authorizer(opts.AllowsFunction, nil))
	old := conn.SetInterrupt(ctx)
	defer conn.SetInterrupt(old)
	stmt, tail, err := conn.Prepare(sql)
	if err != nil {
		if len(seen) > 0 {
			return nil, denied(v, seen)
		}
		if ctx.Err() != nil {
			return nil, reject(v, CodeEngineUnchecked, 0, "the engine check was cancelled before it finished; treat the statement as rejected")
		}
		msg := errText(err)
		if stmt == nil && strings.Contains(msg, "no such table: ") {
			name := msg[strings.Index(msg, "no such table: ")+len("no such table: "):]
			if strings.Contains(name, ".") && !strings.HasPrefix(strings.ToLower(name), "main.") {
				return nil, reject(v, CodeEngineSchema, 0, "the statement names "+name+" in another schema or database; query only the main database")
			}
		}
		return nil, reject(v, CodeEngineError, 0, "SQLite cannot prepare the statement ("+msg+"); fix the SQL")
	}
	if stmt == nil {
		return nil, reject(v, sqlguard.CodeEmpty, 0, "there is no statement, only whitespace or comments; write one SELECT query")
	}
	c := &Checker{conn: conn}
	c.denied = seen
	out := c.judge(v, stmt, tail)
	if !out.Allowed {
		stmt.Close()
		return nil, out
	}
	return stmt, out
}

func reject(v sqlguard.Verdict, code string, pos int, msg string) sqlguard.Verdict {
	v.Allowed = false
	v.Violations = append(v.Violations, sqlguard.Violation{Code: code, Pos: pos, Message: msg})
	return v
}

func denied(v sqlguard.Verdict, ds []Denial) sqlguard.Verdict {
	var names []string
	for _, d := range ds {
		names = append(names, d.String())
	}
	return reject(v, CodeEngineDenied, 0, "SQLite's authorizer refused "+strings.Join(names, ", ")+"; quarry allows only reading tables and calling allow-listed functions")
}

// errText returns the SQLite message of err without the driver prefix.
func errText(err error) string {
	var e *sqlite3.Error
	msg := err.Error()
	if errors.As(err, &e) {
		msg = e.Error()
	}
	if i := strings.LastIndex(msg, "error: "); i >= 0 && strings.HasPrefix(msg, "sqlite3: ") {
		return msg[i+len("error: "):]
	}
	return strings.TrimPrefix(msg, "sqlite3: ")
}
