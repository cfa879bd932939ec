package analyst

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ValueIndex finds the stored values a question names in columns whose
// values the knowledge does not list (internal/valueindex). Read returns
// the question as the planner should read it (other names of values, and
// values written without their accents, written as stored) and the values,
// of the columns skip does not name (those the column policy restricts).
type ValueIndex interface {
	Read(ctx context.Context, question string, skip func(entity, column string) bool) (string, []planner.Value, error)
}

// valuePlanner is a planner that reads stored values (planner.Planner).
type valuePlanner interface {
	PlanValues(question string, asOf time.Time, vals []planner.Value) *planner.Plan
}

// Plan plans question with k's planner, reading the stored values k's
// value index finds in it as values of their columns. It returns the
// question as read, which the checks hold the plan to. Without an index,
// or with one that cannot be read (quarry doctor says so), it plans as
// the knowledge alone allows.
func (k *Knowledge) Plan(ctx context.Context, question string, asOf time.Time) (*planner.Plan, string, error) {
	if p := k.planned; p != nil && p.question == question && p.asOf.Equal(asOf) {
		return p.plan, p.read, p.err
	}
	vp, ok := k.Planner.(valuePlanner)
	if k.Values == nil || !ok {
		return k.Planner.Plan(question, asOf), question, nil
	}
	read, vals, err := k.Values.Read(ctx, question, k.Model.SkipRestricted())
	if err != nil {
		if ctx.Err() != nil {
			return nil, question, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "the question was interrupted")
		}
		return k.Planner.Plan(question, asOf), question, nil
	}
	if len(vals) == 0 {
		return k.Planner.Plan(question, asOf), question, nil
	}
	return vp.PlanValues(read, asOf, vals), read, nil
}

// plannerNow is k's planner with its value index for one request, as
// export.PlanSQL asks for it.
type plannerNow struct {
	ctx context.Context
	k   *Knowledge
}

func (p plannerNow) Plan(question string, asOf time.Time) *planner.Plan {
	pl, _, err := p.k.Plan(p.ctx, question, asOf)
	if err != nil {
		return &planner.Plan{Kind: planner.KindUnanswered, Reason: quarry.Message(err)}
	}
	return pl
}

// Planned is a plan made before it was asked for (PlanNow).
type Planned struct {
	question string
	asOf     time.Time
	plan     *planner.Plan
	read     string
	err      error
}

// PlanNow plans question at asOf as Plan would, for a later Ask through
// WithPlanned: a caller plans while it opens the connection.
func (k *Knowledge) PlanNow(ctx context.Context, question string, asOf time.Time) *Planned {
	pl, read, err := k.Plan(ctx, question, asOf)
	return &Planned{question: question, asOf: asOf, plan: pl, read: read, err: err}
}

// WithPlanned is k answering Plan of p's question and time with p; k
// itself is unchanged. A nil p is k.
func (k *Knowledge) WithPlanned(p *Planned) *Knowledge {
	if p == nil {
		return k
	}
	kk := *k
	kk.planned = p
	return &kk
}
