//go:build duckdb

package duckdb

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Query runs one statement and streams its rows. The layers, beneath the
// read-only, locked database instance:
//
//   - the string must hold exactly one statement, prepared on its own
//     (nothing in it runs before the checks);
//   - DuckDB must classify it as a SELECT; anything else is refused with
//     KindRejected, including what a read-only database still allows in
//     memory (temporary tables and macros, PRAGMA, SET VARIABLE, PREPARE);
//   - with opts.MaxEstimatedRows, EXPLAIN (FORMAT JSON) of the statement,
//     refused with KindTooCostly when the largest Estimated Cardinality of
//     any plan node is over the ceiling. DuckDB exposes no cost figure, so
//     opts.MaxCost does not apply: the timeout and the memory limit bound
//     what a query can spend;
//   - opts.Timeout (and ctx) interrupt the statement inside DuckDB;
//   - opts.MaxRows applied while reading (the Rows implement
//     connector.Truncator).
//
// DuckDB computes the whole result before the first row arrives, within
// the memory limit set at Open. The Rows must be closed.
func (c *Conn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if strings.TrimSpace(sql) == "" {
		return nil, quarry.Errorf(quarry.KindInput, "the statement is empty; write one SELECT statement")
	}
	if err := c.acquire(); err != nil {
		return nil, err
	}
	qctx, cancel := context.WithCancel(ctx)
	if opts.Timeout > 0 {
		cancel()
		qctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	fail := func(err error) (quarry.Rows, error) {
		cancel()
		c.release()
		return nil, err
	}
	if err := qctx.Err(); err != nil {
		return fail(ctxError(qctx, err, opts.Timeout))
	}
	st, err := c.prepareSelect(sql)
	if err != nil {
		return fail(c.queryError(qctx, err, opts.Timeout))
	}
	if opts.MaxEstimatedRows > 0 {
		if err := c.explain(qctx, sql, opts.MaxEstimatedRows); err != nil {
			st.Close()
			return fail(c.queryError(qctx, err, opts.Timeout))
		}
	}
	dr, err := st.QueryContext(qctx, nil)
	if err != nil {
		st.Close()
		return fail(c.queryError(qctx, err, opts.Timeout))
	}
	r := &rows{c: c, st: st, dr: dr, ctx: qctx, cancel: cancel, timeout: opts.Timeout, maxRows: opts.MaxRows, size: connector.NewSizeLimit(opts)}
	r.start()
	return r, nil
}

// prepareSelect prepares sql as one statement and refuses it unless it is
// a SELECT.
func (c *Conn) prepareSelect(sql string) (*duckdb.Stmt, error) {
	st, err := c.prepare(sql)
	if err != nil {
		return nil, err
	}
	typ, err := st.StatementType()
	if err != nil {
		st.Close()
		return nil, err
	}
	if typ != duckdb.STATEMENT_TYPE_SELECT {
		st.Close()
		return nil, quarry.Errorf(quarry.KindRejected, "DuckDB reads this as a %s statement; quarry runs only SELECT statements on DuckDB", statementName(typ))
	}
	return st, nil
}

// statementName names a statement type for messages.
func statementName(t duckdb.StmtType) string {
	names := map[duckdb.StmtType]string{
		duckdb.STATEMENT_TYPE_INSERT: "INSERT", duckdb.STATEMENT_TYPE_UPDATE: "UPDATE", duckdb.STATEMENT_TYPE_DELETE: "DELETE",
		duckdb.STATEMENT_TYPE_EXPLAIN: "EXPLAIN", duckdb.STATEMENT_TYPE_PREPARE: "PREPARE", duckdb.STATEMENT_TYPE_CREATE: "CREATE",
		duckdb.STATEMENT_TYPE_EXECUTE: "EXECUTE", duckdb.STATEMENT_TYPE_ALTER: "ALTER", duckdb.STATEMENT_TYPE_TRANSACTION: "transaction",
		duckdb.STATEMENT_TYPE_COPY: "COPY", duckdb.STATEMENT_TYPE_ANALYZE: "ANALYZE", duckdb.STATEMENT_TYPE_VARIABLE_SET: "SET VARIABLE",
		duckdb.STATEMENT_TYPE_CREATE_FUNC: "CREATE FUNCTION", duckdb.STATEMENT_TYPE_DROP: "DROP", duckdb.STATEMENT_TYPE_EXPORT: "EXPORT",
		duckdb.STATEMENT_TYPE_PRAGMA: "PRAGMA", duckdb.STATEMENT_TYPE_VACUUM: "VACUUM", duckdb.STATEMENT_TYPE_CALL: "CALL",
		duckdb.STATEMENT_TYPE_SET: "SET", duckdb.STATEMENT_TYPE_LOAD: "LOAD", duckdb.STATEMENT_TYPE_EXTENSION: "extension",
		duckdb.STATEMENT_TYPE_ATTACH: "ATTACH", duckdb.STATEMENT_TYPE_DETACH: "DETACH", duckdb.STATEMENT_TYPE_MULTI: "multi-statement",
	}
	if n, ok := names[t]; ok {
		return n
	}
	return "non-SELECT"
}

// explain refuses the statement when DuckDB's largest row estimate of any
// plan node is over maxRows. The statement follows "EXPLAIN (FORMAT
// JSON)" on a line of its own and nothing is appended after it.
func (c *Conn) explain(ctx context.Context, sql string, maxRows int64) error {
	st, err := c.prepare("EXPLAIN (FORMAT JSON)\n" + sql)
	if err != nil {
		return err
	}
	defer st.Close()
	if typ, err := st.StatementType(); err != nil || typ != duckdb.STATEMENT_TYPE_EXPLAIN {
		return quarry.Errorf(quarry.KindRejected, "DuckDB does not read the statement as one EXPLAIN-able SELECT; write one SELECT statement")
	}
	dr, err := st.QueryContext(ctx, nil)
	if err != nil {
		return err
	}
	defer dr.Close()
	row := make([]driver.Value, len(dr.Columns()))
	var est float64
	found := false
	for {
		if err := dr.Next(row); err != nil {
			if err == io.EOF {
				break
			}
			return err
		}
		s, _ := row[len(row)-1].(string)
		var nodes []planNode
		if err := json.Unmarshal([]byte(s), &nodes); err != nil {
			return quarry.Errorf(quarry.KindInternal, "cannot read DuckDB's EXPLAIN output; run the query without limits.max_estimated_rows")
		}
		for _, n := range nodes {
			if m, ok := n.maxRows(); ok {
				est, found = max(est, m), true
			}
		}
	}
	if found && est > float64(maxRows) {
		return quarry.Errorf(quarry.KindTooCostly, "estimated %s rows > limits.max_estimated_rows %s; add filters or a LIMIT, or raise the limit",
			groupDigits(est), groupDigits(float64(maxRows)))
	}
	return nil
}

// planNode is one node of DuckDB's EXPLAIN (FORMAT JSON).
type planNode struct {
	Name      string         `json:"name"`
	Children  []planNode     `json:"children"`
	ExtraInfo map[string]any `json:"extra_info"`
}

// maxRows is the largest row estimate of n and its descendants: the rows
// the query handles at its widest step, not only those it returns. A node
// without an Estimated Cardinality (DuckDB leaves it off cross products)
// is estimated from its children: their product for a cross product or a
// nested-loop join, else the largest of them.
func (n planNode) maxRows() (float64, bool) {
	own, found := n.estimate()
	m := own
	for _, c := range n.Children {
		if cm, ok := c.maxRows(); ok {
			m, found = max(m, cm), true
		}
	}
	return m, found
}

// estimate is the node's own output estimate.
func (n planNode) estimate() (float64, bool) {
	if v, ok := n.ExtraInfo["Estimated Cardinality"]; ok {
		if f, err := strconv.ParseFloat(fmt.Sprint(v), 64); err == nil {
			return f, true
		}
	}
	product := strings.Contains(n.Name, "CROSS_PRODUCT") || strings.Contains(n.Name, "NESTED_LOOP") || strings.Contains(n.Name, "BLOCKWISE_NL")
	est, found := 0.0, false
	if product {
		est = 1
	}
	for _, c := range n.Children {
		ce, ok := c.estimate()
		if !ok {
			continue
		}
		found = true
		if product {
			est *= ce
		} else {
			est = max(est, ce)
		}
	}
	return est, found
}

// groupDigits formats a non-negative number rounded to an integer with
// thousands separators: 12000000 → "12,000,000".
func groupDigits(f float64) string {
	s := strconv.FormatFloat(f, 'f', 0, 64)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

// queryError maps a failure of a statement to a quarry error with one
// line of DuckDB's message.
func (c *Conn) queryError(ctx context.Context, err error, timeout time.Duration) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	if ctx.Err() != nil {
		return ctxError(ctx, err, timeout)
	}
	msg := duckMessage(err)
	var de *duckdb.Error
	if errors.As(err, &de) {
		switch de.Type {
		case duckdb.ErrorTypeInterrupt:
			return quarry.Wrap(quarry.KindCanceled, err, "the query was interrupted")
		case duckdb.ErrorTypeOutOfMemory:
			return quarry.Wrap(quarry.KindTooCostly, err, "DuckDB ran out of its memory limit; narrow the query (filters, LIMIT, fewer columns) or raise the memory limit")
		case duckdb.ErrorTypePermission:
			return quarry.Wrap(quarry.KindRejected, err, "DuckDB refused it: %s; quarry reads only the database file itself", msg)
		case duckdb.ErrorTypeInvalidInput:
			if strings.Contains(msg, "read-only mode") || strings.Contains(msg, "configuration has been locked") {
				return quarry.Wrap(quarry.KindRejected, err, "DuckDB refused it: %s; quarry runs only SELECT statements", msg)
			}
		}
	}
	switch s := err.Error(); {
	case strings.Contains(s, "multi-statement query"):
		return quarry.Wrap(quarry.KindRejected, err, "the text holds more than one statement; send exactly one SELECT statement")
	case strings.Contains(s, "empty query"):
		return quarry.Wrap(quarry.KindInput, err, "the statement is empty; write one SELECT statement")
	}
	return quarry.Wrap(quarry.KindQuery, err, "DuckDB: %s", msg)
}

// rows streams one query's result. It implements quarry.Rows and
// connector.Truncator.
type rows struct {
	c       *Conn
	st      *duckdb.Stmt
	dr      driver.Rows
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration

	cols []quarry.Column
	conv []converter
	raw  []driver.Value
	vals []any

	maxRows   int64
	size      connector.SizeLimit // opts.MaxValueBytes and MaxResultBytes
	n         int64
	truncated bool
	done      bool
	err       error
}

var (
	_ quarry.Rows         = (*rows)(nil)
	_ connector.Truncator = (*rows)(nil)
)

func (r *rows) start() {
	names := r.dr.Columns()
	typed, _ := r.dr.(driver.RowsColumnTypeDatabaseTypeName)
	r.cols = make([]quarry.Column, len(names))
	r.conv = make([]converter, len(names))
	r.raw = make([]driver.Value, len(names))
	r.vals = make([]any, len(names))
	for i, name := range names {
		dbType := ""
		if typed != nil {
			dbType = typed.ColumnTypeDatabaseTypeName(i)
		}
		t, conv := columnType(dbType)
		r.cols[i] = quarry.Column{Name: name, Type: t, DBType: dbType}
		r.conv[i] = conv
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
	if err := r.ctx.Err(); err != nil {
		r.err = ctxError(r.ctx, err, r.timeout)
		r.finish()
		return false
	}
	if err := r.dr.Next(r.raw); err != nil {
		if err != io.EOF {
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
	for i, v := range r.raw {
		if v == nil {
			r.vals[i] = nil
			continue
		}
		cv, err := r.conv[i](v)
		if err != nil {
			r.err = quarry.Wrap(quarry.KindQuery, err, "cannot read column %s (%s); cast it to VARCHAR in the query", r.cols[i].Name, r.cols[i].DBType)
			r.finish()
			return false
		}
		r.vals[i] = cv
	}
	r.n++
	return true
}

// Close ends the stream and frees the result.
func (r *rows) Close() error {
	r.finish()
	return nil
}

func (r *rows) finish() {
	if r.done {
		return
	}
	r.done = true
	r.dr.Close()
	r.st.Close()
	r.cancel()
	r.c.release()
}
