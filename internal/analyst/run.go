package analyst

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/quarry"
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
	em := NewEmitter(rec)
	out := &RunOutcome{RunID: rec.RunID()}
	em.Emit(ctx, &event.RunStartedData{Kind: "run", SQL: sql, Connection: a.Connection, Dialect: string(a.Conn.Dialect()), PrivilegedRole: a.PrivilegedRole, PolicyOff: a.PolicyOff,
		Privacy: string(a.Privacy.Or()), MinGroupSize: a.MinGroupSize})
	err := a.admitted(ctx, func() error { return a.run(ctx, em, sql, sink, out) })
	if err != nil {
		em.finish(ctx, statusOf(err), err)
	} else {
		em.finish(ctx, "succeeded", nil)
	}
	if err == nil && em.Err() != nil {
		err = quarry.Wrap(quarry.KindInternal, em.Err(), "the run could not be recorded in quarry's state database")
	}
	return out, err
}

func (a *Analyst) run(ctx context.Context, em *Emitter, sql string, sink RowSink, out *RunOutcome) error {
	x := Exec{Source: "user", Sink: sink}
	if a.Approval != nil {
		x.Approval, x.Interpretation = a.Approval, "SQL sent as it is, not a defined metric: read the SQL to check it"
	}
	res, err := a.Exec(ctx, em, sql, x)
	out.Verdict = res.Verdict
	if res.Table != nil {
		out.Columns, out.Rows, out.Truncated, out.Duration, out.ResultID = res.Columns, res.Rows, res.Truncated, res.Duration, res.ResultID
	}
	return err
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
	if orig.PolicyOff && orig.SQL != "" {
		// quarry run --no-policy keeps no result and records no hash, on
		// purpose: there is nothing to compare a new run with.
		return nil, quarry.Errorf(quarry.KindInput, "run %s ran with --no-policy, so its result was deliberately not kept and there is no result hash to compare with; run the statement again with quarry run instead", orig.RunID)
	}
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
			planNow = export.PlanSQL(plannerNow{ctx, k}, k.Model, orig)
		}
	}
	return export.Judge(orig, again, knowledgeNow, planNow), nil
}

// discardRows is a row sink that keeps nothing.
type discardRows struct{}

func (discardRows) Begin([]quarry.Column) error { return nil }
func (discardRows) Row([]any) error             { return nil }
