package agent

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Error classes of a failed query, as fed back to the model and recorded in
// repair.attempted.
const (
	ClassUnknownColumn = "unknown_column"
	ClassUnknownTable  = "unknown_table"
	ClassAmbiguous     = "ambiguous"
	ClassTypeMismatch  = "type_mismatch"
	ClassSyntax        = "syntax"
	ClassTimeout       = "timeout"
	ClassTooCostly     = "too_costly"
	ClassRejected      = "rejected"
	ClassOther         = "other"
)

// Classify names the class of a failed query's error: the guard's and the
// cost governor's refusals by kind, the database's errors by the words
// SQLite, PostgreSQL, MySQL and DuckDB use.
func Classify(err error) string {
	switch quarry.KindOf(err) {
	case quarry.KindRejected, quarry.KindForbidden:
		return ClassRejected
	case quarry.KindTimeout:
		return ClassTimeout
	case quarry.KindTooCostly:
		return ClassTooCostly
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ClassTimeout
	}
	msg := strings.ToLower(err.Error())
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(msg, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("ambiguous"):
		return ClassAmbiguous
	case has("no such column", "unknown column", "column") && has("does not exist", "no such", "unknown", "not found"):
		return ClassUnknownColumn
	case has("no such table", "unknown table", "relation") && has("does not exist", "no such", "unknown", "not found") ||
		has("table") && has("doesn't exist", "does not exist", "not found"):
		return ClassUnknownTable
	case has("syntax error", "parse error", "parser error", "incomplete input", "unrecognized token"):
		return ClassSyntax
	case has("datatype mismatch", "type mismatch", "operator does not exist", "invalid input syntax for", "cannot be cast", "conversion", "incompatible", "could not convert", "function") && has("type", "cast", "mismatch", "does not exist", "convert"):
		return ClassTypeMismatch
	case has("timeout", "timed out", "canceling statement due to statement timeout", "interrupted"):
		return ClassTimeout
	}
	return ClassOther
}

// result is one query's result as the pipeline kept it (restricted values
// redacted, at most the row cap), and the semantic query that wrote it.
type result struct {
	*analyst.Result
	metric *metricQuery // when query_metric wrote the SQL
}

// metricQuery is a semantic query the model asked for and its compilation:
// what the checks need to hold its result to what the query can return.
type metricQuery struct {
	query    semantic.Query
	compiled *semantic.Compiled
}

// pipeline is the analyst pipeline's guard → execute → record over the
// agent's connection, guard, result store and limits: a model's tools run
// the same steps the builtin planner does.
func (a *Agent) pipeline() *analyst.Analyst {
	l := a.Limits
	return &analyst.Analyst{
		Conn: a.Conn, Guard: a.Guard, Results: a.Results, Connection: a.Connection, Clock: a.Clock,
		Limits: analyst.Limits{
			MaxRows: l.maxRows(), KeepRows: int(l.maxRows()), StatementTimeout: l.StatementTimeout,
			MaxCost: l.MaxCost, MaxEstimatedRows: l.MaxEstimatedRows,
			MaxValueBytes: l.MaxValueBytes, MaxResultBytes: l.MaxResultBytes,
		},
	}
}

// check guards sql with the composed guard, which on a connection also
// holds the column policy (the lineage of every column the statement
// reads, decided by the engine's authorizer or the real parse and the
// catalog). Without a connection (manual mode) the guard has no catalog,
// so a statement that names a restricted column is refused by name first.
// It records guard.checked and returns a KindRejected error for a refused
// statement.
func (r *run) check(ctx context.Context, sql string) (sqlguard.Verdict, error) {
	if w := r.policy.mentions(sql); w != "" && r.a.Conn == nil {
		v := sqlguard.Verdict{Dialect: r.a.dialect(), Violations: []sqlguard.Violation{{
			Code: "restricted_column", Message: "the statement names " + w + ", a column the policy restricts; it cannot be selected, filtered or shown",
		}}}
		r.emit(ctx, &event.GuardCheckedData{Allowed: false, Dialect: string(v.Dialect), Violations: violations(v)})
		return v, quarry.Errorf(quarry.KindRejected, "%s", v.String())
	}
	return r.a.pipeline().Check(ctx, r.em, sql)
}

// execute runs sql, written by source, through the pipeline: recorded,
// guarded, executed, restricted values redacted before anything else sees
// the rows, kept and recorded. Failures are recorded as query.failed (or
// a refused guard.checked) and returned.
//
// In approval mode the statement waits, once the guard allowed it, for a
// person's decision (analyst.Approval); what it is shown as meaning is
// interpretation.
func (r *run) execute(ctx context.Context, sql, source, interpretation string) (*result, error) {
	x := analyst.Exec{Source: source, Redact: r.policy.redact, NoCache: true}
	if ap := r.a.Approval; ap != nil {
		c := *ap
		c.Question = r.q
		x.Approval, x.Interpretation = &c, interpretation
	}
	res, err := r.a.pipeline().Exec(ctx, r.em, sql, x)
	return &result{Result: res}, err
}

// errorText is the error as the model (or the fixer) is shown it: quarry's
// message and the database's own words.
func errorText(err error) string {
	msg := quarry.Message(err)
	var qe *quarry.Error
	if errors.As(err, &qe) && qe.Err != nil {
		if inner := qe.Err.Error(); !strings.Contains(msg, inner) {
			msg += ": " + inner
		}
	}
	return msg
}

func violations(v sqlguard.Verdict) []event.Violation {
	out := make([]event.Violation, len(v.Violations))
	for i, x := range v.Violations {
		out[i] = event.Violation{Code: x.Code, Message: x.Message, Pos: x.Pos}
	}
	return out
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
