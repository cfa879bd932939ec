package agent

import (
	"context"
	"encoding/json"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// proposeBuiltin is manual mode without a model: the builtin planner maps
// the question, and its SQL is proposed for the user to run.
func (r *run) proposeBuiltin(ctx context.Context, question string) error {
	a := r.a
	if a.Knowledge == nil || a.Knowledge.Planner == nil {
		return quarry.Errorf(quarry.KindConfig, "with no connection and no language model, quarry needs a knowledge folder to plan questions; run `quarry learn` against a database, or configure a model")
	}
	pl := a.Knowledge.Planner.Plan(question, r.asOf)
	r.out.Plan = pl
	r.emit(ctx, &event.QuestionParsedData{Understood: pl.Understood, Unknown: pl.Unknown, Alternatives: pl.Suggestions})
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
	r.emit(ctx, &event.SQLGeneratedData{SQL: sql, Source: "builtin"})
	if _, err := r.check(ctx, sql); err != nil {
		return err
	}
	r.emit(ctx, &event.QueryProposedData{SQL: sql, Columns: cols})
	r.out.SQL = sql
	r.out.Status = event.StatusAwaitingResults
	return nil
}
