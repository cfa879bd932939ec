package eval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/valueindex"
)

// BuiltinSystem answers through the same runtime as quarry ask
// (analyst.Ask: plan, compile, guard, execute, verify, explain) with the
// builtin planner over one knowledge folder and one connection. It is the
// System quarry eval uses with no language model, so an eval case is a run
// like any other.
type BuiltinSystem struct {
	an     *analyst.Analyst
	k      *analyst.Knowledge
	guard  *guard.Guard
	values io.Closer // the value index NewBuiltin opened, if any
	sink   event.Sink
	ids    func() string
}

// BuiltinOptions tune a BuiltinSystem.
type BuiltinOptions struct {
	// MaxRows caps the rows read from a result; 0 means 10,000.
	MaxRows int64
	// Timeout bounds each statement; 0 means 30s.
	Timeout time.Duration
	// ExtraFunctions are functions the guard allows beyond its list.
	ExtraFunctions []string
	// Sink receives each case's events (quarry's state store, to record
	// the cases as runs); nil discards them.
	Sink event.Sink
	// NewRunID names each case's run; nil numbers them eval-1, eval-2, ….
	NewRunID func() string
	// Clock times the runs; nil means time.Now.
	Clock func() time.Time
}

// NewBuiltin builds a BuiltinSystem over the knowledge folder f and the
// connection conn. Close it when done.
func NewBuiltin(f *knowledge.Folder, conn Querier, opts BuiltinOptions) (*BuiltinSystem, error) {
	verified := make([]planner.Verified, 0, len(f.Verified))
	for _, v := range f.Verified {
		verified = append(verified, planner.Verified{Question: v.Question, SQL: v.SQL})
	}
	g, err := guard.New(sqlguard.Options{Dialect: conn.Dialect(), ExtraFunctions: opts.ExtraFunctions})
	if err != nil {
		return nil, err
	}
	o := Options{MaxRows: opts.MaxRows, Timeout: opts.Timeout}
	an := &analyst.Analyst{
		Conn:   conn,
		Guard:  g,
		Limits: analyst.Limits{MaxRows: o.maxRows(), StatementTimeout: o.timeout()},
		Clock:  opts.Clock,
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, verified), Hash: f.Hash}
	s := Over(an, k, opts)
	// The folder's value index, when learn wrote one.
	if ix, err := valueindex.Open(filepath.Join(f.Dir, filepath.FromSlash(knowledge.ValuesFile))); err == nil {
		k.Values, s.values = ix, ix
	}
	s.guard = g
	return s, nil
}

// Over is a BuiltinSystem over an analyst and knowledge the caller wired
// (the runtime's, with the project's guard, column policy and limits);
// of opts it uses Sink, NewRunID and Clock.
func Over(an *analyst.Analyst, k *analyst.Knowledge, opts BuiltinOptions) *BuiltinSystem {
	if an.Clock == nil {
		an.Clock = opts.Clock
	}
	if an.Clock == nil {
		an.Clock = time.Now
	}
	s := &BuiltinSystem{an: an, k: k, sink: opts.Sink, ids: opts.NewRunID}
	if s.sink == nil {
		s.sink = event.SinkFunc(func(context.Context, ...event.Event) error { return nil })
	}
	if s.ids == nil {
		var n atomic.Int64
		s.ids = func() string { return fmt.Sprintf("eval-%d", n.Add(1)) }
	}
	return s
}

// Close releases the guard NewBuiltin built (none for Over's).
func (s *BuiltinSystem) Close() error {
	var err error
	if s.values != nil {
		err = s.values.Close()
	}
	if s.guard != nil {
		if gerr := s.guard.Close(); err == nil {
			err = gerr
		}
	}
	return err
}

// Answer runs one question through the analyst and reports what came of it.
func (s *BuiltinSystem) Answer(ctx context.Context, question string, asOf time.Time) (Outcome, error) {
	rec := event.NewRecorder(s.ids(), s.an.Clock, s.sink)
	rec.Hold()
	out, err := s.an.Ask(ctx, rec, s.k, question, asOf)
	if err == nil {
		return Outcome{Kind: OutcomeAnswered, SQL: out.SQL, Table: out.Table, Confidence: out.Report.Confidence}, nil
	}
	if out == nil {
		return Outcome{Kind: OutcomeError, Message: quarry.Message(err), ErrKind: quarry.KindOf(err)}, nil
	}
	pl := out.Plan
	switch {
	case out.Status == "clarify":
		msg := pl.Question
		if len(pl.Options) > 0 {
			msg += " (" + strings.Join(pl.Options, " | ") + ")"
		}
		return Outcome{Kind: OutcomeClarify, Message: msg, Gap: GapClarify}, nil
	case pl != nil && pl.Kind == planner.KindRefuse:
		return Outcome{Kind: OutcomeRefused, Message: pl.Reason, Gap: gapOf(OutcomeRefused, pl, pl.Reason)}, nil
	case quarry.KindOf(err) == quarry.KindUnanswered && out.SQL == "":
		return Outcome{Kind: OutcomeUnanswered, Message: quarry.Message(err), Gap: gapOf(OutcomeUnanswered, pl, quarry.Message(err))}, nil
	}
	return Outcome{Kind: OutcomeError, SQL: out.SQL, Message: quarry.Message(err), ErrKind: quarry.KindOf(err)}, nil
}
