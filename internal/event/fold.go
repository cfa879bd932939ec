package event

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Run statuses. A run without a run.finished event is StatusRunning: either
// it is still in progress or its process was interrupted before it could
// finish; listings show both as running.
const (
	StatusRunning    = "running"
	StatusSucceeded  = "succeeded"
	StatusFailed     = "failed"
	StatusRejected   = "rejected"
	StatusUnanswered = "unanswered"
	StatusCanceled   = "canceled"
)

// RunState is what a run's event log says about the run. It is derived by
// Fold and never stored as the truth.
type RunState struct {
	RunID  string `json:"run_id"`
	Kind   string `json:"kind"`   // "run" or "ask"
	Status string `json:"status"` // one of the Status constants

	Question string   `json:"question,omitempty"`
	SQL      string   `json:"sql,omitempty"`  // the last SQL generated (or, before any, the SQL the run started with)
	SQLs     []string `json:"sqls,omitempty"` // every SQL generated, in order

	Dialect    string `json:"dialect,omitempty"`
	Connection string `json:"connection,omitempty"`
	Planner    string `json:"planner,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	Owner      string `json:"owner,omitempty"`
	Tenant     string `json:"tenant,omitempty"`
	Replica    string `json:"replica,omitempty"` // the serve process that ran it (run.started)
	AsOf       string `json:"as_of,omitempty"`
	Knowledge  string `json:"knowledge,omitempty"`
	// PrivilegedRole says the run was made on a role that can do more than
	// read, allowed by allow_privileged_role.
	PrivilegedRole string `json:"privileged_role,omitempty"`
	// PolicyOff says the column policy was off for the run (quarry run
	// --no-policy, at the user's own terminal).
	PolicyOff  bool   `json:"policy_off,omitempty"`
	PlanSource string `json:"plan_source,omitempty"`
	// Privacy is the connection's privacy tier of a run a model planned,
	// MinGroupSize its minimum group under aggregates-only, and Withheld
	// what the tier kept from the model, one entry per tool call.
	Privacy      string   `json:"privacy,omitempty"`
	MinGroupSize int      `json:"min_group_size,omitempty"`
	Withheld     []string `json:"withheld,omitempty"`

	Allowed    *bool       `json:"allowed,omitempty"` // the guard's verdict on SQL; nil until checked
	Violations []Violation `json:"violations,omitempty"`

	Rows       int64    `json:"rows"`
	Truncated  bool     `json:"truncated,omitempty"`
	Columns    []string `json:"columns,omitempty"`
	ResultID   string   `json:"result_id,omitempty"`
	ResultHash string   `json:"result_hash,omitempty"`

	Checks     []Check  `json:"checks,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`

	Answer string `json:"answer,omitempty"`
	Chart  string `json:"chart,omitempty"`
	// Cells are the answer's first rows as its text writes them.
	Cells         [][]string `json:"cells,omitempty"`
	Clarification string     `json:"clarification,omitempty"`
	Understood    []string   `json:"understood,omitempty"`
	Unknown       []string   `json:"unknown,omitempty"`
	// Reading is how the question was read in business terms (nil for a
	// run of the user's SQL, or SQL a model wrote itself).
	Reading *ReadingData `json:"reading,omitempty"`

	Error     string `json:"error,omitempty"`
	ErrorKind string `json:"error_kind,omitempty"`

	StartedAt     time.Time     `json:"started_at,omitzero"`
	FinishedAt    time.Time     `json:"finished_at,omitzero"`
	Duration      time.Duration `json:"duration_ns"`       // FinishedAt - StartedAt, once finished
	QueryDuration time.Duration `json:"query_duration_ns"` // the sum of every query's duration
	CostMicroUSD  int64         `json:"cost_micro_usd"`

	// Token totals over every model.called event.
	InputTokens      int64 `json:"input_tokens,omitempty"`
	OutputTokens     int64 `json:"output_tokens,omitempty"`
	CacheReadTokens  int64 `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`

	// The language-model path: tool calls and repairs made, the query
	// proposed in manual mode, and whether a person ran the result.
	ToolCalls     int    `json:"tool_calls,omitempty"`
	Repairs       int    `json:"repairs,omitempty"`
	ProposedSQL   string `json:"proposed_sql,omitempty"`
	RunByUser     bool   `json:"run_by_user,omitempty"`
	FailureReason string `json:"failure_reason,omitempty"`

	// Approvals are the statements that waited for a person's approval
	// (approval mode), in order, with their decisions.
	Approvals []Approval `json:"approvals,omitempty"`

	Events  int   `json:"events"`   // distinct events folded, unknown types included
	LastSeq int64 `json:"last_seq"` // the highest sequence number seen
}

// Fold derives a run's state from its events. The events may arrive in any
// order: they are folded in sequence order (events is never modified). An
// exact duplicate of an event (same run, seq and content) is ignored; two
// different events with one sequence number, events of different runs, or a
// sequence number below 1 are errors. Events of unknown types, and of
// versions newer than this package knows, count towards Events and LastSeq
// and change nothing else. Gaps in the sequence are allowed. Fold is pure:
// the same events always give the same state.
func Fold(events []Event) (RunState, error) {
	ordered, err := order(events)
	if err != nil {
		return RunState{}, err
	}
	var st RunState
	for _, e := range ordered {
		if err := apply(&st, e); err != nil {
			return RunState{}, err
		}
	}
	return st, nil
}

// Replay folds events one at a time, in sequence order, and calls visit
// with the state after each one and the event that produced it. The state
// handed to visit is the visitor's to keep. A non-nil error from visit stops
// the replay and is returned. The state after the last visit equals Fold's.
func Replay(events []Event, visit func(RunState, Event) error) error {
	ordered, err := order(events)
	if err != nil {
		return err
	}
	var st RunState
	for _, e := range ordered {
		if err := apply(&st, e); err != nil {
			return err
		}
		if err := visit(st.clone(), e); err != nil {
			return err
		}
	}
	return nil
}

// order returns a sorted copy of events with exact duplicates removed.
func order(events []Event) ([]Event, error) {
	out := slices.Clone(events)
	slices.SortStableFunc(out, func(a, b Event) int { return cmp.Compare(a.Seq, b.Seq) })
	kept := out[:0]
	for _, e := range out {
		if e.Seq < 1 {
			return nil, quarry.Errorf(quarry.KindInput, "event of type %q in run %s has sequence number %d; sequence numbers start at 1", e.Type, e.RunID, e.Seq)
		}
		if e.RunID != out[0].RunID {
			return nil, quarry.Errorf(quarry.KindInput, "events of two runs (%s and %s) were folded together; fold one run at a time", out[0].RunID, e.RunID)
		}
		if n := len(kept); n > 0 && kept[n-1].Seq == e.Seq {
			if !sameEvent(kept[n-1], e) {
				return nil, quarry.Errorf(quarry.KindConflict, "run %s has two different events with sequence number %d; the log is corrupt", e.RunID, e.Seq)
			}
			continue
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// sameEvent reports whether a and b are the same event. Payloads are
// compared as JSON text with insignificant space removed.
func sameEvent(a, b Event) bool {
	if a.RunID != b.RunID || a.Seq != b.Seq || a.Type != b.Type || a.Version != b.Version || !a.At.Equal(b.At) {
		return false
	}
	return bytes.Equal(compact(a.Data), compact(b.Data))
}

func compact(data json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return data
	}
	return buf.Bytes()
}

// apply folds one event into st.
func apply(st *RunState, e Event) error {
	if st.Events == 0 {
		st.RunID = e.RunID
		st.Status = StatusRunning
	}
	st.Events++
	st.LastSeq = max(st.LastSeq, e.Seq)
	if e.Version > Version {
		return nil // written by a newer quarry; its meaning is unknown here
	}
	p, err := Decode(e)
	if err != nil {
		return quarry.Wrap(quarry.KindInput, err, "run %s has an unreadable %s event (seq %d)", e.RunID, e.Type, e.Seq)
	}
	switch d := p.(type) {
	case *RunStartedData:
		st.Kind = d.Kind
		st.Question = d.Question
		if st.SQL == "" {
			st.SQL = d.SQL
		}
		st.Connection = d.Connection
		st.Dialect = d.Dialect
		st.Planner = d.Planner
		st.AsOf = d.AsOf
		st.SessionID = d.SessionID
		st.Owner = d.Owner
		st.Tenant = d.Tenant
		st.Replica = d.Replica
		st.Knowledge = d.Knowledge
		st.PrivilegedRole = d.PrivilegedRole
		st.PolicyOff = d.PolicyOff
		st.Privacy, st.MinGroupSize = d.Privacy, d.MinGroupSize
		st.StartedAt = e.At
	case *QuestionParsedData:
		st.Understood = slices.Clone(d.Understood)
		st.Unknown = slices.Clone(d.Unknown)
	case *ReadingData:
		st.Reading = d
	case *PlanMadeData:
		st.PlanSource = d.Source
	case *ClarificationData:
		st.Clarification = d.Question
	case *SQLGeneratedData:
		st.SQL = d.SQL
		st.SQLs = append(st.SQLs, d.SQL)
		// A new statement has not been guarded yet.
		st.Allowed = nil
		st.Violations = nil
	case *GuardCheckedData:
		allowed := d.Allowed
		st.Allowed = &allowed
		st.Violations = slices.Clone(d.Violations)
		if d.Dialect != "" {
			st.Dialect = d.Dialect
		}
	case *QueryExecutedData:
		st.Rows = d.Rows
		st.Truncated = d.Truncated
		st.Columns = slices.Clone(d.Columns)
		st.ResultID = d.ResultID
		st.ResultHash = d.ResultHash
		st.QueryDuration += millis(d.DurationMS)
		// A query that succeeded supersedes an earlier failure (a repair).
		st.Error, st.ErrorKind = "", ""
	case *QueryFailedData:
		st.Error = d.Message
		st.ErrorKind = d.Kind
		st.QueryDuration += millis(d.DurationMS)
	case *ChecksRanData:
		st.Checks = slices.Clone(d.Checks)
		conf := d.Confidence
		st.Confidence = &conf
	case *AnswerRenderedData:
		st.Answer = d.Markdown
		st.Chart = d.Chart
		st.Cells = d.Cells
	case *ModelCalledData:
		st.CostMicroUSD += d.CostMicroUSD
		st.InputTokens += d.InputTokens
		st.OutputTokens += d.OutputTokens
		st.CacheReadTokens += d.CacheReadTokens
		st.CacheWriteTokens += d.CacheWriteTokens
	case *ToolCalledData:
		st.ToolCalls++
		if d.Withheld != "" {
			st.Withheld = append(st.Withheld, d.Tool+": "+d.Withheld)
		}
	case *RepairAttemptedData:
		st.Repairs++
	case *QueryProposedData:
		st.ProposedSQL = d.SQL
	case *ResultsPastedData:
		st.RunByUser = true
		st.Rows = d.Rows
		st.Columns = slices.Clone(d.Columns)
		st.ResultID = d.ResultID
		st.ResultHash = d.ResultHash
	case *AgentFailedData:
		st.FailureReason = d.Reason
	case *ApprovalRequestedData:
		st.Approvals = append(st.Approvals, Approval{ApprovalRequestedData: *d, RequestedAt: e.At})
		if st.FinishedAt.IsZero() {
			st.Status = StatusAwaitingApproval
		}
	case *ApprovalDecidedData:
		for i := range st.Approvals {
			if a := &st.Approvals[i]; a.Statement == d.Statement && a.Decided == nil {
				a.Decided, a.DecidedAt = d, e.At
				if st.Status == StatusAwaitingApproval && st.Pending() == nil {
					st.Status = StatusRunning
				}
				break
			}
		}
	case *RunFinishedData:
		if d.Status != "" {
			st.Status = d.Status
		}
		if d.Error != "" || d.Kind != "" {
			st.Error = d.Error
			st.ErrorKind = d.Kind
		}
		if d.CostUSD != 0 { // a total stated at the end wins over the sum
			st.CostMicroUSD = d.CostUSD
		}
		st.FinishedAt = e.At
		if !st.StartedAt.IsZero() {
			st.Duration = st.FinishedAt.Sub(st.StartedAt)
		}
	}
	return nil
}

// millis converts a duration in (fractional) milliseconds, rounding to the
// microsecond so that the sum does not depend on float noise below it.
func millis(ms float64) time.Duration {
	return time.Duration(math.Round(ms*1000)) * time.Microsecond
}

// clone returns a copy of st that shares no slices or pointers with it.
func (st RunState) clone() RunState {
	c := st
	c.SQLs = slices.Clone(st.SQLs)
	c.Violations = slices.Clone(st.Violations)
	c.Columns = slices.Clone(st.Columns)
	c.Checks = slices.Clone(st.Checks)
	c.Understood = slices.Clone(st.Understood)
	c.Unknown = slices.Clone(st.Unknown)
	c.Approvals = slices.Clone(st.Approvals)
	if st.Allowed != nil {
		a := *st.Allowed
		c.Allowed = &a
	}
	if st.Confidence != nil {
		f := *st.Confidence
		c.Confidence = &f
	}
	return c
}
