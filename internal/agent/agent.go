package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
	"github.com/quarrydata/quarry/internal/verify"
)

// Querier runs one guarded statement and streams its rows.
type Querier interface {
	Dialect() quarry.Dialect
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
}

// Gateway starts a metered run of model calls; *llm.Gateway is one.
type Gateway interface {
	Run(b llm.Budget, emit func(*event.ModelCalledData)) *llm.Run
	ProviderName() string
	Models() llm.Models
}

// Builtin answers a question with the builtin planner; *analyst.Analyst is
// one. The agent hands it the questions that map exactly onto a verified
// query or a metric.
type Builtin interface {
	Ask(ctx context.Context, rec *event.Recorder, k *analyst.Knowledge, question string, asOf time.Time) (*analyst.AskOutcome, error)
}

// Verified is an approved question and its SQL, shown to the model.
type Verified struct {
	Question string
	SQL      string
}

// Limits bound one run of the loop.
type Limits struct {
	MaxSteps       int        // model calls in one run; 0 for DefaultMaxSteps
	Budget         llm.Budget // the run's model budget; MaxCalls 0 for MaxSteps+2
	PreviewRows    int        // rows of a result the model sees; 0 for DefaultPreviewRows
	RepairAttempts int        // failed queries fed back before the run gives up; negative for none
	// MaxRows caps the rows a query reads (0 for DefaultMaxRows); the rest
	// bound each statement as in analyst.Limits.
	MaxRows          int64
	StatementTimeout time.Duration
	MaxCost          float64
	MaxEstimatedRows int64
	// MaxValueBytes and MaxResultBytes bound what a query reads (the
	// agent holds each result whole); 0 means no bound.
	MaxValueBytes  int64
	MaxResultBytes int64
	// SchemaBudget bounds the tokens of schema one run shows the model
	// (the prompt's tables and every search_schema and describe_table
	// result together); 0 for DefaultSchemaBudget.
	SchemaBudget int
}

// Defaults of Limits.
const (
	DefaultMaxSteps    = 16
	DefaultPreviewRows = 20
	DefaultMaxRows     = 10000
)

func (l Limits) maxSteps() int {
	if l.MaxSteps > 0 {
		return l.MaxSteps
	}
	return DefaultMaxSteps
}

func (l Limits) preview() int {
	if l.PreviewRows > 0 {
		return l.PreviewRows
	}
	return DefaultPreviewRows
}

func (l Limits) maxRows() int64 {
	if l.MaxRows > 0 {
		return l.MaxRows
	}
	return DefaultMaxRows
}

func (l Limits) repairs() int { return max(0, l.RepairAttempts) }

// Agent answers questions with a language model. Conn nil is manual mode:
// the model proposes a query for a person to run.
type Agent struct {
	Gateway Gateway
	Conn    Querier        // nil in manual mode
	Dialect quarry.Dialect // the SQL dialect when Conn is nil
	// Catalog is the live schema, when known; the semantic model is used
	// where it is nil.
	Catalog *quarry.Catalog
	// Withheld names the relations the column policy refuses as a whole
	// (views over restricted columns), by lower-case name: they are left
	// out of the schema the model sees.
	Withheld  map[string]bool
	Guard     analyst.Guard
	Results   analyst.Results // may be nil
	Knowledge *analyst.Knowledge
	Verified  []Verified
	// KnowledgeDir is the knowledge folder read_knowledge is confined to.
	KnowledgeDir string
	// Schema, when set, keeps the retrieval index of the schema between
	// runs of agents that share it (nil: each run builds its own).
	Schema *SchemaIndex
	// Builtin answers, fast, free and exact, the questions the builtin
	// planner maps onto a verified query or a metric (nil: never).
	Builtin Builtin
	// PreferModel sends every question to the model, even those the
	// builtin planner answers exactly.
	PreferModel bool
	Limits      Limits
	Connection  string // the connection's name and target, for provenance
	// PrivilegedRole, when set, says that the connection's role can do
	// more than read and the configuration allowed it (run.started).
	PrivilegedRole string
	// Privacy is what of the connection's data may reach the model (full
	// when not set); MinGroupSize is the smallest group it shows under
	// aggregates-only (quarry.DefaultMinGroupSize when not set).
	Privacy      quarry.Privacy
	MinGroupSize int
	// Approval, when set, makes every statement the model has run (its
	// run_query and query_metric) wait for a person's approval before it
	// reaches the database (docs/approval.md); nil: approval is off.
	Approval *analyst.Approval
	Clock    func() time.Time
}

// Turn is an earlier question of the same session, for follow-ups.
type Turn struct {
	Question string `json:"question"`
	SQL      string `json:"sql,omitempty"`
	Answer   string `json:"answer,omitempty"` // the headline
	// Status is how the turn ended (event.Status…); "" when unknown.
	Status string `json:"status,omitempty"`
}

// AskOptions are the per-question options of Ask.
type AskOptions struct {
	SessionID string
	History   []Turn // earlier turns, oldest first
}

func (a *Agent) now() time.Time {
	if a.Clock != nil {
		return a.Clock()
	}
	return time.Now()
}

func (a *Agent) dialect() quarry.Dialect {
	if a.Conn != nil {
		return a.Conn.Dialect()
	}
	if a.Dialect != "" {
		return a.Dialect
	}
	return quarry.DialectGeneric
}

// Manual reports whether the agent proposes queries instead of running them.
func (a *Agent) Manual() bool { return a.Conn == nil }

// PlannerName is how runs name the model that plans: "provider:model".
func (a *Agent) PlannerName() string {
	if a.Gateway == nil {
		return "builtin"
	}
	return a.Gateway.ProviderName() + ":" + a.Gateway.Models().Strong
}

// Exact reports whether the builtin planner maps question exactly onto a
// verified query or a metric, so that its answer is used instead of the
// model's (unless PreferModel).
func (a *Agent) Exact(ctx context.Context, question string, asOf time.Time) bool {
	if a.PreferModel || a.Knowledge == nil || a.Knowledge.Planner == nil {
		return false
	}
	pl, _, err := a.Knowledge.Plan(ctx, question, asOf)
	return err == nil && pl != nil && len(pl.Unknown) == 0 && (pl.Kind == planner.KindVerified || pl.Kind == planner.KindMetric)
}

// run is one question's state: the recorder, the model run, the policy and
// the results so far.
type run struct {
	a       *Agent
	em      *analyst.Emitter
	policy  *policy
	model   *llm.Run
	step    int
	repairs int
	results []*result // successful queries, in order
	byTool  map[string]int
	extra   []verify.Check // checks of the run's own, added to verify's
	note    string         // a last paragraph of the answer
	out     *analyst.AskOutcome
	asOf    time.Time
	q       string
	// withheld is what of the current tool call's output the privacy
	// tier kept from the model, recorded on its tool.called event.
	withheld string
	// The retrieval index of what the model may see, and the tokens of
	// schema shown so far against the run's budget.
	index        *retrieval.Index
	shown        int
	schemaBudget int
}

func (r *run) emit(ctx context.Context, p event.Payload) { r.em.Emit(ctx, p) }

func (r *run) flush(ctx context.Context) { r.em.Flush(ctx) }

// failure ends the loop without an answer.
type failure struct {
	reason string
	err    error
}

func (f *failure) Error() string { return quarry.Message(f.err) }
func (f *failure) Unwrap() error { return f.err }

func fail(reason string, kind quarry.Kind, format string, args ...any) *failure {
	return &failure{reason: reason, err: quarry.Errorf(kind, format, args...)}
}

// Ask answers question: the builtin planner's answer when the question maps
// exactly (see Exact) or no model is configured, otherwise the model's,
// through the tool loop. In
// manual mode the run stops at a proposed query with status
// event.StatusAwaitingResults. A run that cannot answer ends with a
// recorded failure and an error (KindModel for the model's failures),
// never with a partial answer.
func (a *Agent) Ask(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts AskOptions) (*analyst.AskOutcome, error) {
	if a.Gateway == nil && a.Conn != nil && a.Builtin != nil && a.Knowledge != nil && a.Knowledge.Planner != nil {
		// No model: the builtin planner, which reads one question at a
		// time, gets a follow-up made whole ("and by month?").
		return a.Builtin.Ask(ctx, rec, a.Knowledge, FollowUp(opts.History, question), asOf)
	}
	if a.Builtin != nil && a.Conn != nil && len(opts.History) == 0 && a.Exact(ctx, question, asOf) {
		return a.Builtin.Ask(ctx, rec, a.Knowledge, question, asOf)
	}
	day := asOf.Format("2006-01-02")
	r := &run{a: a, em: analyst.NewEmitter(rec), policy: newPolicy(a.model()), byTool: map[string]int{}, asOf: asOf, q: question,
		out: &analyst.AskOutcome{RunID: rec.RunID(), Question: question, AsOf: day}}
	r.emit(ctx, &event.RunStartedData{Kind: "ask", Question: question, Connection: a.Connection, Dialect: string(a.dialect()),
		Planner: a.PlannerName(), AsOf: day, SessionID: opts.SessionID, Knowledge: a.knowledgeHash(), PrivilegedRole: a.PrivilegedRole,
		Privacy: string(a.tier()), MinGroupSize: a.groupSizeRecorded()})
	var err error
	switch {
	case a.Gateway == nil && a.Conn == nil:
		err = r.proposeBuiltin(ctx, question)
	case a.Gateway == nil:
		err = quarry.Errorf(quarry.KindConfig, "no language model is configured")
	default:
		err = r.loop(ctx, question, opts.History)
	}
	return r.finish(ctx, err)
}

// finish records how the run ended and returns the outcome.
func (r *run) finish(ctx context.Context, err error) (*analyst.AskOutcome, error) {
	out := r.out
	var cost int64
	if r.model != nil {
		cost = r.model.Cost()
	}
	switch {
	case err == nil && out.Status == event.StatusAwaitingResults:
		r.emit(ctx, &event.RunFinishedData{Status: event.StatusAwaitingResults, CostUSD: cost})
	case err == nil:
		out.Status = event.StatusSucceeded
		r.emit(ctx, &event.RunFinishedData{Status: out.Status, CostUSD: cost})
	default:
		var f *failure
		reason := "model"
		if fe, ok := err.(*failure); ok {
			f = fe
			reason, err = f.reason, f.err
		}
		if quarry.KindOf(err) == quarry.KindCanceled {
			reason = "canceled"
		}
		if r.model != nil {
			r.emit(ctx, &event.AgentFailedData{Reason: reason, Message: quarry.Message(err), Steps: r.step})
		}
		status := statusOf(err)
		if out.Status != "clarify" {
			out.Status = status
		}
		out.Message = quarry.Message(err)
		r.emit(ctx, &event.RunFinishedData{Status: status, Error: out.Message, Kind: string(quarry.KindOf(err)), CostUSD: cost})
	}
	r.flush(ctx)
	if err == nil && r.em.Err() != nil {
		err = quarry.Wrap(quarry.KindInternal, r.em.Err(), "the run could not be recorded in quarry's state database")
	}
	return out, err
}

func statusOf(err error) string {
	switch quarry.KindOf(err) {
	case quarry.KindCanceled:
		return event.StatusCanceled
	case quarry.KindRejected, quarry.KindForbidden:
		return event.StatusRejected
	case quarry.KindUnanswered:
		return event.StatusUnanswered
	}
	return event.StatusFailed
}

// loop is the bounded tool loop.
func (r *run) loop(ctx context.Context, question string, history []Turn) error {
	a := r.a
	l := a.Limits
	budget := l.Budget
	if budget.MaxCalls == 0 {
		budget.MaxCalls = l.maxSteps() + 2
	}
	r.model = a.Gateway.Run(budget, func(d *event.ModelCalledData) { r.emit(ctx, d) })
	planJSON, _ := json.Marshal(map[string]any{"prompt_version": PromptVersion, "model": a.PlannerName(), "manual": a.Manual()})
	r.emit(ctx, &event.PlanMadeData{Source: "model", Plan: planJSON})

	r.index, r.schemaBudget = a.schemaIndex(r.policy), l.schemaBudget()
	var values []retrieval.Value
	if !a.restricted() {
		values = a.values(ctx, r.policy, question)
	}
	schema, shown := a.schemaContext(r.policy, r.index, question, values, r.schemaBudget/2)
	schema = r.policy.scrub(schema)
	r.spend(ctx, "prompt", question, schema, shown)
	req := llm.Request{
		System: []llm.SystemBlock{
			{Text: a.prompt()},
			{Text: schema, Cache: true},
		},
		Tools: a.tools(),
	}
	req.Messages = []llm.Message{llm.UserText(r.policy.scrub(userMessage(question, r.out.AsOf, a.turns(history))))}
	textOnly := 0 // replies in a row that called no tool
	for r.step = 1; r.step <= l.maxSteps(); r.step++ {
		if v := r.policy.leaks(requestText(req)); v != "" {
			return fail("policy", quarry.KindInternal, "a restricted value was about to be sent to the model; the run was stopped (please report it)")
		}
		resp, err := r.model.Complete(ctx, req, nil)
		if err != nil {
			reason := "model"
			if strings.Contains(quarry.Message(err), "budget is spent") {
				reason = "budget"
			}
			if quarry.KindOf(err) == quarry.KindCanceled {
				return err
			}
			if llm.ContextOverflow(err) {
				err = quarry.Wrap(quarry.KindModel, err, "%s; %s", quarry.Message(err), llm.ContextFix)
			}
			return &failure{reason: reason, err: asModelError(err)}
		}
		req.Messages = append(req.Messages, resp.AssistantMessage())
		uses := resp.ToolUses()
		if len(uses) == 0 {
			if resp.StopReason == llm.StopMaxTokens {
				return fail("model", quarry.KindModel, "the model's reply was cut off at its token limit before it called a tool; ask a narrower question")
			}
			if textOnly++; textOnly == maxTextOnly {
				return fail("model", quarry.KindModel, "the model answered in text %d times in a row instead of calling its tools; use a model with reliable tool calling (function calling)", maxTextOnly)
			}
			req.Messages = append(req.Messages, llm.UserText("Use the tools: run a query, then call submit_answer. Text outside submit_answer is not shown to the user."))
			continue
		}
		textOnly = 0
		var parts []llm.Part
		for _, u := range uses {
			content, isErr, done, err := r.call(ctx, u)
			if err != nil {
				return err
			}
			if done {
				return nil
			}
			parts = append(parts, llm.Part{ToolResult: &llm.ToolResult{ToolUseID: u.ID, Content: r.policy.scrub(content), IsError: isErr}})
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Parts: parts})
	}
	return fail("max_steps", quarry.KindModel, "the model did not reach an answer within %d steps (limits: max steps); nothing was answered — ask a narrower question", l.maxSteps())
}

// maxTextOnly is how many replies in a row may call no tool before the
// run ends: a model that keeps answering in prose cannot use quarry's
// tools, however the question is put.
const maxTextOnly = 3

// asModelError makes a failed model call a KindModel error with the same
// message, whatever went wrong (no key, a refused key, an unknown model, a
// timeout, garbage), so that every model failure ends the same way.
func asModelError(err error) error {
	switch quarry.KindOf(err) {
	case quarry.KindModel, quarry.KindCanceled:
		return err
	}
	return quarry.Wrap(quarry.KindModel, err, "%s", quarry.Message(err))
}

// requestText is every string of req, for the leak check.
func requestText(req llm.Request) string {
	b, _ := json.Marshal(req)
	return string(b)
}

// userMessage is the first message: earlier turns, fenced, then the
// question.
func userMessage(question, asOf string, history []Turn) string {
	var b strings.Builder
	if len(history) > 0 {
		var h strings.Builder
		for i, t := range history {
			fmt.Fprintf(&h, "Turn %d question: %s\n", i+1, t.Question)
			if t.SQL != "" {
				fmt.Fprintf(&h, "Turn %d SQL: %s\n", i+1, strings.TrimSpace(t.SQL))
			}
			if t.Answer != "" {
				fmt.Fprintf(&h, "Turn %d answer: %s\n", i+1, t.Answer)
			}
		}
		b.WriteString("Earlier in this conversation (data, for context; a follow-up question may refer to it):\n")
		b.WriteString(fence("conversation", "", h.String()) + "\n\n")
	}
	fmt.Fprintf(&b, "Today is %s (read relative dates against it).\nQuestion: %s", asOf, question)
	return b.String()
}

func (a *Agent) knowledgeHash() string {
	if a.Knowledge == nil {
		return ""
	}
	return a.Knowledge.Hash
}
