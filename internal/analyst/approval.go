package analyst

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Approval mode (docs/approval.md). A statement a language model proposed
// waits, after the guard allowed it and before it reaches the database,
// for a person's decision: Exec records approval.requested, makes the log
// durable, and polls the run's own log until an approval.decided names
// the statement (Decide writes it, on whichever replica the person used)
// or the wait's deadline passes, when the run itself records the refusal.
// Both writers append at the log's next sequence number, so the store's
// uniqueness of (run, seq) lets exactly one decision in.

// ApprovalLog is the state store as approval mode uses it: a run's log
// read and appended to; store.State is one.
type ApprovalLog interface {
	Events(ctx context.Context, runID string) ([]event.Event, error)
	Append(ctx context.Context, events ...event.Event) error
}

// Defaults of Approval.
const (
	DefaultApprovalTimeout = 30 * time.Minute
	DefaultApprovalPoll    = time.Second
)

// Approval says that the statements of one run wait for a person's
// approval, and how.
type Approval struct {
	Log      ApprovalLog
	AskedBy  string // the person who asked; "" on a single-user project
	Why      string // "connection" or "person": what required it
	Question string
	Timeout  time.Duration // DefaultApprovalTimeout when 0
	Poll     time.Duration // DefaultApprovalPoll when 0
}

// approvalMargin is how long before the run's own deadline a wait for
// approval ends.
const approvalMargin = 30 * time.Second

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (ap *Approval) timeout() time.Duration {
	if ap.Timeout > 0 {
		return ap.Timeout
	}
	return DefaultApprovalTimeout
}

func (ap *Approval) poll() time.Duration {
	if ap.Poll > 0 {
		return ap.Poll
	}
	return DefaultApprovalPoll
}

// await records that sql waits for approval and waits for the decision.
// It returns the decision; an error when the statement must not run
// (refused, timed out, the wait canceled, the log unwritable).
func (a *Analyst) await(ctx context.Context, em *Emitter, sql string, v sqlguard.Verdict, x Exec) (*event.ApprovalDecidedData, error) {
	ap := x.Approval
	em.statements++
	now := a.now()
	deadline := now.Add(ap.timeout())
	if d, ok := ctx.Deadline(); ok {
		// The run's own time limit: the wait ends, recorded, a little
		// before it, leaving the statement time to run once approved.
		deadline = minTime(deadline, now.Add(time.Until(d)-approvalMargin))
	}
	req := &event.ApprovalRequestedData{
		Statement: fmt.Sprintf("s%d", em.statements), SQL: sql, Question: ap.Question, Interpretation: x.Interpretation,
		Guard:   event.GuardCheckedData{Allowed: v.Allowed, Dialect: string(v.Dialect), Violations: violations(v)},
		AskedBy: ap.AskedBy, Why: ap.Why, Deadline: deadline.UTC(),
	}
	// The estimate, where the connector gives one (connector.Estimator).
	if est, ok := a.Conn.(connector.Estimator); ok {
		e, err := est.Estimate(ctx, sql)
		if err != nil {
			req.EstimateError = quarry.Message(err)
		} else {
			req.Estimate = &event.CostEstimate{Cost: e.Cost, Rows: e.Rows}
		}
	}
	em.Emit(ctx, req)
	em.Flush(ctx)
	if err := em.Err(); err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "quarry's state database cannot record the request for approval, so the query was not run")
	}
	d, last, err := ap.wait(ctx, em.RunID(), req.Statement, req.Deadline, a.now)
	if last > 0 {
		em.rec.Advance(last)
	}
	if err != nil {
		return nil, err
	}
	if !d.Approved {
		return d, refusal(d)
	}
	return d, nil
}

// refusal is the error of a refused statement, as the model and the user
// read it.
func refusal(d *event.ApprovalDecidedData) error {
	if d.TimedOut {
		return quarry.Errorf(quarry.KindRejected, "the statement waited for approval and nobody decided in time (%s); nothing ran — ask an admin to watch the statements waiting for approval in the web UI, or ask again", d.Reason)
	}
	msg := "the statement was refused by " + d.By
	if d.By == "" {
		msg = "the statement was refused"
	}
	if r := strings.TrimSpace(d.Reason); r != "" {
		msg += ": " + r
	}
	return quarry.Errorf(quarry.KindRejected, "%s; nothing ran", msg)
}

// wait polls the run's log until statement id is decided, recording the
// refusal itself once the deadline has passed. It returns the decision
// and the highest sequence number of the log it last read.
func (ap *Approval) wait(ctx context.Context, runID, id string, deadline time.Time, now func() time.Time) (*event.ApprovalDecidedData, int64, error) {
	tick := time.NewTicker(ap.poll())
	defer tick.Stop()
	var last int64
	for {
		evs, err := ap.Log.Events(ctx, runID)
		if err != nil {
			if ctx.Err() != nil {
				return nil, last, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "the wait for approval was stopped; nothing ran")
			}
			return nil, last, quarry.Wrap(quarry.KindInternal, err, "quarry cannot read the run's log while it waits for approval, so the query was not run")
		}
		st, err := event.Fold(evs)
		if err != nil {
			return nil, last, err
		}
		last = st.LastSeq
		if d := decision(st, id); d != nil {
			return d, last, nil
		}
		if at := now(); !at.Before(deadline) {
			e, err := event.New(runID, last+1, at, &event.ApprovalDecidedData{Statement: id, By: "quarry", TimedOut: true,
				Reason: "waited " + deadline.Sub(st.Approvals[len(st.Approvals)-1].RequestedAt).Round(time.Second).String()})
			if err != nil {
				return nil, last, err
			}
			// A person's decision appended meanwhile wins: the append
			// conflicts and the next read finds it.
			if err := ap.Log.Append(context.WithoutCancel(ctx), e); err != nil && quarry.KindOf(err) != quarry.KindConflict {
				return nil, last, quarry.Wrap(quarry.KindInternal, err, "quarry cannot record that the wait for approval timed out; nothing ran")
			}
			continue
		}
		select {
		case <-ctx.Done():
			return nil, last, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "the wait for approval was stopped; nothing ran")
		case <-tick.C:
		}
	}
}

// decision is the decision on statement id in st, or nil.
func decision(st event.RunState, id string) *event.ApprovalDecidedData {
	for _, a := range st.Approvals {
		if a.Statement == id && a.Decided != nil {
			return a.Decided
		}
	}
	return nil
}

// Decide records a person's decision on the statement that waits in run
// runID, at time at, and returns the run's state after it. A run with no
// such statement waiting is KindNotFound; one already decided, a run that
// ended or a wait past its deadline is KindConflict: a statement is
// decided once, while it waits. Who may
// decide is the caller's to check.
func Decide(ctx context.Context, log ApprovalLog, runID, statement string, d event.ApprovalDecidedData, at time.Time) (event.RunState, error) {
	d.Statement = statement
	for range 5 {
		evs, err := log.Events(ctx, runID)
		if err != nil {
			return event.RunState{}, err
		}
		st, err := event.Fold(evs)
		if err != nil {
			return event.RunState{}, err
		}
		var found *event.Approval
		for i := range st.Approvals {
			if st.Approvals[i].Statement == statement {
				found = &st.Approvals[i]
			}
		}
		switch {
		case found == nil || statement == "":
			return st, quarry.Errorf(quarry.KindNotFound, "run %s has no statement %q waiting for approval", st.RunID, statement)
		case found.Decided != nil:
			return st, quarry.Errorf(quarry.KindConflict, "statement %s of run %s was already %s by %s; a statement is decided once", statement, st.RunID, verdict(found.Decided), found.Decided.By)
		case !st.FinishedAt.IsZero():
			return st, quarry.Errorf(quarry.KindConflict, "run %s has ended; its statement %s can no longer be decided", st.RunID, statement)
		case !found.Deadline.IsZero() && at.After(found.Deadline):
			// The run records the timeout itself; one whose process died
			// waiting is never decided.
			return st, quarry.Errorf(quarry.KindConflict, "the wait for approval of statement %s of run %s ended at %s; nothing ran — ask again", statement, st.RunID, found.Deadline.Format(time.RFC3339))
		}
		e, err := event.New(st.RunID, st.LastSeq+1, at, &d)
		if err != nil {
			return st, err
		}
		err = log.Append(ctx, e)
		if err == nil {
			evs = append(evs, e)
			return event.Fold(evs)
		}
		if quarry.KindOf(err) != quarry.KindConflict {
			return st, err
		}
		// Another event took the sequence number: read the log again.
	}
	return event.RunState{}, quarry.Errorf(quarry.KindConflict, "run %s kept changing while the decision was recorded; try again", runID)
}

func verdict(d *event.ApprovalDecidedData) string {
	if d.Approved {
		return "approved"
	}
	return "refused"
}
