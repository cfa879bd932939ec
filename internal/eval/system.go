package eval

import (
	"context"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// BuiltinSystem answers with the builtin planner and the semantic compiler
// over one knowledge folder, guards the SQL, and runs it on one
// connection. It is the System quarry eval uses with no language model.
type BuiltinSystem struct {
	model   *semantic.Model
	planner *planner.Planner
	conn    Querier
	maxRows int64
	timeout time.Duration
	guard   sqlguard.Options
}

// BuiltinOptions tune a BuiltinSystem.
type BuiltinOptions struct {
	// MaxRows caps the rows read from a result; 0 means 10,000.
	MaxRows int64
	// Timeout bounds each statement; 0 means 30s.
	Timeout time.Duration
	// ExtraFunctions are functions the guard allows beyond its list.
	ExtraFunctions []string
}

// NewBuiltin builds a BuiltinSystem over the knowledge folder f and the
// connection conn.
func NewBuiltin(f *knowledge.Folder, conn Querier, opts BuiltinOptions) *BuiltinSystem {
	verified := make([]planner.Verified, 0, len(f.Verified))
	for _, v := range f.Verified {
		verified = append(verified, planner.Verified{Question: v.Question, SQL: v.SQL})
	}
	o := Options{MaxRows: opts.MaxRows, Timeout: opts.Timeout}
	return &BuiltinSystem{
		model:   f.Model,
		planner: planner.New(f.Model, verified),
		conn:    conn,
		maxRows: o.maxRows(),
		timeout: o.timeout(),
		guard:   sqlguard.Options{Dialect: conn.Dialect(), ExtraFunctions: opts.ExtraFunctions},
	}
}

// Plan returns the planner's plan and the SQL it compiles to, without
// running anything; sql is empty when the plan is not an answer.
func (s *BuiltinSystem) Plan(question string, asOf time.Time) (pl *planner.Plan, sql string, err error) {
	pl = s.planner.Plan(question, asOf)
	switch pl.Kind {
	case planner.KindVerified:
		return pl, pl.SQL, nil
	case planner.KindMetric, planner.KindRows:
		if pl.Query == nil {
			return pl, "", quarry.Errorf(quarry.KindInternal, "the planner returned a %s plan without a query", pl.Kind)
		}
		c, err := semantic.Compile(pl.Model(s.model), *pl.Query, s.conn.Dialect())
		if err != nil {
			return pl, "", err
		}
		return pl, c.SQL, nil
	}
	return pl, "", nil
}

// Answer plans, compiles, guards and runs one question.
func (s *BuiltinSystem) Answer(ctx context.Context, question string, asOf time.Time) (Outcome, error) {
	pl, sql, err := s.Plan(question, asOf)
	if err != nil {
		return Outcome{Kind: OutcomeError, Message: "compile: " + quarry.Message(err), ErrKind: quarry.KindOf(err)}, nil
	}
	switch pl.Kind {
	case planner.KindRefuse:
		return Outcome{Kind: OutcomeRefused, Message: pl.Reason}, nil
	case planner.KindClarify:
		msg := pl.Question
		if len(pl.Options) > 0 {
			msg += " (" + strings.Join(pl.Options, " | ") + ")"
		}
		return Outcome{Kind: OutcomeClarify, Message: msg}, nil
	case planner.KindUnanswered:
		msg := pl.Reason
		if len(pl.Unknown) > 0 {
			msg += ": " + strings.Join(pl.Unknown, ", ")
		}
		return Outcome{Kind: OutcomeUnanswered, Message: msg}, nil
	}
	if v := sqlguard.Check(sql, s.guard); !v.Allowed {
		err := v.Err()
		return Outcome{Kind: OutcomeError, SQL: sql, Message: quarry.Message(err), ErrKind: quarry.KindOf(err)}, nil
	}
	t, err := Materialise(ctx, s.conn, sql, s.maxRows, s.timeout)
	if err != nil {
		return Outcome{Kind: OutcomeError, SQL: sql, Message: err.Error(), ErrKind: quarry.KindOf(err)}, nil
	}
	return Outcome{Kind: OutcomeAnswered, SQL: sql, Table: t}, nil
}
