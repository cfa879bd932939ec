package analyst

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// RowSink receives a result as it streams: the columns once, then each row.
// The row slice is only valid during the call.
type RowSink interface {
	Begin(cols []quarry.Column) error
	Row(vals []any) error
}

// RunOutcome is what Run did.
type RunOutcome struct {
	RunID     string
	Verdict   sqlguard.Verdict
	Columns   []quarry.Column
	Rows      int64
	Truncated bool
	Duration  time.Duration
	ResultID  string
}

// Run executes the user's own statement: it records the run, guards the
// SQL, and streams the rows to sink. A statement the guard rejects never
// reaches the database: Run returns a KindRejected error and the verdict in
// the outcome. Whatever happens, the run's log ends with run.finished.
func (a *Analyst) Run(ctx context.Context, rec *event.Recorder, sql string, sink RowSink) (*RunOutcome, error) {
	em := &emitter{rec: rec}
	out := &RunOutcome{RunID: rec.RunID()}
	em.emit(ctx, &event.RunStartedData{Kind: "run", SQL: sql, Connection: a.Connection, Dialect: string(a.Conn.Dialect()), PrivilegedRole: a.PrivilegedRole, PolicyOff: a.PolicyOff})
	err := a.run(ctx, em, sql, sink, out)
	if err != nil {
		em.finish(ctx, statusOf(err), err)
	} else {
		em.finish(ctx, "succeeded", nil)
	}
	if err == nil && em.err != nil {
		err = quarry.Wrap(quarry.KindInternal, em.err, "the run could not be recorded in quarry's state database")
	}
	return out, err
}

func (a *Analyst) run(ctx context.Context, em *emitter, sql string, sink RowSink, out *RunOutcome) error {
	em.emit(ctx, &event.SQLGeneratedData{SQL: sql, Source: "user"})
	v, err := a.guard(ctx, em, sql)
	out.Verdict = v
	if err != nil {
		return err
	}
	res, err := a.execute(ctx, em, out.RunID, sql, sink)
	if res != nil {
		out.Columns, out.Rows, out.Truncated, out.Duration, out.ResultID = res.cols, res.rows, res.truncated, res.dur, res.resultID
	}
	return err
}

// guard checks sql and records the verdict.
func (a *Analyst) guard(ctx context.Context, em *emitter, sql string) (sqlguard.Verdict, error) {
	v := a.Guard.Check(ctx, sql)
	em.emit(ctx, &event.GuardCheckedData{Allowed: v.Allowed, Dialect: string(v.Dialect), Violations: violations(v)})
	if !v.Allowed {
		return v, v.Err()
	}
	return v, nil
}

type execResult struct {
	cols      []quarry.Column
	rows      int64
	truncated bool
	dur       time.Duration
	resultID  string
	kept      *quarry.Table
}

// execute runs an allowed statement, streams it to sink, keeps the first
// rows for the result store, and records query.executed or query.failed.
func (a *Analyst) execute(ctx context.Context, em *emitter, runID, sql string, sink RowSink) (*execResult, error) {
	start := a.now()
	res := &execResult{}
	fail := func(err error) (*execResult, error) {
		err = queryError(ctx, err)
		res.dur = a.now().Sub(start)
		em.emit(ctx, &event.QueryFailedData{Kind: string(quarry.KindOf(err)), Message: quarry.Message(err), DurationMS: millis(res.dur)})
		return res, err
	}
	var key string
	if a.Cache != nil {
		key = resultcache.Key(a.Connection, a.Conn.Dialect(), sql, a.Limits.MaxRows)
		if t, ok := a.Cache.Get(key); ok {
			return a.replay(ctx, em, runID, t, sink)
		}
	}
	em.flush(ctx)
	rows, err := a.Conn.Query(ctx, sql, connector.QueryOptions{
		MaxRows: a.Limits.MaxRows, Timeout: a.Limits.StatementTimeout,
		MaxCost: a.Limits.MaxCost, MaxEstimatedRows: a.Limits.MaxEstimatedRows,
		MaxValueBytes: a.Limits.MaxValueBytes,
	})
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	res.cols = rows.Columns()
	if sink != nil {
		if err := sink.Begin(res.cols); err != nil {
			return fail(quarry.Wrap(quarry.KindInput, err, "cannot write the result"))
		}
	}
	keep := a.Limits.keep()
	res.kept = &quarry.Table{Columns: res.cols}
	var keptBytes int64
	for rows.Next() {
		vals := rows.Values()
		if sink != nil {
			if err := sink.Row(vals); err != nil {
				return fail(quarry.Wrap(quarry.KindInput, err, "cannot write the result"))
			}
		}
		if len(res.kept.Rows) < keep && !res.kept.Truncated {
			if a.Limits.MaxResultBytes > 0 {
				for _, v := range vals {
					keptBytes += connector.ValueSize(v)
				}
			}
			if a.Limits.MaxResultBytes > 0 && keptBytes > a.Limits.MaxResultBytes {
				res.kept.Truncated = true
			} else {
				res.kept.Rows = append(res.kept.Rows, append([]any(nil), vals...))
			}
		} else {
			res.kept.Truncated = true
		}
		res.rows++
		if res.rows&1023 == 0 && ctx.Err() != nil {
			return fail(ctx.Err())
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	if t, ok := rows.(connector.Truncator); ok && t.Truncated() {
		res.truncated = true
		res.kept.Truncated = true
	}
	res.dur = a.now().Sub(start)
	if key != "" && res.rows == int64(len(res.kept.Rows)) {
		a.Cache.Put(key, res.kept)
	}
	return res, a.record(ctx, em, runID, res, false)
}

// replay serves a cached result as if it had just been read.
func (a *Analyst) replay(ctx context.Context, em *emitter, runID string, t *quarry.Table, sink RowSink) (*execResult, error) {
	res := &execResult{cols: t.Columns, rows: int64(len(t.Rows)), truncated: t.Truncated, kept: t}
	if sink != nil {
		if err := sink.Begin(t.Columns); err != nil {
			return res, quarry.Wrap(quarry.KindInput, err, "cannot write the result")
		}
		for _, r := range t.Rows {
			if err := sink.Row(r); err != nil {
				return res, quarry.Wrap(quarry.KindInput, err, "cannot write the result")
			}
		}
	}
	return res, a.record(ctx, em, runID, res, true)
}

// record keeps the result in the store and records query.executed.
func (a *Analyst) record(ctx context.Context, em *emitter, runID string, res *execResult, cached bool) error {
	var hash string
	if a.Results != nil {
		id, h, err := a.Results.SaveResult(context.WithoutCancel(ctx), runID, res.kept)
		if err != nil {
			err = quarry.Wrap(quarry.KindInternal, err, "cannot keep the result in quarry's state database")
			em.emit(ctx, &event.QueryFailedData{Kind: string(quarry.KindOf(err)), Message: quarry.Message(err), DurationMS: millis(res.dur)})
			return err
		}
		res.resultID, hash = id, h
	}
	em.emit(ctx, &event.QueryExecutedData{
		Rows: res.rows, Truncated: res.truncated, DurationMS: millis(res.dur),
		Columns: columnNames(res.cols), ResultID: res.resultID, ResultHash: hash, Cached: cached,
	})
	return nil
}

func (a *Analyst) now() time.Time {
	if a.Clock != nil {
		return a.Clock()
	}
	return time.Now()
}

func columnNames(cols []quarry.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// Rerun re-executes the SQL of a recorded run as a new run (rec), through
// the same guard, reading the database (never the result cache) and
// keeping as many rows as the run did, so that the new run's result hash
// can be compared with the old one's.
func (a *Analyst) Rerun(ctx context.Context, rec *event.Recorder, orig event.RunState) (*RunOutcome, error) {
	if orig.SQL == "" || orig.ResultHash == "" {
		return nil, quarry.Errorf(quarry.KindInput, "run %s executed no SQL with a recorded result (status %s); there is nothing to re-execute", orig.RunID, orig.Status)
	}
	b := *a
	b.Cache = nil
	if orig.Kind == "ask" {
		b.Limits.KeepRows = askRowCap
		if b.Limits.MaxRows == 0 || b.Limits.MaxRows > askRowCap {
			b.Limits.MaxRows = askRowCap
		}
	}
	if orig.Truncated && orig.Rows > 0 {
		b.Limits.MaxRows = orig.Rows
	}
	return b.Run(ctx, rec, orig.SQL, discardRows{})
}

// RunReader reads a recorded run's state (store.State has it).
type RunReader interface {
	Run(ctx context.Context, runID string) (event.RunState, error)
}

// RerunJudged re-executes run id (any unique prefix of it) as a new run
// (rec) and judges it (export.Judge): the result hashes, the knowledge
// digest against k's, and, for a builtin planner's question, the SQL k's
// planner would run now. k may be nil (no knowledge folder).
func (a *Analyst) RerunJudged(ctx context.Context, rec *event.Recorder, runs RunReader, k *Knowledge, id string) (export.Rerun, error) {
	orig, err := runs.Run(ctx, id)
	if err != nil {
		return export.Rerun{}, err
	}
	// A statement refused or failed again is judged, not returned: the
	// verdict says what happened to it.
	if _, err := a.Rerun(ctx, rec, orig); err != nil && (quarry.KindOf(err) == quarry.KindCanceled || quarry.KindOf(err) == quarry.KindInput) {
		return export.Rerun{}, err
	}
	again, err := runs.Run(ctx, rec.RunID())
	if err != nil {
		return export.Rerun{}, err
	}
	var knowledgeNow, planNow string
	if k != nil {
		knowledgeNow = k.Hash
		if k.Planner != nil && k.Model != nil {
			planNow = export.PlanSQL(k.Planner, k.Model, orig)
		}
	}
	return export.Judge(orig, again, knowledgeNow, planNow), nil
}

// discardRows is a row sink that keeps nothing.
type discardRows struct{}

func (discardRows) Begin([]quarry.Column) error { return nil }
func (discardRows) Row([]any) error             { return nil }
