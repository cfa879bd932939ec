package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/workflow"
)

// The workflow editor's endpoints (docs/api.md): the knowledge folder's
// workflows, the one check of a definition (the YAML the CLI writes, and
// what `quarry workflow validate` says of it), and a run streamed as
// server-sent events. The page keeps only the graph's JSON and draws it:
// every rule and every message comes from here.

// workflowListJSON is what GET /api/workflows answers: the files, and
// what a node of each kind takes, from the same table the validator
// checks, so that the editor's forms hold no rules of their own.
type workflowListJSON struct {
	Workflows   []workflowFileJSON `json:"workflows"`
	Kinds       []kindJSON         `json:"kinds"`
	ParamTypes  []string           `json:"param_types"`
	EndStatuses []string           `json:"end_statuses"`
}

// workflowFileJSON is one workflows/*.yaml file: its source, the graph
// decoded from it (null when it does not decode) and its problems.
type workflowFileJSON struct {
	Name     string             `json:"name"`
	File     string             `json:"file"`
	Source   string             `json:"source"`
	Workflow *workflow.Workflow `json:"workflow"`
	Problems []workflow.Problem `json:"problems"`
}

// kindJSON is a node kind and the fields it takes beyond id, kind and
// title, by their YAML names.
type kindJSON struct {
	Kind   string   `json:"kind"`
	Fields []string `json:"fields"`
}

// definitionRequest names a definition: its YAML, or its graph as the
// editor holds it. Exactly one is given.
type definitionRequest struct {
	YAML     *string            `json:"yaml,omitempty"`
	Workflow *workflow.Workflow `json:"workflow,omitempty"`
}

// workflowRunRequest is the body of POST /api/workflows/run.
type workflowRunRequest struct {
	definitionRequest
	Params map[string]string `json:"params,omitempty"`
}

// checkedJSON is a definition as the CLI sees it: the canonical YAML, the
// graph decoded from that YAML, and every problem of the YAML, with lines
// into it.
type checkedJSON struct {
	YAML     string             `json:"yaml"`
	Workflow *workflow.Workflow `json:"workflow"`
	Problems []workflow.Problem `json:"problems"`
}

// refusedRunJSON is the 400 of a run of a definition that has problems.
type refusedRunJSON struct {
	Error apiError `json:"error"`
	checkedJSON
}

// workflowErrorEvent is the error event of a run's stream: why it could
// not go on, and the state it had reached when it has one.
type workflowErrorEvent struct {
	Error apiError        `json:"error"`
	State *workflow.State `json:"state,omitempty"`
}

// untitled is the file of a definition whose name cannot name one.
const untitled = "untitled"

// workflowsOf returns the server's workflows, or answers 404 when it has
// none.
func (s *Server) workflowsOf(w http.ResponseWriter) Workflows {
	if s.cfg.Workflows == nil {
		writeError(w, quarry.Errorf(quarry.KindNotFound, "this server has no workflows"))
	}
	return s.cfg.Workflows
}

// listWorkflows answers every workflow file with its graph and problems.
func (s *Server) listWorkflows(w http.ResponseWriter, r *http.Request) {
	wf := s.workflowsOf(w)
	if wf == nil {
		return
	}
	files, err := wf.List(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	known, err := wf.Known(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := workflowListJSON{Workflows: []workflowFileJSON{}, EndStatuses: workflow.EndStatuses()}
	for _, f := range files {
		def, probs := checkSource(f.File, []byte(f.Source), known)
		out.Workflows = append(out.Workflows, workflowFileJSON{Name: f.Name, File: f.File, Source: f.Source, Workflow: def, Problems: probs})
	}
	for _, k := range workflow.Kinds() {
		out.Kinds = append(out.Kinds, kindJSON{Kind: string(k), Fields: workflow.KindFields(k)})
	}
	for _, t := range workflow.ParamTypes() {
		out.ParamTypes = append(out.ParamTypes, string(t))
	}
	writeJSON(w, http.StatusOK, out)
}

// checkWorkflow answers the canonical YAML of a definition, its graph and
// its problems.
func (s *Server) checkWorkflow(w http.ResponseWriter, r *http.Request) {
	wf := s.workflowsOf(w)
	if wf == nil {
		return
	}
	var req definitionRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	c, err := s.check(r.Context(), wf, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// check is the one check of a definition. A graph is written as the
// canonical YAML and that YAML decoded and validated, so that every
// problem's line points into the YAML the editor shows and exports: what
// `quarry workflow validate` prints for the exported file. YAML is
// decoded and validated as it is, and written back canonical.
func (s *Server) check(ctx context.Context, wf Workflows, req definitionRequest) (checkedJSON, error) {
	switch {
	case req.YAML != nil && req.Workflow != nil:
		return checkedJSON{}, errf("send the definition as yaml or as workflow, not both")
	case req.YAML == nil && req.Workflow == nil:
		return checkedJSON{}, errf("send the definition as \"yaml\" (its text) or \"workflow\" (its graph)")
	}
	known, err := wf.Known(ctx)
	if err != nil {
		return checkedJSON{}, err
	}
	out := checkedJSON{}
	if req.Workflow != nil {
		src := workflow.Encode(req.Workflow)
		out.YAML = string(src)
		out.Workflow, out.Problems = checkSource(fileFor(req.Workflow.Name), src, known)
		return out, nil
	}
	src := []byte(*req.YAML)
	file := fileFor(untitled)
	def, probs := checkSource(file, src, known)
	if def != nil && fileFor(def.Name) != file {
		// The file the definition names itself by, as it would be saved.
		def, probs = checkSource(fileFor(def.Name), src, known)
	}
	out.Workflow, out.Problems = def, probs
	if def != nil {
		out.YAML = string(workflow.Encode(def))
	}
	return out, nil
}

// checkSource is workflow.Check, the one check every surface makes of a
// file, with the problems always a list.
func checkSource(file string, src []byte, known workflow.Known) (*workflow.Workflow, []workflow.Problem) {
	def, _, probs := workflow.Check(file, src, known)
	if probs == nil {
		probs = []workflow.Problem{}
	}
	return def, probs
}

// fileFor is the file, relative to the knowledge folder, that a workflow
// called name is saved as.
func fileFor(name string) string {
	if workflow.ValidName(name) != "" {
		name = untitled
	}
	return workflow.Dir + "/" + name + ".yaml"
}

// runWorkflow checks a definition, refuses it with its problems when it
// has any, and otherwise runs it, streaming the run's state as
// server-sent events: state after each step, then done with the state it
// ended (or waits) in, or error.
func (s *Server) runWorkflow(w http.ResponseWriter, r *http.Request) {
	wf := s.workflowsOf(w)
	if wf == nil {
		return
	}
	var req workflowRunRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	c, err := s.check(r.Context(), wf, req.definitionRequest)
	if err != nil {
		writeError(w, err)
		return
	}
	if len(c.Problems) > 0 || c.Workflow == nil {
		writeJSON(w, http.StatusBadRequest, refusedRunJSON{Error: errorBody(refusal(c.Problems)), checkedJSON: c})
		return
	}
	if !s.admit(w) {
		return
	}
	s.runs.Add(1) // before the first byte, so that Wait sees this run

	sse := startSSE(w)

	states := &stateFeed{ready: make(chan struct{}, 1)}
	finished := make(chan struct{})
	var final workflow.State
	var runErr error
	ctx, cancel := s.runContext(r)
	go func() {
		defer s.runs.Done()
		defer s.release()
		defer cancel()
		defer close(finished)
		// A workflow run does work like any other run: it waits its turn.
		select {
		case s.work <- struct{}{}:
		case <-ctx.Done():
			runErr = quarry.Wrap(quarry.KindTimeout, ctx.Err(), "the run waited too long for its turn; try again")
			return
		}
		defer func() { <-s.work }()
		final, runErr = wf.Run(ctx, c.Workflow, req.Params, states.add)
	}()

	// Stream until the run has finished; a client that goes away stops the
	// stream here and the run goes on.
	for {
		select {
		case <-r.Context().Done():
			return
		case <-states.ready:
			for _, st := range states.take() {
				sse.send("state", "", st)
			}
			continue
		case <-finished:
		}
		break
	}
	for _, st := range states.take() {
		sse.send("state", "", st)
	}
	if runErr != nil {
		ev := workflowErrorEvent{Error: errorBody(runErr)}
		if final.RunID != "" {
			final = withNodes(final)
			ev.State = &final
		}
		sse.send("error", "", ev)
		return
	}
	sse.send("done", "", withNodes(final))
}

// withNodes is st with its nodes a list also before the first has run.
func withNodes(st workflow.State) workflow.State {
	if st.Nodes == nil {
		st.Nodes = []workflow.NodeState{}
	}
	return st
}

// refusal is the error of a run refused for its problems: how many, and
// the first.
func refusal(probs []workflow.Problem) error {
	if len(probs) == 0 {
		return errf("the workflow cannot be read; check it first")
	}
	p := probs[0]
	first := p.Msg
	if p.Path != "" {
		first = p.Path + ": " + first
	}
	if p.Line > 0 {
		first = fmt.Sprintf("line %d: %s", p.Line, first)
	}
	if len(probs) == 1 {
		return errf("the workflow has a problem; fix it before running it: %s", first)
	}
	return errf("the workflow has %d problems; fix them before running it (the first: %s)", len(probs), first)
}

// stateFeed holds a run's states for its stream, encoded when they are
// made: the run never waits for the stream, and a state the runtime goes
// on changing is sent as it was.
type stateFeed struct {
	mu     sync.Mutex
	states []json.RawMessage
	ready  chan struct{}
}

func (f *stateFeed) add(st workflow.State) {
	st = withNodes(st)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(st); err != nil {
		return
	}
	f.mu.Lock()
	f.states = append(f.states, bytes.TrimRight(b.Bytes(), "\n"))
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

func (f *stateFeed) take() []json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.states
	f.states = nil
	return out
}
