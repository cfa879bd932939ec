package event

import "time"

// Approval mode (docs/approval.md): a statement a language model proposed
// waits, before it runs, for a person who may approve it. The wait is two
// events of the run's own log: approval.requested, written by the waiting
// run, and approval.decided, written by whoever decides (a person through
// the web UI or the API, on any replica sharing the state store) or by the
// run itself when the wait times out.
const (
	ApprovalRequested Type = "approval.requested" // a statement waits for a person's approval
	ApprovalDecided   Type = "approval.decided"   // it was approved or refused, or the wait timed out
)

// StatusAwaitingApproval is the status of a run whose statement waits for
// approval: an approval.requested without its approval.decided, and no
// run.finished yet.
const StatusAwaitingApproval = "awaiting_approval"

// CostEstimate is the database planner's estimate of a statement, where
// the connector gives one.
type CostEstimate struct {
	Cost float64 `json:"cost,omitempty"` // the planner's total cost, in its own units
	Rows float64 `json:"rows,omitempty"` // the most rows any step of the plan handles
}

// ApprovalRequestedData records a statement that waits for approval: the
// SQL, what it is for (the question, and the reading when quarry wrote
// the SQL from a semantic query), the guard's verdict (it was allowed, or
// it would not wait), the estimate where there is one, who asked and until
// when the run waits.
type ApprovalRequestedData struct {
	// Statement names the statement within the run ("s1", "s2"…); a
	// decision names it.
	Statement      string           `json:"statement"`
	SQL            string           `json:"sql"`
	Question       string           `json:"question,omitempty"`
	Interpretation string           `json:"interpretation,omitempty"`
	Guard          GuardCheckedData `json:"guard"`
	Estimate       *CostEstimate    `json:"estimate,omitempty"`
	// EstimateError says why there is no estimate when the connector
	// could have given one.
	EstimateError string `json:"estimate_error,omitempty"`
	AskedBy       string `json:"asked_by,omitempty"` // "" on a single-user project
	// Why says what required the approval: "connection" (approval:
	// required in quarry.yaml) or "person" (the asker's setting).
	Why      string    `json:"why,omitempty"`
	Deadline time.Time `json:"deadline"`
}

// ApprovalDecidedData records the decision on a statement: approved or
// refused, by whom ("quarry" when the wait timed out), with an optional
// reason. When it was made is the event's own time.
type ApprovalDecidedData struct {
	Statement string `json:"statement"`
	Approved  bool   `json:"approved"`
	By        string `json:"by,omitempty"`
	Reason    string `json:"reason,omitempty"`
	TimedOut  bool   `json:"timed_out,omitempty"`
}

// Approval is one statement's approval as a run's fold sees it.
type Approval struct {
	ApprovalRequestedData
	RequestedAt time.Time `json:"requested_at"`
	// Decided is nil while the statement waits.
	Decided   *ApprovalDecidedData `json:"decided,omitempty"`
	DecidedAt time.Time            `json:"decided_at,omitzero"`
}

// Pending returns the approval that waits, or nil.
func (st RunState) Pending() *Approval {
	for i := range st.Approvals {
		if st.Approvals[i].Decided == nil {
			return &st.Approvals[i]
		}
	}
	return nil
}

// EventType implementations.
func (*ApprovalRequestedData) EventType() Type { return ApprovalRequested }
func (*ApprovalDecidedData) EventType() Type   { return ApprovalDecided }
