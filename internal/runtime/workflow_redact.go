package runtime

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/workflow"
)

// restrictedNodes says which nodes of a workflow run carry values that
// the column policy of now restricts: an ask or query node whose run's
// SQL reads a restricted column under the policy of the moment (the
// lineage check results are read back with), and every node whose
// expression, question, message or approval reads such a node, and so on.
func (r *Runtime) restrictedNodes(ctx context.Context, st store.State, w *workflow.Workflow, ws workflow.State) (map[string]bool, error) {
	p, err := r.Policy()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	if p.Empty() {
		return out, nil
	}
	gs := &runGuards{r: r, guards: map[string]analyst.Guard{}}
	reads := runLineage(p, gs.guard)
	for _, n := range ws.Nodes {
		if n.RunID == "" {
			continue
		}
		run, err := st.Run(ctx, n.RunID)
		if err != nil || reads(ctx, run) {
			out[n.ID] = true
		}
	}
	if len(out) == 0 {
		return out, nil
	}
	for changed := true; changed; {
		changed = false
		for _, n := range ws.Nodes {
			node := w.Node(n.ID)
			if out[n.ID] || node == nil {
				continue
			}
			for _, name := range workflow.Reads(node) {
				if out[name] {
					out[n.ID], changed = true, true
					break
				}
			}
		}
	}
	return out, nil
}

// redactRun replaces what the restricted nodes of a run gave — their
// outputs, messages, the approval text of a wait — by the policy's mark.
func redactRun(ws workflow.State, restricted map[string]bool) workflow.State {
	if len(restricted) == 0 {
		return ws
	}
	mark, _ := json.Marshal(map[string]string{"restricted": policy.Redacted})
	nodes := make([]workflow.NodeState, len(ws.Nodes))
	copy(nodes, ws.Nodes)
	for i := range nodes {
		if !restricted[nodes[i].ID] {
			continue
		}
		if len(nodes[i].Output) > 0 {
			nodes[i].Output = mark
		}
		if nodes[i].Message != "" {
			nodes[i].Message = policy.Redacted
		}
		if nodes[i].Approval != "" {
			nodes[i].Approval = policy.Redacted
		}
		if nodes[i].Resumed != nil {
			res := *nodes[i].Resumed
			res.Note = policy.Redacted
			nodes[i].Resumed = &res
		}
	}
	ws.Nodes = nodes
	if ws.Waiting != nil && restricted[ws.Waiting.Node] {
		wt := *ws.Waiting
		if wt.Approval != "" {
			wt.Approval = policy.Redacted
		}
		ws.Waiting = &wt
	}
	if ws.Message != "" {
		if id, _, ok := strings.Cut(ws.Message, ": "); ok && restricted[id] || restricted[ws.Last] {
			ws.Message = policy.Redacted
		}
	}
	return ws
}

// refuseRestricted refuses to go on with a run some of whose nodes read
// what the column policy now restricts: its outputs would flow into new
// messages.
func refuseRestricted(ws workflow.State, restricted map[string]bool) error {
	for _, n := range ws.Nodes {
		if restricted[n.ID] {
			return quarry.Errorf(quarry.KindForbidden, "run %s cannot go on: its node %s read a column the column policy now restricts; start the workflow again", ws.RunID, n.ID)
		}
	}
	return nil
}
