package workflow

import (
	"encoding/json"
	"time"

	"github.com/quarrydata/quarry/internal/event"
)

// Run statuses of a workflow run.
const (
	StatusRunning = "running" // under way, or interrupted (Resume goes on)
	StatusWaiting = "waiting" // a wait node holds it
	// StatusCompleted, StatusStopped and StatusFailed are final.
	StatusCompleted = "completed"
	StatusStopped   = "stopped"
	StatusFailed    = "failed"
)

// Node statuses in a run.
const (
	NodeRunning   = "running"
	NodeSucceeded = "succeeded"
	NodeFailed    = "failed"
	NodeStopped   = "stopped"
	NodeWaiting   = "waiting"
)

// State is what a workflow run's log says: derived by Fold, never stored
// as the truth.
type State struct {
	RunID      string            `json:"run_id"`
	Workflow   string            `json:"workflow"`
	File       string            `json:"file,omitempty"`
	Definition string            `json:"-"`
	Params     map[string]string `json:"params,omitempty"`
	AsOf       string            `json:"as_of,omitempty"`
	Status     string            `json:"status"`
	Message    string            `json:"message,omitempty"`
	// Nodes are the nodes that ran, in the order they first started.
	Nodes []NodeState `json:"nodes"`
	// Next is the node a resumed run starts with: the one after the last
	// that finished, a failed one with retries left, or one that started
	// and never finished; "" when the run is over.
	Next string `json:"next,omitempty"`
	// Last is the node that finished last.
	Last string `json:"last,omitempty"`
	// Waiting is the wait that holds the run, when Status is waiting.
	Waiting *event.WorkflowWaitingData `json:"waiting,omitempty"`

	StartedAt    time.Time     `json:"started_at"`
	FinishedAt   time.Time     `json:"finished_at,omitzero"`
	Duration     time.Duration `json:"duration_ns"`
	CostMicroUSD int64         `json:"cost_micro_usd"`
	LastSeq      int64         `json:"last_seq"`
}

// NodeState is one node of a run.
type NodeState struct {
	ID         string          `json:"id"`
	Kind       string          `json:"kind"`
	Status     string          `json:"status"`
	Attempts   int             `json:"attempts"`
	RunID      string          `json:"run_id,omitempty"`
	Output     json.RawMessage `json:"output,omitempty"`
	Message    string          `json:"message,omitempty"`
	Next       string          `json:"next,omitempty"`
	DurationMS float64         `json:"duration_ms"`
	// Approval is the text a wait node showed the person it waited for,
	// its placeholders filled.
	Approval string `json:"approval,omitempty"`
	// Holder is the process that started the node's last attempt.
	Holder string `json:"holder,omitempty"`
	// Resumed is what ended a wait node's wait, once something did.
	Resumed *event.WorkflowResumedData `json:"resumed,omitempty"`
}

// Node returns the state of the node called id, or nil when it never ran.
func (s *State) Node(id string) *NodeState {
	for i := range s.Nodes {
		if s.Nodes[i].ID == id {
			return &s.Nodes[i]
		}
	}
	return nil
}

// Final says whether the run is over.
func (s *State) Final() bool {
	return s.Status == StatusCompleted || s.Status == StatusStopped || s.Status == StatusFailed
}

// Fold derives a workflow run's state from its events (any order; see
// event.Fold for duplicates and gaps). Events of other types are skipped.
func Fold(events []event.Event) (State, error) {
	var st State
	err := event.Replay(events, func(_ event.RunState, e event.Event) error {
		return st.apply(e)
	})
	return st, err
}

func (s *State) apply(e event.Event) error {
	s.LastSeq = e.Seq
	p, err := event.Decode(e)
	if err != nil || p == nil {
		return err
	}
	switch d := p.(type) {
	case *event.RunStartedData:
		s.RunID, s.StartedAt, s.AsOf = e.RunID, e.At, d.AsOf
		s.Status = StatusRunning
	case *event.WorkflowStartedData:
		s.Workflow, s.File, s.Definition, s.Params = d.Workflow, d.File, d.Definition, d.Params
	case *event.WorkflowNodeStartedData:
		n := s.Node(d.Node)
		if n == nil {
			s.Nodes = append(s.Nodes, NodeState{ID: d.Node, Kind: d.Kind})
			n = &s.Nodes[len(s.Nodes)-1]
		}
		n.Status, n.Attempts, n.Holder = NodeRunning, d.Attempt, d.Holder
		s.Next, s.Status, s.Waiting = d.Node, StatusRunning, nil
	case *event.WorkflowNodeFinishedData:
		n := s.Node(d.Node)
		if n == nil {
			s.Nodes = append(s.Nodes, NodeState{ID: d.Node})
			n = &s.Nodes[len(s.Nodes)-1]
		}
		n.Status, n.Attempts, n.RunID, n.Message, n.Next = d.Status, d.Attempt, d.RunID, d.Message, d.Next
		n.DurationMS += d.DurationMS
		if d.Output != "" {
			n.Output = json.RawMessage(d.Output)
		}
		s.CostMicroUSD += d.CostUSD
		s.Last = d.Node
		switch d.Status {
		case NodeSucceeded:
			s.Next = d.Next
		case NodeFailed:
			s.Next = d.Node // Runner decides whether retries are left
		default:
			s.Next = ""
		}
	case *event.WorkflowWaitingData:
		w := *d
		s.Status, s.Waiting, s.Next = StatusWaiting, &w, d.Node
		if n := s.Node(d.Node); n != nil {
			n.Status, n.Approval = NodeWaiting, d.Approval
		}
	case *event.WorkflowResumedData:
		s.Status, s.Waiting = StatusRunning, nil
		if n := s.Node(d.Node); n != nil {
			r := *d
			n.Resumed = &r
		}
	case *event.RunFinishedData:
		s.FinishedAt = e.At
		s.Duration = e.At.Sub(s.StartedAt)
		s.Message = d.Error
		s.Next = ""
		switch d.Status {
		case event.StatusSucceeded:
			s.Status = StatusCompleted
		case StatusStopped:
			s.Status = StatusStopped
		default:
			s.Status = StatusFailed
		}
	}
	return nil
}
