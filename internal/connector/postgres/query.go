package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Query runs one statement in a READ ONLY transaction and streams its
// rows. The layers, in order:
//
//   - BEGIN READ ONLY (pgx.TxOptions), then the executor's own settings,
//     parameterised and local to the transaction: statement_timeout
//     (opts.Timeout, else what is left of ctx's deadline),
//     idle_in_transaction_session_timeout, work_mem and, where the role
//     may set it, temp_file_limit; and a check that
//     transaction_read_only is on (a pooler or proxy that drops it makes
//     the query fail with KindConnection);
//   - with opts.MaxCost or opts.MaxEstimatedRows, EXPLAIN (FORMAT JSON) of
//     the statement in the same transaction, refused with KindTooCostly
//     when the estimate is over a ceiling;
//   - the statement itself over the extended protocol (a string with two
//     statements is refused by the server);
//   - opts.MaxRows applied while reading (the Rows implement
//     connector.Truncator);
//   - ROLLBACK, never COMMIT, then DISCARD ALL, which also releases
//     advisory locks; a connection on which anything failed, or whose
//     query was stopped early, is closed instead of reused.
//
// Canceling ctx, or the timeout passing, stops the query on the server.
// The Rows must be closed.
func (c *Conn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if strings.TrimSpace(sql) == "" {
		return nil, quarry.Errorf(quarry.KindInput, "the statement is empty; write one SELECT statement")
	}
	stmtTimeout := opts.Timeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); stmtTimeout <= 0 || left < stmtTimeout {
			stmtTimeout = max(left, time.Millisecond)
		}
	}
	// The query's own context: canceling it stops the query on the server.
	qctx, cancel := context.WithCancel(ctx)
	if opts.Timeout > 0 {
		cancel()
		// A backstop: the server's statement_timeout normally fires first.
		qctx, cancel = context.WithTimeout(ctx, opts.Timeout+cancelGrace)
	}
	t, err := c.begin(qctx, stmtTimeout, opts.Role)
	if err != nil {
		cancel()
		return nil, c.queryError(qctx, err, opts.Timeout)
	}
	fail := func(err error) (quarry.Rows, error) {
		err = c.queryError(qctx, err, opts.Timeout)
		c.end(t, true)
		cancel()
		return nil, err
	}
	if opts.MaxCost > 0 || opts.MaxEstimatedRows > 0 {
		if err := c.explain(qctx, t.tx, sql, opts); err != nil {
			return fail(err)
		}
	}
	pr, err := t.tx.Query(qctx, sql, c.formats)
	if err != nil {
		pr.Close()
		return fail(err)
	}
	r := &rows{c: c, t: t, pr: pr, ctx: qctx, cancel: cancel, timeout: opts.Timeout, maxRows: opts.MaxRows, size: connector.NewSizeLimit(opts)}
	if err := r.start(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// txn is one pooled connection inside a READ ONLY transaction.
type txn struct {
	pc *pgxpool.Conn
	tx pgx.Tx
}

// begin takes a connection, starts the READ ONLY transaction and applies
// the executor's settings. A reused connection that fails to begin is
// replaced by a fresh one, once.
func (c *Conn) begin(ctx context.Context, stmtTimeout time.Duration, role string) (*txn, error) {
	for attempt := 0; ; attempt++ {
		pc, err := c.pool.acquire(ctx)
		if err != nil {
			return nil, c.connectError(ctx, err)
		}
		tx, err := pc.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
		if err != nil {
			c.pool.release(pc, false)
			if attempt == 0 && ctx.Err() == nil {
				continue
			}
			return nil, err
		}
		t := &txn{pc: pc, tx: tx}
		if err := c.settings(ctx, tx, stmtTimeout, role); err != nil {
			c.end(t, true)
			return nil, err
		}
		return t, nil
	}
}

// settings sets the transaction's limits with set_config(..., true), the
// function form of SET LOCAL, from values the executor formats itself,
// and checks that the transaction is read-only.
func (c *Conn) settings(ctx context.Context, tx pgx.Tx, stmtTimeout time.Duration, role string) error {
	var timeout *string
	idle := idleInTx
	if stmtTimeout > 0 {
		ms := strconv.FormatInt(max(stmtTimeout.Milliseconds(), 1), 10)
		timeout = &ms
		idle += stmtTimeout
	}
	var readOnly, conforming string
	err := tx.QueryRow(ctx, `SELECT
		set_config('statement_timeout', coalesce($1::text, current_setting('statement_timeout')), true),
		set_config('idle_in_transaction_session_timeout', $2::text, true),
		set_config('work_mem', $3::text, true),
		CASE WHEN $4::text <> '' THEN set_config('temp_file_limit', $4::text, true) END,
		current_setting('transaction_read_only'),
		current_setting('standard_conforming_strings')`,
		timeout, strconv.FormatInt(idle.Milliseconds(), 10), c.workMem, c.tempFileLimit).Scan(nil, nil, nil, nil, &readOnly, &conforming)
	if err != nil {
		return err
	}
	if role != "" {
		// SET LOCAL ROLE, as a function: it ends with the transaction,
		// and the guard refuses set_config in a statement, so the
		// statement cannot set it back.
		if _, err := tx.Exec(ctx, `SELECT set_config('role', $1, true)`, role); err != nil {
			return quarry.Wrap(quarry.KindConnection, err, "PostgreSQL at %s would not let quarry read as role %s (%v); grant it to quarry's role (GRANT %s TO …) or fix group_roles in quarry.yaml", c.target, role, pgMessage(err), role)
		}
	}
	if readOnly != "on" {
		return quarry.Errorf(quarry.KindConnection, "PostgreSQL at %s did not start a read-only transaction (transaction_read_only is %s); connect quarry to the server directly, not through a pooler or proxy that changes transactions", c.target, readOnly)
	}
	// The guard reads string literals the way PostgreSQL does with
	// standard_conforming_strings on (backslashes are plain characters);
	// with it off, the server would read the same text differently.
	if conforming != "on" {
		return quarry.Errorf(quarry.KindConnection, "PostgreSQL at %s has standard_conforming_strings off; quarry's guard reads SQL text with it on, so it will not run queries there (set it on for quarry's role: ALTER ROLE … SET standard_conforming_strings = on)", c.target)
	}
	return nil
}

// end rolls the transaction back and resets the session; the connection
// goes back to the pool only when all of that worked and discard is false.
func (c *Conn) end(t *txn, discard bool) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	ok := !discard && !t.pc.Conn().IsClosed()
	if err := t.tx.Rollback(ctx); err != nil {
		ok = false
	}
	if ok {
		// DISCARD ALL includes pg_advisory_unlock_all(): advisory locks
		// outlive ROLLBACK. It also drops prepared statements, temporary
		// tables, LISTEN registrations and session settings.
		if _, err := t.pc.Exec(ctx, "DISCARD ALL"); err != nil {
			ok = false
		}
	}
	c.pool.release(t.pc, ok)
}

// explain refuses the statement when the planner's estimate is over a
// ceiling: the top node's Total Cost against opts.MaxCost, the largest
// Plan Rows of any node against opts.MaxEstimatedRows. The statement text follows "EXPLAIN (FORMAT JSON)" on a line
// of its own and nothing is appended after it, so a trailing comment in
// it cannot swallow anything.
func (c *Conn) explain(ctx context.Context, tx pgx.Tx, sql string, opts connector.QueryOptions) error {
	p, err := plan(ctx, tx, sql)
	if err != nil {
		if firstWord(sql) == "EXPLAIN" {
			return &quarry.Error{Kind: quarry.KindRejected, Msg: "an EXPLAIN statement cannot be checked against the cost ceiling; run the query itself, or run EXPLAIN without limits.max_cost and limits.max_estimated_rows", Err: err}
		}
		return err
	}
	if opts.MaxEstimatedRows > 0 && p.PlanRows > float64(opts.MaxEstimatedRows) {
		return quarry.Errorf(quarry.KindTooCostly, "estimated %s rows > limits.max_estimated_rows %s; add filters or a LIMIT, or raise the limit",
			groupDigits(p.PlanRows), groupDigits(float64(opts.MaxEstimatedRows)))
	}
	if opts.MaxCost > 0 && p.TotalCost > opts.MaxCost {
		return quarry.Errorf(quarry.KindTooCostly, "estimated cost %s > limits.max_cost %s; add filters or a LIMIT, or raise the limit",
			groupDigits(p.TotalCost), groupDigits(opts.MaxCost))
	}
	return nil
}

// plan is the top node of the statement's plan (EXPLAIN (FORMAT JSON),
// never ANALYZE) with PlanRows the largest row estimate of any node.
func plan(ctx context.Context, tx pgx.Tx, sql string) (planNode, error) {
	var raw []byte
	if err := tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON)\n"+sql).Scan(&raw); err != nil {
		return planNode{}, err
	}
	var out []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || len(out) != 1 {
		return planNode{}, quarry.Errorf(quarry.KindInternal, "cannot read PostgreSQL's EXPLAIN output; run the query without a cost ceiling")
	}
	p := out[0].Plan
	p.PlanRows = p.maxRows()
	return p, nil
}

// estimateTimeout bounds Estimate's EXPLAIN.
const estimateTimeout = 30 * time.Second

// Estimate is the planner's estimate of a statement, without running it:
// EXPLAIN (FORMAT JSON) in a READ ONLY transaction with the executor's
// settings, rolled back as Query's are. It implements
// connector.Estimator.
func (c *Conn) Estimate(ctx context.Context, sql string) (connector.Estimate, error) {
	if strings.TrimSpace(sql) == "" {
		return connector.Estimate{}, quarry.Errorf(quarry.KindInput, "the statement is empty; write one SELECT statement")
	}
	ctx, cancel := context.WithTimeout(ctx, estimateTimeout)
	defer cancel()
	t, err := c.begin(ctx, estimateTimeout, "")
	if err != nil {
		return connector.Estimate{}, c.queryError(ctx, err, estimateTimeout)
	}
	p, err := plan(ctx, t.tx, sql)
	c.end(t, err != nil)
	if err != nil {
		return connector.Estimate{}, c.queryError(ctx, err, estimateTimeout)
	}
	return connector.Estimate{Cost: p.TotalCost, Rows: p.PlanRows}, nil
}

// firstWord is the first keyword of sql in upper case, past white space
// and comments.
func firstWord(sql string) string {
	for {
		sql = strings.TrimLeft(sql, " \t\r\n\f")
		switch {
		case strings.HasPrefix(sql, "--"):
			i := strings.IndexByte(sql, '\n')
			if i < 0 {
				return ""
			}
			sql = sql[i+1:]
		case strings.HasPrefix(sql, "/*"):
			i := strings.Index(sql, "*/")
			if i < 0 {
				return ""
			}
			sql = sql[i+2:]
		default:
			end := strings.IndexFunc(sql, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
			})
			if end < 0 {
				end = len(sql)
			}
			return strings.ToUpper(sql[:end])
		}
	}
}

// planNode is one node of EXPLAIN (FORMAT JSON).
type planNode struct {
	TotalCost float64    `json:"Total Cost"`
	PlanRows  float64    `json:"Plan Rows"`
	Plans     []planNode `json:"Plans"`
}

// maxRows is the largest row estimate of any node: the rows the query
// handles at its widest step, not only those it returns (count(*) over a
// cross join returns one row).
func (n planNode) maxRows() float64 {
	m := n.PlanRows
	for _, c := range n.Plans {
		m = max(m, c.maxRows())
	}
	return m
}

// groupDigits formats a non-negative number rounded to an integer with
// thousands separators: 12000000 → "12,000,000".
func groupDigits(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// rows streams one query's result. It implements quarry.Rows and
// connector.Truncator.
type rows struct {
	c       *Conn
	t       *txn
	pr      pgx.Rows
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration

	cols []quarry.Column
	dec  []decoder
	vals []any

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

func (r *rows) start() error {
	fields := r.pr.FieldDescriptions()
	tm := r.t.pc.Conn().TypeMap()
	r.cols = make([]quarry.Column, len(fields))
	r.dec = make([]decoder, len(fields))
	r.vals = make([]any, len(fields))
	for i, f := range fields {
		typ, name, dec := columnType(tm, f.DataTypeOID, f.Format)
		r.cols[i] = quarry.Column{Name: f.Name, Type: typ, DBType: name}
		r.dec[i] = dec
	}
	return nil
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
	if err := r.ctx.Err(); err != nil {
		r.err = r.c.queryError(r.ctx, err, r.timeout)
		r.finish()
		return false
	}
	if !r.pr.Next() {
		r.exhausted = true
		if err := r.pr.Err(); err != nil {
			r.err = r.c.queryError(r.ctx, err, r.timeout)
		}
		r.finish()
		return false
	}
	if r.maxRows > 0 && r.n >= r.maxRows {
		r.truncated = true
		r.finish()
		return false
	}
	raw := r.pr.RawValues()
	for i, b := range raw {
		if b == nil {
			r.vals[i] = nil
			continue
		}
		v, err := r.dec[i](b)
		if err != nil {
			r.err = quarry.Wrap(quarry.KindQuery, err, "cannot read column %s (%s); cast it to text in the query", r.cols[i].Name, r.cols[i].DBType)
			r.finish()
			return false
		}
		r.vals[i] = v
	}
	r.n++
	return true
}

// Close ends the stream: a query still running is canceled on the
// server, the transaction rolled back and the connection released.
func (r *rows) Close() error {
	r.finish()
	return nil
}

func (r *rows) finish() {
	if r.done {
		return
	}
	r.done = true
	stopped := r.err != nil
	if !r.exhausted {
		// A short result may already be here: read on for a moment. Past
		// that, stop the server rather than drain the rest: the cancel
		// request goes out, and the socket deadline follows.
		timer := time.AfterFunc(drainWait, r.cancel)
		ended := false
		for i := 0; i < drainRows; i++ {
			if !r.pr.Next() {
				ended = true
				break
			}
		}
		if fired := !timer.Stop(); fired || !ended {
			r.stop()
			stopped = true
		}
	}
	r.pr.Close()
	r.cancel()
	// A stopped query's cancel request can race with the next statement
	// on the same session, so that connection is not reused.
	r.c.end(r.t, stopped || r.pr.Err() != nil)
}

// stop ends a query the reader no longer wants: a cancel request stops
// it on the server, then the socket is closed, so that nothing waits for
// rows already on their way. The connection is not reused.
func (r *rows) stop() {
	r.cancel()
	pgc := r.t.pc.Conn().PgConn()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		ctx, cancel := context.WithTimeout(context.Background(), cancelGrace)
		defer cancel()
		_ = pgc.CancelRequest(ctx)
	}()
	// Wait a little for the request to go out before the socket closes;
	// a backend blocked sending rows also stops when the socket does.
	select {
	case <-sent:
	case <-time.After(drainWait):
	}
	_ = pgc.Conn().Close()
}

// How much of a result Close reads before it cancels the query instead.
const (
	drainWait = 20 * time.Millisecond
	drainRows = 1000
)
