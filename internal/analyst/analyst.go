package analyst

import (
	"context"
	"errors"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Querier runs one guarded statement and streams its rows.
type Querier interface {
	Dialect() quarry.Dialect
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
}

// Guard decides whether a statement may run.
type Guard interface {
	Check(ctx context.Context, sql string) sqlguard.Verdict
}

// GuardFunc adapts a function to a Guard.
type GuardFunc func(ctx context.Context, sql string) sqlguard.Verdict

// Check calls f.
func (f GuardFunc) Check(ctx context.Context, sql string) sqlguard.Verdict { return f(ctx, sql) }

// Results keeps results so that they can be fetched again by ID.
type Results interface {
	SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error)
}

// Limits bound what one run may read.
type Limits struct {
	MaxRows          int64         // rows read from the database; 0 = no cap
	StatementTimeout time.Duration // per statement; 0 = only the context
	KeepRows         int           // rows kept in the result store; 0 = 1000
	MaxCost          float64       // the cost governor's ceilings, where the connector can EXPLAIN; 0 = none
	MaxEstimatedRows int64
	// MaxValueBytes bounds one value read; a larger one fails the query
	// (connector.QueryOptions.MaxValueBytes). 0 = no bound.
	MaxValueBytes int64
	// MaxResultBytes bounds the values of the rows kept in memory (for
	// the result store and the cache): past it, rows are still streamed
	// to the sink but no more are kept, and the kept copy is marked
	// truncated. The stream itself is not bounded, so that an export
	// runs in constant memory. 0 = no bound.
	MaxResultBytes int64
}

func (l Limits) keep() int {
	if l.KeepRows > 0 {
		return l.KeepRows
	}
	return 1000
}

// Analyst runs statements and questions against one connection.
type Analyst struct {
	Conn       Querier
	Guard      Guard
	Results    Results // may be nil: results are then not kept
	Limits     Limits
	Connection string // the connection's name and target, for provenance; never secrets
	// PrivilegedRole, when set, says that the connection's role can do
	// more than read and the configuration allowed it; every run records
	// it on run.started.
	PrivilegedRole string
	// PolicyOff, when set, says that the column policy was turned off for
	// this run at the user's own terminal (quarry run --no-policy); the
	// run records it, and its result is not kept.
	PolicyOff bool
	// Approval, when set, makes the statement Run executes wait for a
	// person's approval (approval mode, for a statement a model sent as
	// it is: quarry mcp's run_query); nil for a person's own SQL.
	Approval *Approval
	// Privacy is the connection's privacy tier (what of its data may
	// reach a language model) and MinGroupSize its smallest group under
	// aggregates-only; every run records them on run.started, and a model
	// that plans on this connection is held to them.
	Privacy      quarry.Privacy
	MinGroupSize int
	Clock        func() time.Time
	// Cache, when set, serves recent identical statements on the same
	// connection without running them again.
	Cache *resultcache.Cache
	// Admit, when set, holds a run after it is recorded as started until
	// the server has room for its work (a server's runs share a few slots,
	// so that hundreds at once do not starve the requests that start
	// them); release frees the slot. Nil: at once.
	Admit func(ctx context.Context) (release func(), err error)
}

// admitted does work once Admit lets it. A run that may wait for a
// person's approval is not held to a slot: it would keep it while it
// waits.
func (a *Analyst) admitted(ctx context.Context, work func() error) error {
	if a.Admit == nil || a.Approval != nil {
		return work()
	}
	release, err := a.Admit(ctx)
	if err != nil {
		return err
	}
	defer release()
	return work()
}

func statusOf(err error) string {
	switch quarry.KindOf(err) {
	case quarry.KindCanceled:
		return "canceled"
	case quarry.KindRejected, quarry.KindForbidden:
		return "rejected"
	case quarry.KindUnanswered:
		return "unanswered"
	}
	if errors.Is(err, context.Canceled) {
		return "canceled"
	}
	return "failed"
}

func violations(v sqlguard.Verdict) []event.Violation {
	out := make([]event.Violation, len(v.Violations))
	for i, x := range v.Violations {
		out[i] = event.Violation{Code: x.Code, Message: x.Message, Pos: x.Pos}
	}
	return out
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// queryError classifies what a failed query returned as a quarry error.
func queryError(ctx context.Context, err error) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return quarry.Wrap(quarry.KindTimeout, err, "the query ran out of time; narrow it or raise limits.statement_timeout")
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return quarry.Wrap(quarry.KindCanceled, err, "interrupted")
	}
	return quarry.Wrap(quarry.KindQuery, err, "the database refused the query")
}
