package runtime

import (
	"context"
	"encoding/json"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// readRedacted is the state store whose results are read back redacted
// by the column policy in force at the time of the read (policy.Redact, as
// results are redacted before they are kept): a result kept before a
// column was restricted is not shown in clear after, whatever the surface
// (the HTTP API's results, runs, history and exports, MCP's get_result,
// quarry runs export). An answer recorded with the result's first rows
// (answer.rendered's cells and text) is redacted the same way: the cells of
// a restricted column become [restricted], and their values are scrubbed
// from the answer's text (policy.Scrubber).
type readRedacted struct {
	store.State
	policy func(ctx context.Context) (*policy.Policy, error)
}

// ReadRedacted returns st with every result and answer it reads back
// redacted by the project's column policy (quarry runs export): the
// surfaces agree on what a stored result shows.
func (r *Runtime) ReadRedacted(st store.State) store.State {
	return readRedacted{State: st, policy: func(context.Context) (*policy.Policy, error) { return r.Policy() }}
}

func (s readRedacted) Result(ctx context.Context, id string) (*quarry.Table, error) {
	t, err := s.State.Result(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.policy(ctx)
	if err != nil {
		return nil, err
	}
	p.Redact(t)
	return t, nil
}

func (s readRedacted) Run(ctx context.Context, runID string) (event.RunState, error) {
	st, err := s.State.Run(ctx, runID)
	if err != nil {
		return st, err
	}
	p, err := s.policy(ctx)
	if err != nil {
		return event.RunState{}, err
	}
	redactAnswer(p, st.Columns, &st.Answer, st.Cells)
	return st, nil
}

func (s readRedacted) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	runs, err := s.State.Runs(ctx, f)
	if err != nil {
		return nil, err
	}
	p, err := s.policy(ctx)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		redactAnswer(p, runs[i].Columns, &runs[i].Answer, runs[i].Cells)
	}
	return runs, nil
}

func (s readRedacted) Events(ctx context.Context, runID string) ([]event.Event, error) {
	evs, err := s.State.Events(ctx, runID)
	if err != nil {
		return nil, err
	}
	p, err := s.policy(ctx)
	if err != nil || p.Empty() {
		return evs, err
	}
	var cols []string
	for i, e := range evs {
		switch e.Type {
		case event.QueryExecuted:
			var d event.QueryExecutedData
			if json.Unmarshal(e.Data, &d) == nil {
				cols = d.Columns
			}
		case event.AnswerRendered:
			var d event.AnswerRenderedData
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			if !redactAnswer(p, cols, &d.Markdown, d.Cells) {
				continue
			}
			b, err := json.Marshal(&d)
			if err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "cannot redact run %s's answer", runID)
			}
			evs[i].Data = b
		}
	}
	return evs, nil
}

// redactAnswer replaces, in place, the cells of an answer's restricted
// columns (by the result's column names, as policy.Redact decides) and
// scrubs their values from its text. It reports whether it changed
// anything.
func redactAnswer(p *policy.Policy, cols []string, markdown *string, cells [][]string) bool {
	if p.Empty() || len(cells) == 0 {
		return false
	}
	var idx []int
	for i, c := range cols {
		if p.Name(c) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return false
	}
	sc := p.Scrubber()
	for _, row := range cells {
		for _, i := range idx {
			if i < len(row) && row[i] != policy.Redacted {
				sc.Remember(row[i])
				row[i] = policy.Redacted
			}
		}
	}
	*markdown = sc.Scrub(*markdown)
	return true
}
