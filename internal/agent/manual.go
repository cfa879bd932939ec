package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector/normalize"
	"github.com/quarrydata/quarry/internal/narrate"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// proposeBuiltin is manual mode without a model: the builtin planner maps
// the question, and its SQL is proposed for the user to run.
func (r *run) proposeBuiltin(ctx context.Context, question string) error {
	a := r.a
	if a.Knowledge == nil || a.Knowledge.Planner == nil {
		return quarry.Errorf(quarry.KindConfig, "with no connection and no language model, quarry needs a knowledge folder to plan questions; run `quarry learn` against a database, or configure a model")
	}
	pl, _, err := a.Knowledge.Plan(ctx, question, r.asOf)
	if err != nil {
		return err
	}
	r.out.Plan = pl
	r.emit(ctx, &event.QuestionParsedData{Understood: pl.Understood, Unknown: pl.Unknown, Alternatives: pl.Suggestions, DidYouMean: pl.DidYouMean})
	var sql string
	var cols []string
	switch pl.Kind {
	case planner.KindClarify:
		r.out.Status = "clarify"
		r.emit(ctx, &event.ClarificationData{Question: pl.Question, Options: pl.Options, Reason: pl.Reason})
		return quarry.Errorf(quarry.KindUnanswered, "%s", pl.Question)
	case planner.KindRefuse:
		return quarry.Errorf(quarry.KindForbidden, "%s", pl.Reason)
	case planner.KindVerified:
		sql = pl.SQL
	case planner.KindMetric, planner.KindRows:
		if pl.Query == nil {
			return quarry.Errorf(quarry.KindInternal, "the planner returned a %s plan without a query", pl.Kind)
		}
		c, err := semantic.Compile(pl.Model(a.model()), *pl.Query, a.dialect())
		if err != nil {
			if quarry.KindOf(err) == quarry.KindForbidden {
				return err
			}
			return quarry.Wrap(quarry.KindUnanswered, err, "the question mapped to a query quarry cannot build")
		}
		sql, cols = c.SQL, columnNamesOf(c)
		r.out.Compiled = c
	default:
		msg := pl.Reason
		if msg == "" {
			msg = "quarry could not map the whole question with confidence"
		}
		return quarry.Errorf(quarry.KindUnanswered, "%s", msg)
	}
	planJSON, _ := json.Marshal(map[string]any{"query": pl.Query, "title": pl.Title, "manual": true})
	r.emit(ctx, &event.PlanMadeData{Source: string(pl.Kind), Plan: planJSON})
	r.out.Reading = narrate.Read(pl.Model(a.model()), pl.Query, string(pl.Kind))
	if pl.Kind == planner.KindVerified {
		r.out.Reading.Text = "the verified query approved for this question (" + pl.Title + ")"
	}
	r.emit(ctx, r.out.Reading)
	r.emit(ctx, &event.SQLGeneratedData{SQL: sql, Source: "builtin"})
	if _, err := r.check(ctx, sql); err != nil {
		return err
	}
	r.emit(ctx, &event.QueryProposedData{SQL: sql, Columns: cols})
	r.out.SQL = sql
	r.out.Status = event.StatusAwaitingResults
	return nil
}

// Pasted is a result a person ran outside quarry and pasted.
type Pasted struct {
	Table  *quarry.Table
	Format string // as normalize names it
}

// CheckPastedShape is the check that a pasted result has the columns the
// proposed query returns.
const CheckPastedShape = "pasted_shape"

// RunByUserNote ends the answer of a manual-mode run.
const RunByUserNote = "_This result was run by you, outside quarry, and pasted back; quarry checked its shape but did not run the query._"

// Resume continues a manual-mode run that waits for its result: rec must
// continue the run's log (event.ResumeRecorder), events are the log so far.
// The pasted table is checked against the proposed query's columns (a
// different number of columns is refused; different names lower the
// confidence), restricted columns are redacted, and the answer is verified
// and explained as for a result quarry ran, saying that the user ran it.
func (a *Agent) Resume(ctx context.Context, rec *event.Recorder, events []event.Event, p Pasted) (*analyst.AskOutcome, error) {
	st, err := event.Fold(events)
	if err != nil {
		return nil, err
	}
	if st.Status != event.StatusAwaitingResults || st.ProposedSQL == "" {
		return nil, quarry.Errorf(quarry.KindInput, "run %s is not waiting for a pasted result (its status is %s)", st.RunID, st.Status)
	}
	var want []string
	for _, e := range events {
		if e.Type == event.QueryProposed {
			if pl, err := event.Decode(e); err == nil {
				want = pl.(*event.QueryProposedData).Columns
			}
		}
	}
	if got := p.Table.ColumnNames(); len(want) > 0 && len(got) != len(want) {
		// Refused before anything is recorded: the run still waits, and the
		// right result can be pasted next.
		return nil, quarry.Errorf(quarry.KindInput, "the pasted result has %d columns (%s); the proposed query returns %d (%s) — paste the output of that query",
			len(got), strings.Join(got, ", "), len(want), strings.Join(want, ", "))
	}
	r := &run{a: a, em: analyst.NewEmitter(rec), policy: newPolicy(a.model()), byTool: map[string]int{}, q: st.Question,
		out: &analyst.AskOutcome{RunID: st.RunID, Question: st.Question, AsOf: st.AsOf, Reading: st.Reading}}
	err = r.resume(ctx, st.ProposedSQL, want, p)
	return r.finish(ctx, err)
}

// ResumeWith is Resume with the result as the user pasted it: CSV, TSV, a
// psql or mysql table, Markdown or JSON (normalize.Parse). Every surface
// that takes a pasted result calls it.
func (a *Agent) ResumeWith(ctx context.Context, rec *event.Recorder, events []event.Event, pasted []byte) (*analyst.AskOutcome, error) {
	t, format, err := normalize.Parse(pasted)
	if err != nil {
		return nil, err
	}
	return a.Resume(ctx, rec, events, Pasted{Table: t, Format: format})
}

func (r *run) resume(ctx context.Context, sql string, want []string, p Pasted) error {
	t := p.Table
	got := t.ColumnNames()
	shape := verify.Check{Name: CheckPastedShape, Status: verify.Pass, Detail: fmt.Sprintf("%d columns, as the proposed query returns", len(got))}
	if len(want) == 0 {
		shape.Detail = fmt.Sprintf("%d columns; the proposed query's columns are not known", len(got))
	}
	for i := range want {
		if !strings.EqualFold(strings.Trim(got[i], `"`+"`"), want[i]) {
			shape = verify.Check{Name: CheckPastedShape, Status: verify.Warn,
				Detail: fmt.Sprintf("the pasted columns (%s) are not named as the proposed query's (%s)", strings.Join(got, ", "), strings.Join(want, ", "))}
			break
		}
	}
	r.policy.redact(t)
	res := &result{Result: &analyst.Result{SQL: sql, Table: t, Columns: t.Columns, Rows: int64(len(t.Rows))}}
	var hash string
	if r.a.Results != nil {
		id, h, err := r.a.Results.SaveResult(context.WithoutCancel(ctx), r.em.RunID(), t)
		if err != nil {
			return quarry.Wrap(quarry.KindInternal, err, "cannot keep the pasted result in quarry's state database")
		}
		res.ResultID, hash = id, h
	}
	r.emit(ctx, &event.ResultsPastedData{Format: p.Format, Rows: res.Rows, Columns: got, ResultID: res.ResultID, ResultHash: hash})
	r.extra = append(r.extra, shape)
	r.note = RunByUserNote
	r.answer(ctx, "", res)
	return nil
}
