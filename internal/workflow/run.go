package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// StatusStopped is run.finished's status for a workflow that stopped on
// a branch, a check or a refused approval.
const runStopped = StatusStopped

// Steps is what a workflow's nodes call out to: the analyst for ask and
// query nodes (each call a run of its own, through the same guard,
// policy, checks and confidence as any answer) and the delivery channels.
type Steps interface {
	Ask(ctx context.Context, question string) (StepResult, error)
	Query(ctx context.Context, verified, sql string) (StepResult, error)
	// Notify returns how many channels took the message and, for each that
	// did not, "channel: why".
	Notify(ctx context.Context, channels []string, title, message string) (delivered int, failed []string, err error)
}

// StepResult is what an ask or query node's run gave.
type StepResult struct {
	RunID    string
	Answered bool
	// Message says why there is no answer, or which checks failed.
	Message      string
	FailedChecks []string
	Confidence   float64
	Headline     string
	Table        *quarry.Table
	ResultID     string
	// Measure is the column of the answer's measure, when the reading
	// names one; the value is read from it. Measures counts the reading's
	// measures: an answer of two has no single value.
	Measure  string
	Measures int
	CostUSD  int64
	// Transient says a failure may pass when tried again (a timeout, a
	// lost connection), so a node's retries apply.
	Transient bool
}

// Runner runs one workflow run: it appends every step to the run's log
// (Sink) and reads the log back to resume.
type Runner struct {
	Workflow *Workflow
	Graph    Graph
	Steps    Steps
	Sink     event.Sink
	Clock    func() time.Time
	// By names who acts (approvals), for the record.
	By string
	// Holder names this process in each node it starts (host:pid).
	Holder string
	// Privacy is the tier of the connection the questions run on: under a
	// restricted tier an ask node whose question reads an earlier node's
	// output is refused (RowsInQuestion), whatever validation said.
	Privacy quarry.Privacy
}

// Start begins a new run: run.started and workflow.started, then the
// nodes from the first.
func (r *Runner) Start(ctx context.Context, runID string, params map[string]string, started event.RunStartedData) (State, error) {
	vals, err := r.params(params)
	if err != nil {
		return State{}, err
	}
	l := &runLog{next: r.Sink}
	rec := event.NewRecorder(runID, r.Clock, l)
	started.Kind = "workflow"
	started.Question = r.Workflow.Name
	if err := rec.Emit(ctx, &started); err != nil {
		return State{}, err
	}
	text := map[string]string{}
	for k, v := range vals {
		text[k] = paramText(v)
	}
	if err := rec.Emit(ctx, &event.WorkflowStartedData{Workflow: r.Workflow.Name, File: r.Workflow.File, Definition: string(Encode(r.Workflow)), Params: text}); err != nil {
		return State{}, err
	}
	return r.loop(ctx, rec, l, r.Workflow.Nodes[0].ID, nil, vals)
}

// params reads the run's parameters over the workflow's defaults.
func (r *Runner) params(given map[string]string) (map[string]any, error) {
	out := map[string]any{}
	for name := range given {
		if r.Workflow.Param(name) == nil {
			var names []string
			for _, p := range r.Workflow.Params {
				names = append(names, p.Name)
			}
			if len(names) == 0 {
				return nil, quarry.Errorf(quarry.KindUsage, "%s takes no parameters; remove --param %s", r.Workflow.Name, name)
			}
			return nil, quarry.Errorf(quarry.KindUsage, "%s has no parameter %q; its parameters: %s", r.Workflow.Name, name, strings.Join(names, ", "))
		}
	}
	for _, p := range r.Workflow.Params {
		s, ok := given[p.Name]
		if !ok {
			if p.Required || p.Default == "" && p.Type != Text {
				return nil, quarry.Errorf(quarry.KindUsage, "%s needs the parameter %s; pass --param %s=VALUE", r.Workflow.Name, p.Name, p.Name)
			}
			s = p.Default
		}
		v, err := ParseParam(p, s)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindUsage, err, "%s; pass --param %s=VALUE", err, p.Name)
		}
		out[p.Name] = v
	}
	return out, nil
}

func paramText(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprint(f)
	}
	return fmt.Sprint(v)
}

// Resume goes on with a run from its log: a node that started and never
// finished runs again, a failed one with retries left is tried again, a
// wait whose time has come ends, and a wait for approval stays until
// Approve. A finished run is returned as it is.
func (r *Runner) Resume(ctx context.Context, events []event.Event) (State, error) {
	st, err := Fold(events)
	if err != nil {
		return State{}, err
	}
	if st.Final() {
		return st, nil
	}
	if st.Workflow == "" {
		return st, quarry.Errorf(quarry.KindConflict, "run %s stopped before it recorded its workflow; start the workflow again", st.RunID)
	}
	if len(st.Nodes) == 0 {
		st.Next = r.Workflow.Nodes[0].ID // it stopped before its first node
	}
	vals, err := r.params(st.Params)
	if err != nil {
		return State{}, err
	}
	l := &runLog{next: r.Sink, events: append([]event.Event(nil), events...)}
	rec := event.ContinueRecorder(events, r.Clock, l)
	if st.Next == "" && st.Status != StatusWaiting {
		// The last node finished the run, which stopped before it said so.
		last := st.Node(st.Last)
		switch node := r.Workflow.Node(st.Last); {
		case last == nil || node == nil:
			return st, nil
		case last.Status == NodeStopped:
			return r.finish(ctx, rec, l, runStopped, fmt.Sprintf("%s: %s", last.ID, last.Message))
		case node.Kind == End && node.Status == Stopped:
			return r.finish(ctx, rec, l, runStopped, last.Message)
		default:
			return r.finish(ctx, rec, l, event.StatusSucceeded, "")
		}
	}
	return r.loop(ctx, rec, l, st.Next, &st, vals)
}

// Approve ends the wait for approval that holds the run: approved goes
// on, refused stops the run.
func (r *Runner) Approve(ctx context.Context, events []event.Event, approved bool, note string) (State, error) {
	st, err := Fold(events)
	if err != nil {
		return State{}, err
	}
	if st.Status != StatusWaiting || st.Waiting == nil || st.Waiting.Approval == "" {
		what := st.Status
		if st.Status == StatusWaiting {
			what = "waiting until " + st.Waiting.Until
		}
		return st, quarry.Errorf(quarry.KindInput, "run %s is not waiting for an approval (it is %s)", st.RunID, what)
	}
	l := &runLog{next: r.Sink, events: append([]event.Event(nil), events...)}
	rec := event.ContinueRecorder(events, r.Clock, l)
	if err := rec.Emit(ctx, &event.WorkflowResumedData{Node: st.Waiting.Node, Approved: approved, By: r.By, Note: note}); err != nil {
		return State{}, err
	}
	return r.Resume(ctx, l.events)
}

// loop runs nodes from cur until the run ends or waits.
func (r *Runner) loop(ctx context.Context, rec *event.Recorder, l *runLog, cur string, st *State, vals map[string]any) (State, error) {
	outputs := map[string]any{}
	attempts := map[string]int{}
	var resumed *event.WorkflowResumedData
	if st != nil {
		for _, n := range st.Nodes {
			attempts[n.ID] = n.Attempts
			if n.Status == NodeSucceeded {
				out, err := r.decodeOutput(n)
				if err != nil {
					return State{}, err
				}
				outputs[n.ID] = out
			}
		}
		if st.Status == StatusWaiting {
			// A wait for approval goes on only through Approve; a wait
			// until a time, once the time has come.
			if st.Waiting.Approval != "" || !Due(*st, r.Clock()) {
				return *st, nil
			}
			d := &event.WorkflowResumedData{Node: st.Waiting.Node, Approved: true, Note: "the time came"}
			if err := rec.Emit(ctx, d); err != nil {
				return State{}, err
			}
			resumed = d
		} else if n := st.Node(cur); n != nil && n.Status == NodeWaiting && n.Resumed != nil {
			resumed = n.Resumed
		} else if n != nil && n.Status == NodeFailed && n.Attempts > r.Workflow.Node(cur).Retries {
			return r.finish(ctx, rec, l, event.StatusFailed, n.Message)
		}
	}
	for cur != "" {
		if err := ctx.Err(); err != nil {
			return Fold(l.events)
		}
		node := r.Workflow.Node(cur)
		if node == nil {
			return r.finish(ctx, rec, l, event.StatusFailed, fmt.Sprintf("the workflow has no node %q", cur))
		}
		if resumed == nil {
			attempts[cur]++
			if err := rec.Emit(ctx, &event.WorkflowNodeStartedData{Node: cur, Kind: string(node.Kind), Attempt: attempts[cur], Holder: r.Holder}); err != nil {
				return State{}, err
			}
		}
		start := r.Clock()
		res := r.node(ctx, node, vals, outputs, resumed)
		resumed = nil
		if res.wait != nil {
			if err := rec.Emit(ctx, res.wait); err != nil {
				return State{}, err
			}
			return Fold(l.events)
		}
		fin := &event.WorkflowNodeFinishedData{Node: cur, Status: res.status, Attempt: attempts[cur], RunID: res.runID,
			Message: res.message, Next: res.next, DurationMS: float64(r.Clock().Sub(start).Microseconds()) / 1000, CostUSD: res.cost}
		if res.output != nil {
			b, err := json.Marshal(res.output)
			if err != nil {
				return State{}, err
			}
			fin.Output = string(b)
		}
		if err := rec.Emit(ctx, fin); err != nil {
			return State{}, err
		}
		switch res.status {
		case NodeSucceeded:
			outputs[cur] = res.output
			if node.Kind == End {
				if node.Status == Stopped {
					return r.finish(ctx, rec, l, runStopped, res.message)
				}
				return r.finish(ctx, rec, l, event.StatusSucceeded, "")
			}
			cur = res.next
		case NodeFailed:
			if res.retry && attempts[cur] <= node.Retries {
				continue
			}
			return r.finish(ctx, rec, l, event.StatusFailed, fmt.Sprintf("%s: %s", cur, res.message))
		default:
			return r.finish(ctx, rec, l, runStopped, fmt.Sprintf("%s: %s", cur, res.message))
		}
	}
	return Fold(l.events)
}

func (r *Runner) finish(ctx context.Context, rec *event.Recorder, l *runLog, status, msg string) (State, error) {
	if err := rec.Emit(ctx, &event.RunFinishedData{Status: status, Error: msg, Kind: "workflow"}); err != nil {
		return State{}, err
	}
	return Fold(l.events)
}

// runLog passes events on to the store and keeps the run's log, so that
// the state after each step is a fold of what was stored.
type runLog struct {
	next   event.Sink
	events []event.Event
}

// Append implements event.Sink.
func (l *runLog) Append(ctx context.Context, evs ...event.Event) error {
	if err := l.next.Append(ctx, evs...); err != nil {
		return err
	}
	l.events = append(l.events, evs...)
	return nil
}

// decodeOutput reads a finished node's recorded output back into its
// type.
func (r *Runner) decodeOutput(n NodeState) (any, error) {
	node := r.Workflow.Node(n.ID)
	if node == nil {
		return nil, fmt.Errorf("the log names node %q, which the workflow does not have", n.ID)
	}
	switch out := outputFor(node.Kind, r.Graph.Types[n.ID]).(type) {
	case nil:
		return nil, nil
	case AnswerOutput:
		return out, decodeInto(n, &out)
	case NumberOutput:
		return out, decodeInto(n, &out)
	case BoolOutput:
		return out, decodeInto(n, &out)
	case TextOutput:
		return out, decodeInto(n, &out)
	case BranchOutput:
		return out, decodeInto(n, &out)
	case WaitOutput:
		return out, decodeInto(n, &out)
	case NotifyOutput:
		return out, decodeInto(n, &out)
	}
	return nil, nil
}

func decodeInto[T any](n NodeState, out *T) error {
	if len(n.Output) == 0 {
		return nil
	}
	if err := json.Unmarshal(n.Output, out); err != nil {
		return fmt.Errorf("the output of %s in the log: %w", n.ID, err)
	}
	return nil
}

// result is how one node ended.
type result struct {
	status  string
	output  any
	next    string
	message string
	runID   string
	cost    int64
	retry   bool
	wait    *event.WorkflowWaitingData
}

func failed(msg string) result { return result{status: NodeFailed, message: msg} }

// node runs one node.
func (r *Runner) node(ctx context.Context, n *Node, vals map[string]any, outputs map[string]any, resumed *event.WorkflowResumedData) result {
	env := map[string]any{}
	for k, v := range vals {
		env[k] = v
	}
	for k, v := range outputs {
		if v != nil {
			env[k] = v
		}
	}
	switch n.Kind {
	case Ask, Query:
		var res StepResult
		var err error
		if n.Kind == Ask {
			if msg := RowsInQuestion(r.Workflow, n, r.Privacy); msg != "" {
				return result{status: NodeStopped, message: msg}
			}
			q, msg := render(n.Question, env, true)
			if msg != "" {
				return failed(msg)
			}
			res, err = r.Steps.Ask(ctx, q)
		} else {
			res, err = r.Steps.Query(ctx, n.Verified, n.SQL)
		}
		if err != nil {
			out := failed(quarry.Message(err))
			out.retry = !errors.Is(err, context.Canceled)
			return out
		}
		out := result{runID: res.RunID, cost: res.CostUSD, next: n.Next}
		switch {
		case !res.Answered:
			out.status, out.message, out.retry = NodeFailed, res.Message, res.Transient
			if !res.Transient {
				out.status = NodeStopped
			}
		case len(res.FailedChecks) > 0:
			out.status, out.message = NodeStopped, "a check failed: "+strings.Join(res.FailedChecks, "; ")
		case res.Confidence < n.MinConfidence:
			out.status, out.message = NodeStopped, fmt.Sprintf("the answer's confidence is %.2f, below the %.2f this step requires", res.Confidence, n.MinConfidence)
		default:
			out.status = NodeSucceeded
		}
		out.output = answerOutput(res)
		return out
	case Compute, Branch:
		want := ValueType("")
		if n.Kind == Branch {
			want = BoolValue
		}
		c, err := compile(n.Expr, env, want, false)
		if err != nil {
			return failed(err.Error())
		}
		if msg := missingValue(n.Expr, env); msg != "" {
			return failed(msg)
		}
		v, err := c.eval(env)
		if err != nil {
			return failed(err.Error())
		}
		if n.Kind == Branch {
			if v.(bool) {
				return result{status: NodeSucceeded, output: BranchOutput{Taken: "then"}, next: n.Then}
			}
			return result{status: NodeSucceeded, output: BranchOutput{Taken: "else"}, next: n.Else}
		}
		switch x := v.(type) {
		case float64:
			return result{status: NodeSucceeded, output: NumberOutput{Value: x}, next: n.Next}
		case bool:
			return result{status: NodeSucceeded, output: BoolOutput{Value: x}, next: n.Next}
		case string:
			return result{status: NodeSucceeded, output: TextOutput{Value: x}, next: n.Next}
		}
		return failed(fmt.Sprintf("%s gave %T; want a number, true/false or text", n.Expr, v))
	case Wait:
		if resumed == nil && n.Approval != "" {
			text, bad := render(n.Approval, env, false)
			if bad != "" {
				return failed(bad)
			}
			return result{wait: &event.WorkflowWaitingData{Node: n.ID, Approval: text}}
		}
		return r.wait(n, resumed)
	case Notify:
		msg, bad := render(n.Message, env, false)
		if bad != "" {
			return failed(bad)
		}
		title := n.Title
		if title == "" {
			title = r.Workflow.Name + ": " + n.ID
		}
		out := NotifyOutput{Message: msg}
		if len(n.Channels) > 0 {
			d, f, err := r.Steps.Notify(ctx, n.Channels, title, msg)
			if err != nil {
				return failed(quarry.Message(err))
			}
			out.Delivered, out.Failed, out.Errors = float64(d), float64(len(f)), f
		}
		return result{status: NodeSucceeded, output: out, next: n.Next}
	case End:
		msg := ""
		if n.Message != "" {
			var bad string
			if msg, bad = render(n.Message, env, false); bad != "" {
				return failed(bad)
			}
		}
		return result{status: NodeSucceeded, message: msg}
	}
	return failed(fmt.Sprintf("unknown kind %q", n.Kind))
}

// wait starts a wait, or ends one: the time has come, or a person
// approved or refused.
func (r *Runner) wait(n *Node, resumed *event.WorkflowResumedData) result {
	if resumed != nil {
		out := WaitOutput{Approved: resumed.Approved, By: resumed.By, Note: resumed.Note}
		if !resumed.Approved {
			who := resumed.By
			if who == "" {
				who = "a person"
			}
			return result{status: NodeStopped, output: out, message: "the approval was refused by " + who}
		}
		return result{status: NodeSucceeded, output: out, next: n.Next}
	}
	now := r.Clock()
	var until time.Time
	if n.Until != "" {
		until, _ = time.Parse(time.RFC3339, n.Until)
	} else {
		d, _ := time.ParseDuration(n.For)
		until = now.Add(d)
	}
	if !now.Before(until) {
		return result{status: NodeSucceeded, output: WaitOutput{Approved: true}, next: n.Next}
	}
	return result{wait: &event.WorkflowWaitingData{Node: n.ID, Until: until.UTC().Format(time.RFC3339)}}
}

// Due says whether a run waiting until a time may go on at now.
func Due(st State, now time.Time) bool {
	if st.Status != StatusWaiting || st.Waiting == nil || st.Waiting.Until == "" {
		return false
	}
	until, err := time.Parse(time.RFC3339, st.Waiting.Until)
	return err == nil && !now.Before(until)
}

// answerOutput is an ask or query node's output from its run.
func answerOutput(res StepResult) AnswerOutput {
	out := AnswerOutput{Confidence: res.Confidence, Headline: clip(res.Headline, maxLabel*4), RunID: res.RunID, ResultID: res.ResultID}
	t := res.Table
	if t == nil {
		return out
	}
	out.Rows = float64(len(t.Rows))
	col := -1
	for i, c := range t.Columns {
		if res.Measure != "" && strings.EqualFold(c.Name, res.Measure) && c.Type.IsNumeric() {
			col = i
			break
		}
	}
	if col < 0 {
		for i := len(t.Columns) - 1; i >= 0; i-- {
			if t.Columns[i].Type.IsNumeric() {
				col = i
				break
			}
		}
	}
	if col < 0 {
		return out
	}
	out.Column = t.Columns[col].Name
	label := -1
	for i, c := range t.Columns {
		if c.Type == quarry.TypeText {
			label = i
			break
		}
	}
	for _, row := range t.Rows {
		f, ok := number(row[col])
		if !ok {
			continue
		}
		out.Values = append(out.Values, f)
		if label >= 0 {
			s, _ := row[label].(string)
			out.Labels = append(out.Labels, clip(s, maxLabel))
		}
	}
	if len(t.Rows) == 1 && len(out.Values) == 1 && res.Measures <= 1 {
		out.Value, out.HasValue = out.Values[0], true
	}
	out.Measures = float64(max(res.Measures, 1))
	return out
}

// maxLabel bounds one label an output keeps (a text cell).
const maxLabel = 1024

// clip cuts s to at most n bytes, on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	}
	return 0, false
}

// missingValue says which answer an expression reads the single value of
// when that answer has none (it has several rows, or no number).
func missingValue(src string, env map[string]any) string {
	tree, err := parser.Parse(src)
	if err != nil {
		return ""
	}
	var msg string
	ast.Find(tree.Node, func(n ast.Node) bool {
		m, ok := n.(*ast.MemberNode)
		if !ok {
			return false
		}
		id, ok1 := m.Node.(*ast.IdentifierNode)
		prop, ok2 := m.Property.(*ast.StringNode)
		if !ok1 || !ok2 || prop.Value != "value" {
			return false
		}
		if a, ok := env[id.Value].(AnswerOutput); ok && !a.HasValue {
			msg = fmt.Sprintf("%s.value: the answer of %s has %s, so no single value; ask for one figure, or use %s.values", id.Value, id.Value, rowsText(a), id.Value)
			return true
		}
		return false
	})
	return msg
}

func rowsText(a AnswerOutput) string {
	switch {
	case a.Measures > 1:
		return fmt.Sprintf("%d measures (%s is %s)", int(a.Measures), "the column it reads", a.Column)
	case a.Rows == 1:
		return "no number"
	}
	return fmt.Sprintf("%d rows", int(a.Rows))
}

// render fills a text's placeholders; the message says what failed. A
// question gets its numbers plain (2025, 0.15), as a person types them to
// the planner; a message gets them as quarry writes figures (1,234.5).
func render(text string, env map[string]any, plain bool) (string, string) {
	var bad string
	out, ok := renderWith(text, func(e string) (string, error) {
		c, err := compile(e, env, "", true)
		if err == nil {
			if msg := missingValue(e, env); msg != "" {
				err = errors.New(msg)
			}
		}
		if err != nil {
			bad = fmt.Sprintf("{{ %s }}: %s", e, err)
			return "", err
		}
		v, err := c.eval(env)
		if err != nil {
			bad = fmt.Sprintf("{{ %s }}: %s", e, err)
			return "", err
		}
		if f, ok := v.(float64); ok && plain {
			return strconv.FormatFloat(f, 'f', -1, 64), nil
		}
		return show(v), nil
	})
	if !ok && bad == "" {
		bad = "a placeholder is not closed"
	}
	if bad == "" && len(out) > MaxText {
		bad = fmt.Sprintf("the text is %d bytes once its placeholders are filled; at most %d", len(out), MaxText)
	}
	return out, bad
}
