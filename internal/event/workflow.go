package event

// The events of a workflow run (docs/workflows.md). A workflow run is a run
// of kind "workflow": run.started, workflow.started (the definition it runs
// and its parameters), then per node workflow.node.started and
// workflow.node.finished (each ask or query node's own run is a run of its
// own, named by RunID), workflow.waiting and workflow.resumed around a wait
// node, and run.finished. The workflow's state is a fold of these
// (workflow.Fold); event.Fold sees a run like any other.
const (
	WorkflowStarted      Type = "workflow.started"
	WorkflowNodeStarted  Type = "workflow.node.started"
	WorkflowNodeFinished Type = "workflow.node.finished"
	WorkflowWaiting      Type = "workflow.waiting"
	WorkflowResumed      Type = "workflow.resumed"
)

// WorkflowStartedData records what a workflow run runs: the workflow's
// name, its definition as the canonical YAML it was read as (a resumed run
// goes on with this definition, whatever the file says by then), and the
// parameters it was given, as text.
type WorkflowStartedData struct {
	Workflow   string            `json:"workflow"`
	File       string            `json:"file,omitempty"`
	Definition string            `json:"definition"`
	Params     map[string]string `json:"params,omitempty"`
}

// WorkflowNodeStartedData records that a node began; Attempt counts from 1
// and grows with each retry or each restart of a node that never finished.
type WorkflowNodeStartedData struct {
	Node    string `json:"node"`
	Kind    string `json:"kind"`
	Attempt int    `json:"attempt"`
	// Holder names the process running the node (host:pid), so that
	// another process does not run it again while it is alive.
	Holder string `json:"holder,omitempty"`
}

// WorkflowNodeFinishedData records how a node ended: succeeded, failed (it
// may be retried) or stopped (the workflow stops here: a check failed, an
// approval was refused, an end node said so). Output is the node's output
// as JSON (docs/workflows.md lists each kind's fields); RunID names the run
// an ask or query node made; Next is the node that follows ("" at the end).
type WorkflowNodeFinishedData struct {
	Node       string  `json:"node"`
	Status     string  `json:"status"`
	Attempt    int     `json:"attempt"`
	RunID      string  `json:"run_id,omitempty"`
	Output     string  `json:"output,omitempty"`
	Next       string  `json:"next,omitempty"`
	Message    string  `json:"message,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	CostUSD    int64   `json:"cost_micro_usd,omitempty"`
}

// WorkflowWaitingData records that a wait node holds the run: until a time
// (Until, RFC 3339), or for a person's approval (Approval, the text they
// are shown).
type WorkflowWaitingData struct {
	Node     string `json:"node"`
	Until    string `json:"until,omitempty"`
	Approval string `json:"approval,omitempty"`
}

// WorkflowResumedData records what ended a wait: the time came, or a
// person approved or refused (By, Note).
type WorkflowResumedData struct {
	Node     string `json:"node"`
	Approved bool   `json:"approved"`
	By       string `json:"by,omitempty"`
	Note     string `json:"note,omitempty"`
}

// EventType implementations.
func (*WorkflowStartedData) EventType() Type      { return WorkflowStarted }
func (*WorkflowNodeStartedData) EventType() Type  { return WorkflowNodeStarted }
func (*WorkflowNodeFinishedData) EventType() Type { return WorkflowNodeFinished }
func (*WorkflowWaitingData) EventType() Type      { return WorkflowWaiting }
func (*WorkflowResumedData) EventType() Type      { return WorkflowResumed }
