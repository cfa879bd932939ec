package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// The kinds of Outcome.
const (
	OutcomeAnswered   = "answered"
	OutcomeRefused    = "refused"
	OutcomeClarify    = "clarify"
	OutcomeUnanswered = "unanswered"
	OutcomeError      = "error"
)

// Outcome is what a system did with one question.
type Outcome struct {
	Kind    string        `json:"kind"` // answered, refused, clarify, unanswered or error
	SQL     string        `json:"sql,omitempty"`
	Table   *quarry.Table `json:"-"`
	Message string        `json:"message,omitempty"` // why it refused, what failed
	// ErrKind is the error's kind for OutcomeError (timeout, query, …).
	ErrKind quarry.Kind `json:"err_kind,omitempty"`
	// Confidence is the answer's confidence (answered only; 0 when the
	// system gives none).
	Confidence float64 `json:"confidence,omitempty"`
	// Gap says what blocked a question that was not answered (a Gap…
	// constant); empty when the system does not say.
	Gap string `json:"gap,omitempty"`
}

// System is the system under test.
type System interface {
	Answer(ctx context.Context, question string, asOf time.Time) (Outcome, error)
}

// Querier runs one read-only statement and streams its rows; a
// connector.Conn satisfies it.
type Querier interface {
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
	Dialect() quarry.Dialect
}

// Status is the grade of one case.
type Status string

// The statuses.
const (
	StatusCorrect   Status = "correct"
	StatusWrong     Status = "wrong"   // an answer that is not the gold (or should have been a refusal)
	StatusRefused   Status = "refused" // no answer (refused, clarify, unanswered) where gold exists
	StatusError     Status = "error"   // the system failed (its SQL failed, or it returned an error)
	StatusGoldError Status = "gold_error"
	StatusTimeout   Status = "timeout"
)

// Reason says why a case is not correct.
type Reason string

// The reason codes.
const (
	ReasonWrongResult   Reason = "wrong_result"
	ReasonWrongRowCount Reason = "wrong_row_count"
	ReasonWrongColumns  Reason = "wrong_columns"
	ReasonRefused       Reason = "refused"
	ReasonShouldRefuse  Reason = "answered_but_should_refuse"
	ReasonError         Reason = "error"
	ReasonGoldError     Reason = "gold_error"
	ReasonTimeout       Reason = "timeout"
)

// Defaults of Options.
const (
	defaultMaxRows          = 10000
	defaultStatementTimeout = 30 * time.Second
)

// Options tune a run.
type Options struct {
	// AsOf is the day for cases and sets without their own; zero means
	// the current day.
	AsOf time.Time
	// MaxRows caps every result read (gold and system); 0 means 10,000.
	MaxRows int64
	// Timeout bounds each statement and each Answer; 0 means 30s.
	Timeout time.Duration
	// ExtraColumns: see CompareOptions.
	ExtraColumns bool
	// CheckGold runs the gold SQL of every case, even when the system did
	// not answer, so that a broken golden file shows up as gold_error.
	CheckGold bool
	// Progress, when set, is called after each case.
	Progress func(done, total int, r *Result)
}

func (o Options) maxRows() int64 {
	if o.MaxRows > 0 {
		return o.MaxRows
	}
	return defaultMaxRows
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return defaultStatementTimeout
}

// Result is the grade of one case.
type Result struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Group    string `json:"group,omitempty"` // the database, for Spider
	Status   Status `json:"status"`
	Reason   Reason `json:"reason,omitempty"`
	Detail   string `json:"detail,omitempty"`
	Gap      string `json:"gap,omitempty"` // what blocked it, when not answered
	Outcome  string `json:"outcome"`       // the system's Outcome.Kind
	Expect   string `json:"expect,omitempty"`
	SQL      string `json:"sql,omitempty"` // the system's SQL
	GoldSQL  string `json:"gold_sql,omitempty"`
	Message  string `json:"message,omitempty"` // the system's message
	Extra    int    `json:"extra_columns,omitempty"`
	// GoldInExtra marks a wrong_columns answer that holds the gold result
	// plus extra columns (correct when extra columns are allowed).
	GoldInExtra bool `json:"gold_in_extra,omitempty"`
	// GoldRows is the number of gold rows, or -1 when the gold was not run.
	GoldRows int `json:"gold_rows"`
	// Confidence is the answer's confidence, when answered.
	Confidence float64       `json:"confidence,omitempty"`
	Duration   time.Duration `json:"duration_ns"`
	File       string        `json:"file,omitempty"`
	Line       int           `json:"line,omitempty"`
}

// Answered reports whether the system answered the question.
func (r *Result) Answered() bool { return r.Outcome == OutcomeAnswered }

// Run grades every case of set: sys answers, the gold SQL runs on q (the
// same connection the system reads), and the results are compared. It
// stops early only when ctx is done.
func Run(ctx context.Context, sys System, q Querier, set *Set, opts Options) ([]Result, error) {
	out := make([]Result, 0, len(set.Cases))
	for i := range set.Cases {
		if err := ctx.Err(); err != nil {
			return out, quarry.Wrap(quarry.KindCanceled, err, "the evaluation was interrupted after %d of %d cases", i, len(set.Cases))
		}
		c := set.Cases[i]
		if c.AsOf.IsZero() {
			c.AsOf = set.AsOf
		}
		if c.Tolerance == 0 {
			c.Tolerance = set.Tolerance
		}
		r := Grade(ctx, sys, q, &c, opts)
		out = append(out, r)
		if opts.Progress != nil {
			opts.Progress(i+1, len(set.Cases), &out[len(out)-1])
		}
	}
	return out, nil
}

// Grade runs and grades one case.
func Grade(ctx context.Context, sys System, q Querier, c *Case, opts Options) Result {
	asOf := c.AsOf
	if asOf.IsZero() {
		asOf = opts.AsOf
	}
	if asOf.IsZero() {
		y, m, d := time.Now().Date()
		asOf = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	r := Result{ID: c.ID, Question: c.Question, Expect: c.Expect, GoldSQL: c.SQL, File: c.File, Line: c.Line, GoldRows: -1}
	start := time.Now()
	actx, cancel := context.WithTimeout(ctx, opts.timeout())
	o, err := sys.Answer(actx, c.Question, asOf)
	cancel()
	r.Duration = time.Since(start)
	if err != nil {
		o = Outcome{Kind: OutcomeError, Message: quarry.Message(err), ErrKind: quarry.KindOf(err)}
		if errors.Is(err, context.DeadlineExceeded) {
			o.ErrKind = quarry.KindTimeout
		}
	}
	r.Outcome, r.SQL, r.Message, r.Confidence, r.Gap = o.Kind, o.SQL, o.Message, o.Confidence, o.Gap

	if c.Expect != "" {
		switch o.Kind {
		case OutcomeRefused, OutcomeClarify, OutcomeUnanswered:
			r.Status = StatusCorrect
			if !expectMatches(c.Expect, o.Kind) {
				r.Detail = fmt.Sprintf("expected %s, got %s (not an answer, so safe)", c.Expect, o.Kind)
			}
		case OutcomeAnswered:
			r.Status, r.Reason = StatusWrong, ReasonShouldRefuse
			r.Detail = "answered a question whose correct outcome is " + c.Expect
		default:
			r.Status, r.Reason = errorStatus(o)
			r.Detail = o.Message
		}
		return r
	}
	var gold *quarry.Table
	if o.Kind == OutcomeAnswered || opts.CheckGold {
		g, err := goldTable(ctx, q, c, opts)
		if err != nil {
			r.Status, r.Reason, r.Detail = StatusGoldError, ReasonGoldError, err.Error()
			return r
		}
		gold, r.GoldRows = g, len(g.Rows)
	}
	switch o.Kind {
	case OutcomeAnswered:
	case OutcomeRefused, OutcomeClarify, OutcomeUnanswered:
		r.Status, r.Reason, r.Detail = StatusRefused, ReasonRefused, o.Message
		return r
	default:
		r.Status, r.Reason = errorStatus(o)
		r.Detail = o.Message
		return r
	}
	if o.Table == nil {
		r.Status, r.Reason, r.Detail = StatusError, ReasonError, "the system answered without a result"
		return r
	}
	co := CompareOptions{Ordered: c.IsOrdered(), RelTolerance: c.Tolerance, ExtraColumns: opts.ExtraColumns}
	m := Compare(gold, o.Table, co)
	r.Extra = m.Extra
	if m.OK {
		r.Status = StatusCorrect
		return r
	}
	r.Status, r.Reason, r.Detail = StatusWrong, m.Reason, m.Detail
	if m.Reason == ReasonWrongColumns && !co.ExtraColumns {
		co.ExtraColumns = true
		if m2 := Compare(gold, o.Table, co); m2.OK {
			r.GoldInExtra = true
			r.Detail += "; the gold columns are all in the answer, with extra columns"
		}
	}
	return r
}

func expectMatches(expect, kind string) bool {
	switch expect {
	case ExpectRefuse:
		return kind == OutcomeRefused
	case ExpectClarify:
		return kind == OutcomeClarify
	case ExpectUnanswered:
		return kind == OutcomeUnanswered
	}
	return false
}

func errorStatus(o Outcome) (Status, Reason) {
	if o.ErrKind == quarry.KindTimeout {
		return StatusTimeout, ReasonTimeout
	}
	return StatusError, ReasonError
}

// goldTable runs the case's gold SQL or returns its expected rows.
func goldTable(ctx context.Context, q Querier, c *Case, opts Options) (*quarry.Table, error) {
	if c.HasRows {
		t := &quarry.Table{Rows: c.Rows}
		if len(c.Rows) > 0 {
			t.Columns = make([]quarry.Column, len(c.Rows[0]))
		}
		return t, nil
	}
	t, err := Materialise(ctx, q, c.SQL, opts.maxRows(), opts.timeout())
	// Gold SQL written for SQLite's legacy double-quoted string literals
	// ("Asia" for 'Asia', common in Spider) fails on a connection that,
	// rightly, reads double quotes as names only: re-run it with the
	// literals SQLite names single-quoted.
	sql := c.SQL
	for range 8 {
		if err == nil {
			break
		}
		lit, ok := doubleQuotedLiteral(err.Error())
		if !ok {
			break
		}
		fixed := singleQuote(sql, lit)
		if fixed == sql {
			break
		}
		sql = fixed
		t, err = Materialise(ctx, q, sql, opts.maxRows(), opts.timeout())
	}
	return t, err
}

// doubleQuotedLiteral extracts X from SQLite's message
// `no such column: "X" - should this be a string literal in single-quotes?`.
func doubleQuotedLiteral(msg string) (string, bool) {
	const head, tail = `no such column: "`, `" - should this be a string literal in single-quotes?`
	i := strings.Index(msg, head)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(head):]
	j := strings.Index(rest, tail)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// singleQuote rewrites every double-quoted token "lit" of sql (outside
// single-quoted literals and comments) as the string literal 'lit'.
func singleQuote(sql, lit string) string {
	var b strings.Builder
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(sql) {
				if sql[j] == '\'' {
					if j+1 < len(sql) && sql[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(sql))
			b.WriteString(sql[i:end])
			i = end
		case c == '"':
			j := i + 1
			for j < len(sql) {
				if sql[j] == '"' {
					if j+1 < len(sql) && sql[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(sql))
			tok := sql[i:end]
			if strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(tok, `"`), `"`), `""`, `"`) == lit {
				b.WriteString("'" + strings.ReplaceAll(lit, "'", "''") + "'")
			} else {
				b.WriteString(tok)
			}
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// Materialise runs sql on q and reads at most maxRows rows into a table,
// within timeout.
func Materialise(ctx context.Context, q Querier, sql string, maxRows int64, timeout time.Duration) (*quarry.Table, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rows, err := q.Query(ctx, sql, connector.QueryOptions{MaxRows: maxRows, Timeout: timeout})
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer rows.Close()
	t := &quarry.Table{Columns: rows.Columns()}
	for rows.Next() {
		t.Rows = append(t.Rows, append([]any(nil), rows.Values()...))
	}
	if err := rows.Err(); err != nil {
		return nil, classify(ctx, err)
	}
	if tr, ok := rows.(connector.Truncator); ok && tr.Truncated() {
		t.Truncated = true
	}
	return t, nil
}

func classify(ctx context.Context, err error) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return quarry.Wrap(quarry.KindTimeout, err, "the query ran out of time")
	}
	return quarry.Wrap(quarry.KindQuery, err, "the query failed")
}
