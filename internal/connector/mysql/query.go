package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strconv"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// killTimeout bounds the KILL QUERY sent when a query is canceled.
const killTimeout = 5 * time.Second

// Query runs one statement that the guard has allowed and streams its rows.
//
// A statement that does not begin with SELECT, WITH, VALUES, TABLE,
// EXPLAIN, DESCRIBE or SHOW is refused before it reaches the server
// (checkLeadingKeyword). Each call then takes a fresh session and, in
// order: checks that the session's sql_mode is still one the guard can
// read; sets the
// server's statement timeout (max_statement_time on MariaDB,
// max_execution_time on MySQL) to opts.Timeout or the time left before
// ctx's deadline, whichever is sooner; begins START TRANSACTION READ ONLY;
// runs the cost governor when opts.MaxCost or opts.MaxEstimatedRows is set
// (EXPLAIN, never ANALYZE, refused over a ceiling with KindTooCostly); and
// runs the statement with the text protocol, one statement only. When the
// Rows end or are closed the transaction is rolled back and the session is
// discarded, not returned to the pool: session variables are not
// transactional, and neither are user variables, named locks or temporary
// tables, so no session outlives its statement.
//
// opts.MaxRows caps the rows read (the Rows implement connector.Truncator).
// When the cap is reached, the Rows are closed early, or ctx is canceled or
// times out, the connector closes the session's socket and sends KILL QUERY
// for it from another session, so the server stops working at once. A
// timeout is KindTimeout and a cancellation KindCanceled.
func (c *Conn) Query(ctx context.Context, sqlText string, opts connector.QueryOptions) (quarry.Rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, opts.Timeout)
	}
	if err := checkLeadingKeyword(sqlText); err != nil {
		return nil, err
	}
	qctx, cancel := context.WithCancel(ctx)
	if opts.Timeout > 0 {
		qctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	r := &rows{c: c, ctx: qctx, cancel: cancel, timeout: opts.Timeout, maxRows: opts.MaxRows, size: connector.NewSizeLimit(opts)}
	if err := r.open(sqlText, opts); err != nil {
		r.finish()
		return nil, err
	}
	return r, nil
}

// rows streams the result of one statement in its own session. It
// implements quarry.Rows and connector.Truncator.
type rows struct {
	c       *Conn
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration

	conn      *sql.Conn
	tx        *sql.Tx
	rs        *sql.Rows
	stop      chan struct{} // closed when the statement ended by itself
	watchDone chan struct{} // closed when the cancel watcher has returned

	cols []quarry.Column
	conv []converter
	raw  []any // the driver's values of the current row
	scan []any // pointers into raw
	vals []any // the current row, converted

	maxRows   int64
	size      connector.SizeLimit // opts.MaxValueBytes and MaxResultBytes
	n         int64
	truncated bool
	exhausted bool // the server sent the whole result
	done      bool
	err       error
}

var (
	_ quarry.Rows         = (*rows)(nil)
	_ connector.Truncator = (*rows)(nil)
)

// open takes a session, prepares it and starts the statement.
func (r *rows) open(sqlText string, opts connector.QueryOptions) error {
	c := r.c
	cctx, ccancel := context.WithTimeout(r.ctx, c.dialTimeout+5*time.Second)
	conn, err := c.db.Conn(cctx)
	ccancel()
	if err != nil {
		if r.ctx.Err() != nil {
			return ctxError(r.ctx, err, r.timeout)
		}
		return c.connectError(r.ctx, err)
	}
	r.conn = conn

	var id int64
	var mode string
	if err := conn.QueryRowContext(r.ctx, "SELECT CONNECTION_ID(), @@SESSION.sql_mode").Scan(&id, &mode); err != nil {
		return r.mapError(err)
	}
	if err := c.checkSQLMode(mode); err != nil {
		return err
	}
	r.watch(id)

	if limit := statementTimeout(r.ctx, r.timeout); limit > 0 {
		if _, err := conn.ExecContext(r.ctx, c.timeoutSQL(limit)); err != nil {
			return r.mapError(err)
		}
	}
	tx, err := conn.BeginTx(r.ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return r.mapError(err)
	}
	r.tx = tx
	if (opts.MaxCost > 0 || opts.MaxEstimatedRows > 0) && governed(sqlText) {
		if err := r.govern(sqlText, opts); err != nil {
			return err
		}
	}
	rs, err := tx.QueryContext(r.ctx, sqlText)
	if err != nil {
		return r.mapError(err)
	}
	r.rs = rs
	types, err := rs.ColumnTypes()
	if err != nil {
		return r.mapError(err)
	}
	n := len(types)
	r.cols = make([]quarry.Column, n)
	r.conv = make([]converter, n)
	r.raw = make([]any, n)
	r.scan = make([]any, n)
	r.vals = make([]any, n)
	wire := wireFields(rs, n)
	for i, ct := range types {
		db := ct.DatabaseTypeName()
		t := resultType(db, wire[i], c.isJSONColumn(ct.Name()))
		r.cols[i] = quarry.Column{Name: ct.Name(), Type: t, DBType: db}
		r.conv[i] = converterFor(t)
		r.scan[i] = &r.raw[i]
	}
	return nil
}

// statementTimeout is the server-side limit: the query's timeout or the
// time left before ctx's deadline, whichever is sooner; 0 means none.
func statementTimeout(ctx context.Context, timeout time.Duration) time.Duration {
	limit := timeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); limit <= 0 || left < limit {
			limit = left
		}
	}
	if limit > 0 && limit < time.Millisecond {
		limit = time.Millisecond
	}
	return limit
}

// timeoutSQL sets the session's statement timeout: seconds on MariaDB,
// milliseconds on MySQL.
func (c *Conn) timeoutSQL(d time.Duration) string {
	if c.flavor == FlavorMariaDB {
		return "SET SESSION max_statement_time = " + strconv.FormatFloat(d.Seconds(), 'f', 6, 64)
	}
	ms := (d + time.Millisecond - 1) / time.Millisecond
	return "SET SESSION max_execution_time = " + strconv.FormatInt(int64(ms), 10)
}

// watch kills the session's running statement on the server when the
// query's context ends before the statement does.
func (r *rows) watch(id int64) {
	r.stop = make(chan struct{})
	r.watchDone = make(chan struct{})
	go func() {
		defer close(r.watchDone)
		select {
		case <-r.ctx.Done():
			r.c.killQuery(id)
		case <-r.stop:
		}
	}()
}

// killQuery stops session id's running statement from another session.
// The account may always kill its own sessions. Errors are ignored: the
// statement may have ended meanwhile, and its session is discarded anyway.
func (c *Conn) killQuery(id int64) {
	ctx, cancel := context.WithTimeout(context.Background(), killTimeout)
	defer cancel()
	_, _ = c.db.ExecContext(ctx, "KILL QUERY "+itoa(id))
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
		if r.rs.Next() {
			r.truncated = true
		} else {
			r.end()
		}
		r.finish()
		return false
	}
	if !r.rs.Next() {
		r.end()
		r.finish()
		return false
	}
	if err := r.rs.Scan(r.scan...); err != nil {
		r.err = r.mapError(err)
		r.finish()
		return false
	}
	for i, v := range r.raw {
		r.vals[i] = r.conv[i](v)
		r.raw[i] = nil
	}
	r.n++
	return true
}

// end records how the result ended: fully read, or with an error.
func (r *rows) end() {
	if err := r.rs.Err(); err != nil {
		r.err = r.mapError(err)
		return
	}
	r.exhausted = true
}

// Close ends the stream; a statement still running is stopped on the
// server.
func (r *rows) Close() error {
	r.finish()
	return nil
}

// finish stops the statement if it is still running, rolls back, and
// discards the session. It is idempotent.
func (r *rows) finish() {
	if r.done {
		return
	}
	r.done = true
	// The statement still runs on the server when the context ended or
	// when the stream stopped before the server sent everything.
	if r.ctx.Err() != nil || r.rs != nil && !r.exhausted && r.err == nil {
		r.cancel() // closes the socket; the watcher kills the statement
	} else if r.stop != nil {
		close(r.stop) // nothing left to kill
	}
	if r.rs != nil {
		r.rs.Close()
	}
	if r.tx != nil {
		_ = r.tx.Rollback()
	}
	if r.watchDone != nil {
		<-r.watchDone
	}
	if r.conn != nil {
		_ = r.conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = r.conn.Close()
	}
	r.cancel()
	r.raw, r.scan = nil, nil
}

// mapError maps an error during the query to a quarry error.
func (r *rows) mapError(err error) error {
	if r.ctx.Err() != nil {
		return ctxError(r.ctx, err, r.timeout)
	}
	return r.c.queryError(err)
}

// queryError maps the server's or the driver's error for a query.
func (c *Conn) queryError(err error) error {
	var me *gomysql.MySQLError
	var ne net.Error
	switch {
	case errors.As(err, &me):
		msg := c.serverName() + " " + strconv.Itoa(int(me.Number)) + ": " + oneLine(me.Message)
		switch me.Number {
		case 1969, 3024:
			return quarry.Errorf(quarry.KindTimeout, "the server stopped the query at its statement timeout (%s); narrow it (filters, LIMIT) or raise the timeout", msg)
		case 1792:
			return quarry.Errorf(quarry.KindRejected, "the statement tries to write, which quarry's read-only transaction refuses (%s); quarry runs only read-only SELECT statements", msg)
		case 1142, 1143, 1227, 1044, 1370, 1045:
			return quarry.Errorf(quarry.KindForbidden, "%s; quarry's account lacks this privilege (it should hold SELECT only)", msg)
		case 1317:
			return quarry.Errorf(quarry.KindQuery, "%s; the query was killed on the server by another session, run it again", msg)
		}
		return quarry.Errorf(quarry.KindQuery, "%s", msg)
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, gomysql.ErrInvalidConn),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &ne):
		return quarry.Errorf(quarry.KindConnection, "the connection to %s was lost during the query; check that the server is up and run it again", c.target)
	}
	return quarry.Wrap(quarry.KindQuery, err, "the query failed on %s", c.target)
}

// ctxError maps a finished context to KindTimeout or KindCanceled.
func ctxError(ctx context.Context, cause error, timeout time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		if timeout > 0 {
			return quarry.Wrap(quarry.KindTimeout, cause, "the query ran longer than its %s timeout; narrow it (filters, LIMIT) or raise the timeout", timeout.String())
		}
		return quarry.Wrap(quarry.KindTimeout, cause, "the query ran out of time; narrow it (filters, LIMIT) or raise the timeout")
	}
	return quarry.Wrap(quarry.KindCanceled, cause, "the query was canceled")
}
