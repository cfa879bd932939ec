package sqlite

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// lookAhead is the most rows Query reads ahead to type the columns that
// have no declared type and were NULL in the rows before. It bounds the
// memory a query holds beyond the current row.
const lookAhead = 64

// Query runs one read-only statement and streams its rows. Whatever the
// caller checked before, Query itself refuses (KindRejected, nothing
// executed) a statement that the authorizer denies, that leaves anything
// but whitespace or comments after the first statement, or that SQLite
// does not report as read-only.
//
// opts.Timeout (or ctx's deadline) bounds the whole read, from prepare to
// the last row: when it passes, the next row fails with KindTimeout; a
// canceled ctx fails with KindCanceled. opts.MaxRows caps the rows read;
// the returned Rows implements connector.Truncator.
//
// The Rows must be closed (or read to the end) before the connection runs
// anything else.
func (c *Conn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	qctx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		qctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	c.db.SetInterrupt(qctx)
	r := &rows{c: c, ctx: qctx, cancel: cancel, timeout: opts.Timeout, maxRows: opts.MaxRows, size: connector.NewSizeLimit(opts)}
	if err := qctx.Err(); err != nil {
		r.finish()
		return nil, ctxError(qctx, err, opts.Timeout)
	}
	stmt, err := c.prepareOne(qctx, sql, opts.Timeout)
	if err != nil {
		r.finish()
		return nil, err
	}
	r.stmt = stmt
	if err := r.start(); err != nil {
		r.finish()
		return nil, err
	}
	return r, nil
}

// prepareOne compiles sql and refuses anything that is not exactly one
// read-only statement.
func (c *Conn) prepareOne(ctx context.Context, sql string, timeout time.Duration) (*sqlite3.Stmt, error) {
	c.auth.denied, c.auth.restricted = "", ""
	stmt, tail, err := c.db.Prepare(sql)
	if err != nil {
		return nil, c.prepareError(ctx, err, timeout)
	}
	if stmt == nil {
		return nil, quarry.Errorf(quarry.KindInput, "the statement is empty; write one SELECT statement")
	}
	if strings.TrimSpace(tail) != "" {
		next, _, err := c.db.Prepare(tail)
		if next != nil || err != nil {
			next.Close()
			stmt.Close()
			return nil, quarry.Errorf(quarry.KindRejected, "only one statement may run; remove everything after the first statement")
		}
	}
	if !stmt.ReadOnly() {
		stmt.Close()
		return nil, quarry.Errorf(quarry.KindRejected, "SQLite reports that this statement writes; quarry runs only read-only SELECT statements")
	}
	ref, err := c.programReads(sql)
	if err != nil {
		stmt.Close()
		return nil, quarry.Wrap(quarry.KindForbidden, err, "quarry could not read the statement's compiled program to check the column policy, so it does not run; try again")
	}
	if ref != nil {
		stmt.Close()
		c.auth.restricted = ref.col
		return nil, ref.error()
	}
	return stmt, nil
}

func (c *Conn) prepareError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case ctx.Err() != nil:
		return ctxError(ctx, err, timeout)
	case c.auth.restricted != "":
		return &quarry.Error{Kind: quarry.KindForbidden, Msg: "not allowed: " + c.auth.denied + "; it cannot be selected, filtered, joined on, sorted or grouped by — leave it out (list the columns you need instead of *)", Err: err}
	case c.auth.denied != "" || errors.Is(err, sqlite3.AUTH):
		what := c.auth.denied
		if what == "" {
			what = "this statement"
		}
		return &quarry.Error{Kind: quarry.KindRejected, Msg: "not allowed: " + what + "; quarry runs only read-only SELECT statements with allow-listed functions", Err: err}
	case errors.Is(err, sqlite3.TOOBIG):
		return &quarry.Error{Kind: quarry.KindRejected, Msg: "the statement is too long; shorten it", Err: err}
	}
	return queryError(err)
}

// queryError is a database error with SQLite's own message.
func queryError(err error) error {
	return &quarry.Error{Kind: quarry.KindQuery, Msg: "SQLite: " + sqliteMessage(err)}
}

// rows streams the result of one statement. It implements quarry.Rows and
// connector.Truncator.
type rows struct {
	c       *Conn
	stmt    *sqlite3.Stmt
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration

	cols  []quarry.Column
	bools []int   // indexes of TypeBool columns, whose 0/1 become bool
	buf   []any   // reused for each streamed row
	vals  []any   // the current row
	ahead [][]any // rows read ahead to type columns

	maxRows   int64
	size      connector.SizeLimit // opts.MaxValueBytes and MaxResultBytes
	n         int64
	truncated bool
	exhausted bool // the statement has no more rows
	done      bool
	err       error
}

var (
	_ quarry.Rows         = (*rows)(nil)
	_ connector.Truncator = (*rows)(nil)
)

// start types the columns: from the declared type where there is one, else
// from the storage class of the first non-NULL value within lookAhead rows.
func (r *rows) start() error {
	n := r.stmt.ColumnCount()
	r.cols = make([]quarry.Column, n)
	r.buf = make([]any, n)
	var untyped []int
	for i := range n {
		decl := r.stmt.ColumnDeclType(i)
		r.cols[i] = quarry.Column{Name: r.stmt.ColumnName(i), Type: TypeOf(decl), DBType: decl}
		if decl == "" {
			untyped = append(untyped, i)
		}
	}
	for len(untyped) > 0 && len(r.ahead) < lookAhead && (r.maxRows <= 0 || int64(len(r.ahead)) < r.maxRows) {
		if !r.stmt.Step() {
			if err := r.stmt.Err(); err != nil {
				return r.stepError(err)
			}
			r.exhausted = true // stepping again would restart the statement
			break
		}
		row := make([]any, n)
		if err := r.stmt.Columns(row...); err != nil {
			return r.stepError(err)
		}
		r.ahead = append(r.ahead, row)
		kept := untyped[:0]
		for _, i := range untyped {
			if t := valueType(row[i]); t != quarry.TypeUnknown {
				r.cols[i].Type = t
			} else {
				kept = append(kept, i)
			}
		}
		untyped = kept
	}
	for i, col := range r.cols {
		if col.Type == quarry.TypeBool {
			r.bools = append(r.bools, i)
		}
	}
	for _, row := range r.ahead {
		r.convert(row)
	}
	return nil
}

func (r *rows) convert(row []any) {
	for _, i := range r.bools {
		if v, ok := row[i].(int64); ok && (v == 0 || v == 1) {
			row[i] = v == 1
		}
	}
}

func (r *rows) Columns() []quarry.Column { return r.cols }

func (r *rows) Values() []any { return r.vals }

func (r *rows) Err() error { return r.err }

// Truncated reports whether MaxRows stopped the stream before its end.
func (r *rows) Truncated() bool { return r.truncated }

// Next reads the next row and checks it against the size limits.
func (r *rows) Next() bool {
	if !r.next() {
		return false
	}
	if err := r.size.Row(r.cols, r.vals); err != nil {
		r.err = err
		r.finish()
		return false
	}
	return true
}

func (r *rows) next() bool {
	if r.done {
		return false
	}
	if r.maxRows > 0 && r.n >= r.maxRows {
		switch {
		case len(r.ahead) > 0 || !r.exhausted && r.stmt.Step():
			r.truncated = true
		case r.stmt.Err() != nil:
			r.err = r.stepError(r.stmt.Err())
		}
		r.finish()
		return false
	}
	if len(r.ahead) > 0 {
		r.vals = r.ahead[0]
		r.ahead[0] = nil
		r.ahead = r.ahead[1:]
		r.n++
		return true
	}
	if r.exhausted || !r.stmt.Step() {
		if err := r.stmt.Err(); err != nil {
			r.err = r.stepError(err)
		}
		r.finish()
		return false
	}
	// The driver appends a BLOB into the []byte it finds in its slot:
	// left there, the last row's blob would be overwritten, under any
	// caller that kept that row (a result kept in the state, an MCP
	// answer). Each row gets new ones.
	clear(r.buf)
	if err := r.stmt.Columns(r.buf...); err != nil {
		r.err = r.stepError(err)
		r.finish()
		return false
	}
	r.convert(r.buf)
	r.vals = r.buf
	r.n++
	return true
}

func (r *rows) stepError(err error) error {
	if r.ctx.Err() != nil {
		return ctxError(r.ctx, err, r.timeout)
	}
	if r.c.auth.denied != "" || errors.Is(err, sqlite3.AUTH) {
		// The authorizer refused an action the statement takes only
		// while it runs (a table-valued pragma's own PRAGMA).
		return r.c.prepareError(r.ctx, err, r.timeout)
	}
	return queryError(err)
}

// Close ends the stream and frees the connection for the next statement.
func (r *rows) Close() error {
	r.finish()
	return nil
}

func (r *rows) finish() {
	if r.done {
		return
	}
	r.done = true
	r.ahead = nil
	if r.stmt != nil {
		r.stmt.Close()
	}
	r.cancel()
	r.c.db.SetInterrupt(context.Background())
	r.c.release()
}

// TypeOf maps a declared SQLite column type to a quarry type, following
// SQLite's affinity rules with names for dates, times, booleans and JSON:
// DATETIME and TIMESTAMP are TypeTimestamp, DATE is TypeDate, TIME is
// TypeTime, BOOL(EAN) is TypeBool, JSON is TypeJSON; then INT → TypeInt;
// CHAR, CLOB, TEXT → TypeText; BLOB → TypeBytes; REAL, FLOA, DOUB →
// TypeFloat; any other name (NUMERIC, DECIMAL, …) → TypeFloat. An empty
// declared type is TypeUnknown.
func TypeOf(decl string) quarry.Type {
	d := strings.ToUpper(strings.TrimSpace(decl))
	if i := strings.IndexByte(d, '('); i >= 0 {
		d = strings.TrimSpace(d[:i])
	}
	switch {
	case d == "":
		return quarry.TypeUnknown
	case strings.Contains(d, "DATETIME"), strings.Contains(d, "TIMESTAMP"):
		return quarry.TypeTimestamp
	case strings.Contains(d, "DATE"):
		return quarry.TypeDate
	case d == "TIME":
		return quarry.TypeTime
	case strings.HasPrefix(d, "BOOL"):
		return quarry.TypeBool
	case d == "JSON":
		return quarry.TypeJSON
	case strings.Contains(d, "INT"):
		return quarry.TypeInt
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return quarry.TypeText
	case strings.Contains(d, "BLOB"):
		return quarry.TypeBytes
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return quarry.TypeFloat
	}
	return quarry.TypeFloat
}

// valueType is the quarry type of a value's storage class. Text that is
// an ISO-8601 date ("2026-06-30") or date and time ("2026-06-30 12:00:00",
// "2026-06-30T12:00:00.5Z") is TypeDate or TypeTimestamp, so that
// expressions such as date(ordered_at) keep their meaning.
func valueType(v any) quarry.Type {
	switch x := v.(type) {
	case int64:
		return quarry.TypeInt
	case float64:
		return quarry.TypeFloat
	case string:
		return textType(x)
	case []byte:
		return quarry.TypeBytes
	}
	return quarry.TypeUnknown
}

// textType recognises ISO-8601 dates and timestamps in SQLite's formats.
func textType(s string) quarry.Type {
	digits := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	if len(s) < 10 || !digits(s[0:4]) || s[4] != '-' || !digits(s[5:7]) || s[7] != '-' || !digits(s[8:10]) {
		return quarry.TypeText
	}
	if len(s) == 10 {
		return quarry.TypeDate
	}
	rest := s[10:]
	if len(rest) < 6 || (rest[0] != ' ' && rest[0] != 'T') || !digits(rest[1:3]) || rest[3] != ':' || !digits(rest[4:6]) {
		return quarry.TypeText
	}
	rest = rest[6:]
	if len(rest) >= 3 && rest[0] == ':' && digits(rest[1:3]) {
		rest = rest[3:]
		if len(rest) >= 2 && rest[0] == '.' {
			i := 1
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == 1 {
				return quarry.TypeText
			}
			rest = rest[i:]
		}
	}
	switch {
	case rest == "", rest == "Z":
		return quarry.TypeTimestamp
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && digits(rest[1:3]) && rest[3] == ':' && digits(rest[4:6]):
		return quarry.TypeTimestamp
	}
	return quarry.TypeText
}
