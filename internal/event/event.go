// Package event is the taxonomy of a run's events and the pure fold over
// them. A run is an append-only sequence of typed, versioned events; its
// status, SQL, row counts, timings, cost and answer are a Fold of that
// sequence and nothing else. Time and IDs arrive inside events, so folding
// and replaying are pure.
package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// Type names an event. Names are stable: a change in meaning gets a new
// Version, never a new meaning under an old one.
type Type string

// The event types. docs/events.md documents each payload.
const (
	RunStarted     Type = "run.started"
	QuestionParsed Type = "question.parsed" // the planner's reading of the question
	QuestionRead   Type = "question.read"   // the query the question became, in business terms
	PlanMade       Type = "plan.made"       // a metric query or a verified query was chosen
	Clarification  Type = "clarification"   // the planner asks one precise question instead of guessing
	SQLGenerated   Type = "sql.generated"
	GuardChecked   Type = "guard.checked"
	QueryExecuted  Type = "query.executed"
	QueryFailed    Type = "query.failed"
	ChecksRan      Type = "checks.ran"
	AnswerRendered Type = "answer.rendered"
	RunFinished    Type = "run.finished"
)

// Version is the current schema version of every payload in this package.
const Version = 1

// Event is one entry of a run's log.
type Event struct {
	RunID   string          `json:"run_id"`
	Seq     int64           `json:"seq"` // 1, 2, 3… within a run
	Type    Type            `json:"type"`
	Version int             `json:"version"`
	At      time.Time       `json:"at"`
	Data    json.RawMessage `json:"data"`
}

// Payload is implemented by every typed event body.
type Payload interface {
	EventType() Type
}

// New builds an event from a typed payload.
func New(runID string, seq int64, at time.Time, p Payload) (Event, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s: %w", p.EventType(), err)
	}
	return Event{RunID: runID, Seq: seq, Type: p.EventType(), Version: Version, At: at.UTC(), Data: data}, nil
}

// Decode returns the typed payload of e. Unknown types decode to nil with no
// error, so that old binaries can fold logs written by newer ones.
func Decode(e Event) (Payload, error) {
	var p Payload
	switch e.Type {
	case RunStarted:
		p = &RunStartedData{}
	case QuestionParsed:
		p = &QuestionParsedData{}
	case QuestionRead:
		p = &ReadingData{}
	case PlanMade:
		p = &PlanMadeData{}
	case Clarification:
		p = &ClarificationData{}
	case SQLGenerated:
		p = &SQLGeneratedData{}
	case GuardChecked:
		p = &GuardCheckedData{}
	case QueryExecuted:
		p = &QueryExecutedData{}
	case QueryFailed:
		p = &QueryFailedData{}
	case ChecksRan:
		p = &ChecksRanData{}
	case AnswerRendered:
		p = &AnswerRenderedData{}
	case RunFinished:
		p = &RunFinishedData{}
	case ModelCalled:
		p = &ModelCalledData{}
	case ToolCalled:
		p = &ToolCalledData{}
	case RepairAttempted:
		p = &RepairAttemptedData{}
	case QueryProposed:
		p = &QueryProposedData{}
	case ResultsPasted:
		p = &ResultsPastedData{}
	case FixProposed:
		p = &FixProposedData{}
	case AgentFailed:
		p = &AgentFailedData{}
	case SchemaShown:
		p = &SchemaShownData{}
	case WorkflowStarted:
		p = &WorkflowStartedData{}
	case WorkflowNodeStarted:
		p = &WorkflowNodeStartedData{}
	case WorkflowNodeFinished:
		p = &WorkflowNodeFinishedData{}
	case WorkflowWaiting:
		p = &WorkflowWaitingData{}
	case WorkflowResumed:
		p = &WorkflowResumedData{}
	case ApprovalRequested:
		p = &ApprovalRequestedData{}
	case ApprovalDecided:
		p = &ApprovalDecidedData{}
	default:
		return nil, nil
	}
	if err := json.Unmarshal(e.Data, p); err != nil {
		return nil, fmt.Errorf("decode %s event %d of run %s: %w", e.Type, e.Seq, e.RunID, err)
	}
	return p, nil
}

// RunStartedData opens a run.
type RunStartedData struct {
	Kind       string `json:"kind"`                 // "run" (the user's SQL) or "ask" (a question)
	Question   string `json:"question,omitempty"`   // for ask
	SQL        string `json:"sql,omitempty"`        // for run
	Connection string `json:"connection,omitempty"` // connection name and target, never secrets
	Dialect    string `json:"dialect,omitempty"`
	Planner    string `json:"planner,omitempty"` // "builtin", or the model's name
	AsOf       string `json:"as_of,omitempty"`   // the date relative phrases were read against
	SessionID  string `json:"session_id,omitempty"`
	Knowledge  string `json:"knowledge,omitempty"` // a hash of the knowledge folder
	// Owner and Tenant say whose run it is: the person who asked and the
	// team they asked in. Both are empty on a single-user project.
	Owner  string `json:"owner,omitempty"`
	Tenant string `json:"tenant,omitempty"`
	// PrivilegedRole is set when the connection's role can do more than
	// read and allow_privileged_role let quarry run on it anyway: what the
	// role may do, e.g. "role postgres: superuser".
	PrivilegedRole string `json:"privileged_role,omitempty"`
	// PolicyOff is set when the user ran their own statement at their
	// terminal with the column policy turned off (quarry run --no-policy).
	PolicyOff bool `json:"policy_off,omitempty"`
	// Privacy is the connection's privacy tier when a language model
	// planned the run: what of its data may reach the model (full,
	// aggregates-only or schema-only); MinGroupSize is the smallest group
	// an aggregates-only run shows the model.
	Privacy      string `json:"privacy,omitempty"`
	MinGroupSize int    `json:"min_group_size,omitempty"`
	// Replica is the quarry serve process that runs it, when several
	// share the state: if that process stops saying it is alive, another
	// finishes the run as failed.
	Replica string `json:"replica,omitempty"`
}

// QuestionParsedData records what the planner understood and did not.
type QuestionParsedData struct {
	Understood   []string `json:"understood,omitempty"`
	Unknown      []string `json:"unknown,omitempty"`
	Alternatives []string `json:"alternatives,omitempty"`
	// DidYouMean is the question with its unknown words corrected, when
	// that question plans.
	DidYouMean string `json:"did_you_mean,omitempty"`
}

// ReadingData is how quarry read a question, in business terms: what is
// measured and how, which filters apply to which columns, the period and
// the date column it is applied to, the grouping and its grain, the order,
// and which rows are counted. A reader spots a misreading here without
// reading SQL.
type ReadingData struct {
	// Text is the reading in one line.
	Text string `json:"text"`
	// Source is what wrote the query read: "metric", "rows" (the builtin
	// planner), "verified_query", "model" (a model's query_metric).
	Source   string         `json:"source"`
	Measures []ReadMeasure  `json:"measures,omitempty"`
	List     string         `json:"list,omitempty"` // a list of rows: the entity and its columns
	Filters  []ReadFilter   `json:"filters,omitempty"`
	Period   *ReadPeriod    `json:"period,omitempty"`
	Compare  []string       `json:"compare,omitempty"` // compared periods, by label
	GroupBy  []ReadGrouping `json:"group_by,omitempty"`
	Order    string         `json:"order,omitempty"`
	// Ties says that the order's limit keeps every row that ties the
	// last one kept, so several rows may share the first place.
	Ties bool `json:"ties,omitempty"`
	// KnownGroups are the values the knowledge lists for the one
	// grouping of a count or a sum, when it lists them: a value missing
	// from the result had nothing to count, and the answer says so.
	KnownGroups []string `json:"known_groups,omitempty"`
	// Population says which rows a count or sum runs over, and that
	// groups with none are left out, where that matters.
	Population string `json:"population,omitempty"`
	// Ignored are the question's words the planner read past ("placed",
	// "still"), listed so that a reader can tell whether one mattered.
	Ignored []string `json:"ignored,omitempty"`
}

// ReadMeasure is one measure of a reading.
type ReadMeasure struct {
	Name string `json:"name"`
	How  string `json:"how"` // how it is computed: the aggregate, over what, always-applied conditions
}

// ReadFilter is one filter of a reading: what it says and the column it
// applies to.
type ReadFilter struct {
	Text   string `json:"text"`
	Column string `json:"column"`
}

// ReadPeriod is the period of a reading: the first and last day, both
// included, and the date column it is applied to.
type ReadPeriod struct {
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Column string `json:"column,omitempty"`
}

// ReadGrouping is one grouping of a reading.
type ReadGrouping struct {
	Name   string `json:"name"`
	Column string `json:"column"`
	Grain  string `json:"grain,omitempty"`
}

// PlanMadeData records the plan: a metric query or a verified query.
type PlanMadeData struct {
	Source string          `json:"source"` // "metric", "verified_query", "rows", "model"
	Plan   json.RawMessage `json:"plan,omitempty"`
}

// ClarificationData is a question back to the user instead of a guess.
type ClarificationData struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}

// SQLGeneratedData records a statement about to be guarded.
type SQLGeneratedData struct {
	SQL    string `json:"sql"`
	Source string `json:"source"` // "user", "builtin", "model", "repair", "fix"
}

// Violation is one guard finding, as recorded in the log.
type Violation struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Pos     int    `json:"pos"`
}

// GuardCheckedData records the guard's verdict.
type GuardCheckedData struct {
	Allowed    bool        `json:"allowed"`
	Dialect    string      `json:"dialect"`
	Violations []Violation `json:"violations,omitempty"`
}

// QueryExecutedData records a finished query.
type QueryExecutedData struct {
	Rows       int64    `json:"rows"`
	Truncated  bool     `json:"truncated,omitempty"`
	DurationMS float64  `json:"duration_ms"`
	Columns    []string `json:"columns,omitempty"`
	ResultID   string   `json:"result_id,omitempty"`
	ResultHash string   `json:"result_hash,omitempty"`
	// Cached is true when the rows came from the result cache, not the
	// database.
	Cached bool `json:"cached,omitempty"`
}

// QueryFailedData records a query the database refused or that failed.
type QueryFailedData struct {
	Kind       string  `json:"kind"` // a quarry error kind
	Message    string  `json:"message"`
	DurationMS float64 `json:"duration_ms,omitempty"`
}

// Check is one verification check, as recorded in the log.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // "pass", "warn", "fail"
	Detail string `json:"detail,omitempty"`
}

// ChecksRanData records the verification checks and the confidence computed
// from them.
type ChecksRanData struct {
	Checks     []Check `json:"checks"`
	Confidence float64 `json:"confidence"`
}

// AnswerRenderedData records the answer shown to the user.
type AnswerRenderedData struct {
	Markdown string `json:"markdown"`
	Chart    string `json:"chart,omitempty"` // the chart kind, e.g. "line", "bar", "figure"
	// Cells are the result's first rows as the answer writes them
	// ("$1,234.50", "2025-01"), so that the answer shown again from the
	// log formats its table as it did the first time.
	Cells [][]string `json:"cells,omitempty"`
}

// RunFinishedData closes a run.
type RunFinishedData struct {
	Status  string `json:"status"` // "succeeded", "failed", "rejected", "unanswered", "canceled"
	Error   string `json:"error,omitempty"`
	Kind    string `json:"kind,omitempty"`
	CostUSD int64  `json:"cost_micro_usd,omitempty"`
}

// EventType implementations.
func (*RunStartedData) EventType() Type     { return RunStarted }
func (*QuestionParsedData) EventType() Type { return QuestionParsed }

// EventType implements Payload.
func (*ReadingData) EventType() Type        { return QuestionRead }
func (*PlanMadeData) EventType() Type       { return PlanMade }
func (*ClarificationData) EventType() Type  { return Clarification }
func (*SQLGeneratedData) EventType() Type   { return SQLGenerated }
func (*GuardCheckedData) EventType() Type   { return GuardChecked }
func (*QueryExecutedData) EventType() Type  { return QueryExecuted }
func (*QueryFailedData) EventType() Type    { return QueryFailed }
func (*ChecksRanData) EventType() Type      { return ChecksRan }
func (*AnswerRenderedData) EventType() Type { return AnswerRendered }
func (*RunFinishedData) EventType() Type    { return RunFinished }
