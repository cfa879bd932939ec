package runtime

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch/schedule"
	"github.com/quarrydata/quarry/internal/workflow"
)

// TickOutcome is what one tick did with one workflow or run.
type TickOutcome struct {
	Workflow string `json:"workflow"`
	RunID    string `json:"run_id,omitempty"`
	// Action is started (its schedule came due), resumed (its wait's time
	// came), not_due, or failed (Error says why; the next tick tries
	// again).
	Action string `json:"action"`
	Status string `json:"status,omitempty"` // the run's status afterwards
	Next   string `json:"next,omitempty"`   // when the schedule next comes due
	Error  string `json:"error,omitempty"`
}

// WorkflowTick is the scheduler's step, run from cron beside quarry watch
// run (which calls it): every workflow with a schedule whose time came
// since its last run (in the state store) starts, and every run waiting
// until a time that has come goes on. Relative dates are read against
// asOf.
func (r *Runtime) WorkflowTick(ctx context.Context, now, asOf time.Time) ([]TickOutcome, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	unlock, err := tickLock(cfg)
	if err != nil {
		return nil, err
	}
	defer unlock()
	srcs, err := r.WorkflowSources()
	if err != nil {
		return nil, err
	}
	runs, err := r.WorkflowRunStatuses(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []TickOutcome
	for _, run := range runs {
		// A wait is until a time by the clock, whatever --as-of says.
		if !workflow.Due(run, r.o.Now()) {
			continue
		}
		st, err := r.ResumeWorkflow(ctx, run.RunID, nil, "", WorkflowRequest{})
		out = append(out, tickOf(run.Workflow, "resumed", st, err))
	}
	for _, s := range srcs {
		w, g, err := r.CheckWorkflow(s.File, s.Source)
		if w == nil || w.Schedule == "" {
			continue
		}
		if err != nil {
			out = append(out, TickOutcome{Workflow: w.Name, Action: "failed", Error: quarry.Message(err)})
			continue
		}
		sched, err := schedule.Parse(w.Schedule)
		if err != nil {
			out = append(out, TickOutcome{Workflow: w.Name, Action: "failed", Error: quarry.Message(err)})
			continue
		}
		var last time.Time
		for _, run := range runs {
			if run.Workflow == w.Name {
				last = run.StartedAt
				break
			}
		}
		if !last.IsZero() {
			if next := sched.Next(last); next.IsZero() || next.After(now) {
				out = append(out, TickOutcome{Workflow: w.Name, Action: "not_due", Next: formatNext(next)})
				continue
			}
		}
		st, err := r.RunWorkflow(ctx, w, g, WorkflowRequest{AsOf: asOf, By: "schedule"})
		o := tickOf(w.Name, "started", st, err)
		o.Next = formatNext(sched.Next(now))
		out = append(out, o)
	}
	return out, nil
}

func tickOf(name, action string, st workflow.State, err error) TickOutcome {
	o := TickOutcome{Workflow: name, RunID: st.RunID, Action: action, Status: st.Status}
	if err != nil {
		o.Action, o.Error = "failed", quarry.Message(err)
	}
	return o
}

func formatNext(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
