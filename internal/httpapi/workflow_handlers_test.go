package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/workflow"
)

// fakeWorkflows is the runtime's side of the editor, by hand: the demo's
// workflow files, a knowledge folder that knows one verified query and
// cannot answer questions with "unknown" in them, and runs through
// workflow's own Runner with answers made up from the question.
type fakeWorkflows struct {
	files []WorkflowFile
	mu    sync.Mutex
	ran   []map[string]string // the params of each run
	// runErr, when set, is what Run fails with after its first state.
	runErr error
}

func demoWorkflows(t *testing.T) *fakeWorkflows {
	t.Helper()
	paths, err := filepath.Glob("../demo/knowledge/workflows/*.yaml")
	if err != nil || len(paths) < 2 {
		t.Fatalf("the demo's workflows: %v %v", paths, err)
	}
	f := &fakeWorkflows{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".yaml")
		f.files = append(f.files, WorkflowFile{Name: name, File: file(name), Source: string(src)})
	}
	return f
}

// runs returns the params of each run so far.
func (f *fakeWorkflows) runs() []map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]string(nil), f.ran...)
}

func (f *fakeWorkflows) List(context.Context) ([]WorkflowFile, error) { return f.files, nil }

func (f *fakeWorkflows) Known(context.Context) (workflow.Known, error) { return fakeKnown{}, nil }

func (f *fakeWorkflows) Run(ctx context.Context, w *workflow.Workflow, params map[string]string, progress func(workflow.State)) (workflow.State, error) {
	f.mu.Lock()
	f.ran = append(f.ran, params)
	f.mu.Unlock()
	g, probs := workflow.Validate(w, fakeKnown{})
	if len(probs) > 0 {
		return workflow.State{}, fmt.Errorf("Run was handed an invalid workflow: %v", probs)
	}
	var log []event.Event
	var failed error
	sink := event.SinkFunc(func(_ context.Context, evs ...event.Event) error {
		log = append(log, evs...)
		st, err := workflow.Fold(log)
		if err != nil {
			return err
		}
		progress(st)
		if f.runErr != nil {
			failed = f.runErr
			return f.runErr
		}
		return nil
	})
	r := &workflow.Runner{Workflow: w, Graph: g, Steps: fakeSteps{}, Sink: sink, Clock: time.Now}
	st, err := r.Start(ctx, "r_wf", params, event.RunStartedData{AsOf: "2026-06-30"})
	if failed != nil {
		return st, quarry.Wrap(quarry.KindConnection, failed, "the state database went away")
	}
	return st, err
}

// fakeKnown knows one verified query; a question with "unknown" in it
// cannot be answered.
type fakeKnown struct{}

func (fakeKnown) Verified(q string) (string, []string) {
	if q == "What is our total revenue?" {
		return q, []string{q}
	}
	return "", []string{"What is our total revenue?"}
}

func (fakeKnown) CheckQuestion(q string) string {
	if strings.Contains(q, "unknown") {
		return "unknown words: unknown"
	}
	return ""
}

// fakeSteps answers every question with one figure, 100 for "last week"
// and 80 otherwise, so that weekly-review's revenue moves.
type fakeSteps struct{}

func (fakeSteps) Ask(_ context.Context, q string) (workflow.StepResult, error) {
	v := 80.0
	if strings.Contains(q, "last week") {
		v = 100
	}
	t := &quarry.Table{Columns: []quarry.Column{{Name: "value", Type: quarry.TypeFloat}}, Rows: [][]any{{v}}}
	return workflow.StepResult{RunID: "r_step", Answered: true, Confidence: 1, Table: t, Headline: q}, nil
}

func (s fakeSteps) Query(ctx context.Context, verified, sql string) (workflow.StepResult, error) {
	return s.Ask(ctx, verified+sql)
}

func (fakeSteps) Notify(context.Context, []string, string, string) (int, []string, error) {
	return 0, nil, nil
}

// listJSON is GET /api/workflows as a client reads it.
type listJSON struct {
	Workflows []struct {
		Name     string             `json:"name"`
		File     string             `json:"file"`
		Source   string             `json:"source"`
		Workflow json.RawMessage    `json:"workflow"`
		Problems []workflow.Problem `json:"problems"`
	} `json:"workflows"`
	Kinds []struct {
		Kind   string   `json:"kind"`
		Fields []string `json:"fields"`
	} `json:"kinds"`
	ParamTypes  []string `json:"param_types"`
	EndStatuses []string `json:"end_statuses"`
}

// checkedResult is POST /api/workflows/check as a client reads it.
type checkedResult struct {
	YAML     string             `json:"yaml"`
	Workflow json.RawMessage    `json:"workflow"`
	Problems []workflow.Problem `json:"problems"`
}

func (s *testServer) check(t *testing.T, body any) checkedResult {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, out := s.do(t, "POST", "/api/workflows/check", string(b))
	if res.StatusCode != 200 {
		t.Fatalf("check: status %d: %s", res.StatusCode, out)
	}
	var c checkedResult
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("check: %v: %s", err, out)
	}
	if c.Problems == nil {
		t.Fatalf("check: problems is not a list: %s", out)
	}
	return c
}

// decodeAndValidate is what the CLI says of a file, from workflow's own
// Decode and Validate: the problems of its form and of its meaning, in
// line order (as workflow.Check puts them).
func decodeAndValidate(file string, src []byte) []workflow.Problem {
	w, probs := workflow.Decode(file, src)
	if w != nil {
		_, more := workflow.Validate(w, fakeKnown{})
		probs = append(probs, more...)
	}
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
	return probs
}

// file is the file of the workflow called name.
func file(name string) string { return workflow.Dir + "/" + name + ".yaml" }

func TestWorkflowEndpointsNeedWorkflows(t *testing.T) {
	s := serve(t, newShop(t), options{})
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/workflows", ""},
		{"POST", "/api/workflows/check", `{"yaml":"name: x"}`},
		{"POST", "/api/workflows/run", `{"yaml":"name: x"}`},
	} {
		res, b := s.do(t, c.method, c.path, c.body)
		if e := errorOf(t, b); res.StatusCode != 404 || e.Kind != "not_found" || e.Message != "this server has no workflows" {
			t.Errorf("%s %s: %d %s", c.method, c.path, res.StatusCode, b)
		}
	}
}

// The demo's workflows are listed with their graphs and no problems, and
// each checks to its own bytes, from its YAML and from its graph; the
// graph that comes back is the graph that went in.
func TestWorkflowExamplesCheckToTheirOwnBytes(t *testing.T) {
	wf := demoWorkflows(t)
	s := serve(t, newShop(t), options{workflows: wf})
	var list listJSON
	s.getJSON(t, "/api/workflows", 200, &list)
	if len(list.Workflows) != len(wf.files) {
		t.Fatalf("listed %d workflows, want %d", len(list.Workflows), len(wf.files))
	}
	for i, f := range list.Workflows {
		want := wf.files[i]
		if f.Name != want.Name || f.File != want.File || f.Source != want.Source {
			t.Errorf("listed %s %s, want %s %s", f.Name, f.File, want.Name, want.File)
		}
		if len(f.Problems) != 0 || string(f.Workflow) == "null" {
			t.Fatalf("%s: problems %v, graph %s", f.Name, f.Problems, f.Workflow)
		}
		fromYAML := s.check(t, map[string]any{"yaml": f.Source})
		if fromYAML.YAML != f.Source || len(fromYAML.Problems) != 0 {
			t.Errorf("%s from its YAML: problems %v; canonical YAML:\n%s", f.Name, fromYAML.Problems, fromYAML.YAML)
		}
		fromGraph := s.check(t, map[string]any{"workflow": f.Workflow})
		if fromGraph.YAML != f.Source || len(fromGraph.Problems) != 0 {
			t.Errorf("%s from its graph: problems %v; YAML:\n%s", f.Name, fromGraph.Problems, fromGraph.YAML)
		}
		// graph → YAML → graph: the same graph, lines and all.
		if diff := cmp.Diff(string(f.Workflow), string(fromGraph.Workflow)); diff != "" {
			t.Errorf("%s: the graph did not come back the same (-listed +checked):\n%s", f.Name, diff)
		}
		if diff := cmp.Diff(string(f.Workflow), string(fromYAML.Workflow)); diff != "" {
			t.Errorf("%s: the graph of its YAML differs from the listed one (-listed +checked):\n%s", f.Name, diff)
		}
		// The graph as a client edits it: without lines or file.
		var g workflow.Workflow
		if err := json.Unmarshal(f.Workflow, &g); err != nil {
			t.Fatal(err)
		}
		g.File, g.Line = "", 0
		for i := range g.Nodes {
			g.Nodes[i].Line = 0
		}
		for i := range g.Params {
			g.Params[i].Line = 0
		}
		if c := s.check(t, map[string]any{"workflow": g}); c.YAML != f.Source || len(c.Problems) != 0 {
			t.Errorf("%s without lines: problems %v; YAML:\n%s", f.Name, c.Problems, c.YAML)
		}
	}
	var kinds []string
	for _, k := range list.Kinds {
		kinds = append(kinds, k.Kind)
		if diff := cmp.Diff(workflow.KindFields(workflow.Kind(k.Kind)), k.Fields); diff != "" || len(k.Fields) == 0 {
			t.Errorf("the fields of %s (-validator +listed):\n%s", k.Kind, diff)
		}
	}
	if diff := cmp.Diff([]string{"ask", "query", "compute", "branch", "wait", "notify", "end"}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"text", "number", "bool"}, list.ParamTypes); diff != "" {
		t.Errorf("param types (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"completed", "stopped"}, list.EndStatuses); diff != "" {
		t.Errorf("end statuses (-want +got):\n%s", diff)
	}
}

// A file that does not decode is listed with a null graph and its
// problems; YAML that does not decode checks to no YAML.
func TestWorkflowThatDoesNotDecode(t *testing.T) {
	wf := &fakeWorkflows{files: []WorkflowFile{{Name: "broken", File: "workflows/broken.yaml", Source: "name: broken\nnodes: [\n"}}}
	s := serve(t, newShop(t), options{workflows: wf})
	res, b := s.do(t, "GET", "/api/workflows", "")
	var list listJSON
	if err := json.Unmarshal(b, &list); err != nil || res.StatusCode != 200 {
		t.Fatalf("list: %d %s", res.StatusCode, b)
	}
	want := decodeAndValidate("workflows/broken.yaml", []byte(wf.files[0].Source))
	if len(list.Workflows) != 1 || string(list.Workflows[0].Workflow) != "null" || len(want) == 0 {
		t.Fatalf("list: %s", b)
	}
	if diff := cmp.Diff(want, list.Workflows[0].Problems); diff != "" {
		t.Errorf("problems (-Decode +listed):\n%s", diff)
	}
	c := s.check(t, map[string]any{"yaml": wf.files[0].Source})
	if c.YAML != "" || string(c.Workflow) != "null" || len(c.Problems) == 0 {
		t.Errorf("check of broken YAML: %+v", c)
	}
}

// Every invalid graph is refused with exactly what workflow.Decode and
// Validate say of the same YAML: there is one validator.
func TestWorkflowCheckSaysWhatValidateSays(t *testing.T) {
	wf := demoWorkflows(t)
	s := serve(t, newShop(t), options{workflows: wf})
	var weekly string
	for _, f := range wf.files {
		if f.Name == "weekly-review" {
			weekly = f.Source
		}
	}
	cases := []struct {
		name string
		edit func(w *workflow.Workflow)
		says string
	}{
		{"a cycle", func(w *workflow.Workflow) { w.Node("note").Next = "revenue" }, "a cycle: revenue → prior"},
		{"a node that follows itself", func(w *workflow.Workflow) { w.Node("orders").Next = "orders" }, "a node cannot follow itself"},
		{"an unreachable node", func(w *workflow.Workflow) {
			w.Nodes = append(w.Nodes, workflow.Node{ID: "lonely", Kind: workflow.End})
		}, "no path from the first node (revenue) reaches lonely"},
		{"an unknown next", func(w *workflow.Workflow) { w.Node("orders").Next = "nowhere" }, `no node is called "nowhere"`},
		{"a node not on every path", func(w *workflow.Workflow) { w.Node("done").Message = "sent {{ note.delivered }}" },
			"note may not have run before done (it is not on every path"},
		{"a type error", func(w *workflow.Workflow) { w.Node("change").Expr = `revenue.value > "x"` }, "mismatched types number and text"},
		{"a compute over a later node", func(w *workflow.Workflow) { w.Node("change").Expr = "moved.taken" }, "moved may not have run before change"},
		{"a field of another kind", func(w *workflow.Workflow) { w.Node("change").Question = "revenue" }, "question is not a field of a compute node; its fields: expr, next"},
		{"a branch without else", func(w *workflow.Workflow) { w.Node("moved").Else = "" }, "missing; name the node that follows when it does not"},
		{"a missing next", func(w *workflow.Workflow) { w.Node("orders").Next = "" }, "this ask node has no next"},
		{"no end", func(w *workflow.Workflow) {
			w.Nodes = w.Nodes[:len(w.Nodes)-1]
		}, `no node is called "done"`},
		{"an unknown kind", func(w *workflow.Workflow) { w.Node("note").Kind = "email" }, `want one of ask, query, compute, branch, wait, notify, end, found "email"`},
		{"an unknown verified query", func(w *workflow.Workflow) {
			n := w.Node("orders")
			n.Kind, n.Question, n.Verified = workflow.Query, "", "orders last week"
		}, `no verified query asks "orders last week"`},
		{"a question that cannot be answered", func(w *workflow.Workflow) { w.Node("orders").Question = "unknown things" },
			`"unknown things" cannot be answered: unknown words: unknown`},
		{"a confidence out of range", func(w *workflow.Workflow) { w.Node("revenue").MinConfidence = 2 }, `want a number from 0 to 1, found "2"`},
		{"a bad parameter default", func(w *workflow.Workflow) { w.Params[0].Default = "lots" }, `threshold is a number; "lots" is not one`},
		{"no nodes", func(w *workflow.Workflow) { w.Nodes = nil }, "a workflow has at least one node"},
		{"a bad name", func(w *workflow.Workflow) { w.Name = "Weekly Review" }, "a workflow's name is lower-case letters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, probs := workflow.Decode(file("weekly-review"), []byte(weekly))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			c.edit(w)
			src := workflow.Encode(w)
			name := w.Name
			if workflow.ValidName(name) != "" {
				name = "untitled"
			}
			want := decodeAndValidate(file(name), src)
			if len(want) == 0 || !strings.Contains(fmt.Sprint(want), c.says) {
				t.Fatalf("the case is not what it says: Validate gives %v, not %q", want, c.says)
			}
			got := s.check(t, map[string]any{"workflow": w})
			if diff := cmp.Diff(want, got.Problems); diff != "" {
				t.Errorf("graph: problems (-Decode+Validate +check):\n%s", diff)
			}
			if got.YAML != string(src) {
				t.Errorf("graph: the YAML is not Encode's:\n%s\nwant:\n%s", got.YAML, src)
			}
			if c.name == "a bad name" {
				return // its YAML names no file
			}
			// The same YAML, sent as YAML.
			got = s.check(t, map[string]any{"yaml": string(src)})
			if diff := cmp.Diff(want, got.Problems); diff != "" {
				t.Errorf("yaml: problems (-Decode+Validate +check):\n%s", diff)
			}
			// A run of it is refused with the same problems; nothing runs.
			b, _ := json.Marshal(map[string]any{"workflow": w})
			res, out := s.do(t, "POST", "/api/workflows/run", string(b))
			var refused struct {
				Error    apiError           `json:"error"`
				Problems []workflow.Problem `json:"problems"`
				YAML     string             `json:"yaml"`
			}
			if err := json.Unmarshal(out, &refused); err != nil || res.StatusCode != 400 || refused.Error.Kind != "input" ||
				!strings.Contains(refused.Error.Message, want[0].Msg) || strings.Contains(refused.Error.Message, "\n") {
				t.Errorf("run: %d %s", res.StatusCode, out)
			}
			if diff := cmp.Diff(want, refused.Problems); diff != "" || refused.YAML != string(src) {
				t.Errorf("run: problems (-Decode+Validate +refusal):\n%s", diff)
			}
		})
	}
	if n := len(wf.runs()); n != 0 {
		t.Errorf("an invalid workflow ran %d times", n)
	}
}

// A run streams a state after each step, then done with the final state.
func TestWorkflowRunStreams(t *testing.T) {
	wf := demoWorkflows(t)
	s := serve(t, newShop(t), options{workflows: wf})
	var list listJSON
	s.getJSON(t, "/api/workflows", 200, &list)
	var graph json.RawMessage
	for _, f := range list.Workflows {
		if f.Name == "weekly-review" {
			graph = f.Workflow
		}
	}
	evs := s.runWorkflow(t, fmt.Sprintf(`{"workflow":%s,"params":{"threshold":"0.1"}}`, graph))
	if len(evs) < 3 || evs[len(evs)-1].name != "done" {
		t.Fatalf("events %v", names(evs))
	}
	var last workflow.State
	nodes := 0
	for i, e := range evs[:len(evs)-1] {
		if e.name != "state" {
			t.Fatalf("event %d is %s, want state: %v", i, e.name, names(evs))
		}
		var st workflow.State
		if err := json.Unmarshal(e.data, &st); err != nil {
			t.Fatal(err)
		}
		if st.Nodes == nil {
			t.Errorf("state %d: nodes is not a list: %s", i, e.data)
		}
		if len(st.Nodes) < nodes {
			t.Errorf("state %d has %d nodes, fewer than before (%d)", i, len(st.Nodes), nodes)
		}
		nodes, last = len(st.Nodes), st
	}
	var done workflow.State
	if err := json.Unmarshal(evs[len(evs)-1].data, &done); err != nil {
		t.Fatal(err)
	}
	if done.Status != workflow.StatusCompleted || done.Workflow != "weekly-review" || done.RunID != "r_wf" {
		t.Fatalf("done: %+v", done)
	}
	// revenue 100 against 80 moved by more than the threshold: the note ran.
	var ran []string
	for _, n := range done.Nodes {
		if n.Status != workflow.NodeSucceeded {
			t.Errorf("node %s: %s %s", n.ID, n.Status, n.Message)
		}
		ran = append(ran, n.ID)
	}
	if diff := cmp.Diff([]string{"revenue", "prior", "orders", "top_products", "change", "moved", "note", "done"}, ran); diff != "" {
		t.Errorf("nodes run (-want +got):\n%s", diff)
	}
	if last.Status != workflow.StatusCompleted || len(last.Nodes) != len(done.Nodes) {
		t.Errorf("the last state is %s with %d nodes", last.Status, len(last.Nodes))
	}
	if ran := wf.runs(); len(ran) != 1 || ran[0]["threshold"] != "0.1" {
		t.Errorf("runs with params %v", ran)
	}
}

// A run that fails ends its stream with error, after the states it had.
func TestWorkflowRunError(t *testing.T) {
	wf := demoWorkflows(t)
	wf.runErr = errors.New("disk full")
	s := serve(t, newShop(t), options{workflows: wf})
	evs := s.runWorkflow(t, fmt.Sprintf(`{"yaml":%q}`, wf.files[len(wf.files)-1].Source))
	if len(evs) < 2 || evs[0].name != "state" || evs[len(evs)-1].name != "error" {
		t.Fatalf("events %v", names(evs))
	}
	var e workflowErrorEvent
	if err := json.Unmarshal(evs[len(evs)-1].data, &e); err != nil {
		t.Fatal(err)
	}
	if e.Error.Kind != "connection" || e.Error.Message != "the state database went away" {
		t.Errorf("error event: %s", evs[len(evs)-1].data)
	}
	// A parameter the workflow does not have: the runtime's own refusal.
	wf.runErr = nil
	evs = s.runWorkflow(t, fmt.Sprintf(`{"yaml":%q,"params":{"treshold":"1"}}`, wf.files[len(wf.files)-1].Source))
	if len(evs) != 1 || evs[0].name != "error" || !strings.Contains(string(evs[0].data), `has no parameter \"treshold\"; its parameters: threshold`) {
		t.Errorf("unknown param: %v %s", names(evs), evs[len(evs)-1].data)
	}
}

func (s *testServer) runWorkflow(t *testing.T, body string) []sseEvent {
	t.Helper()
	req, _ := http.NewRequest("POST", s.base+"/api/workflows/run", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("run: status %d, %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	return readSSE(t, res.Body)
}

func TestWorkflowBadRequests(t *testing.T) {
	wf := demoWorkflows(t)
	s := serve(t, newShop(t), options{workflows: wf})
	huge := `{"yaml":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name, path, body string
		status           int
		says             string
	}{
		{"malformed", "/api/workflows/check", `{"yaml":`, 400, "ends in the middle"},
		{"not JSON", "/api/workflows/run", `name: x`, 400, "not valid JSON"},
		{"both", "/api/workflows/check", `{"yaml":"name: x","workflow":{"name":"x","nodes":[]}}`, 400, "not both"},
		{"neither", "/api/workflows/check", `{}`, 400, `send the definition as "yaml"`},
		{"params to check", "/api/workflows/check", `{"yaml":"name: x","params":{}}`, 400, `unknown field "params"`},
		{"unknown node field", "/api/workflows/check", `{"workflow":{"name":"x","nodes":[{"id":"a","kind":"end","colour":"red"}]}}`, 400, `unknown field "colour"`},
		{"a number as text", "/api/workflows/check", `{"workflow":{"name":"x","nodes":[{"id":"a","kind":"ask","retries":"2"}]}}`, 400, "retries"},
		{"huge", "/api/workflows/check", huge, 413, "limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, b := s.do(t, "POST", c.path, c.body)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, b)
			}
			if e := errorOf(t, b); !strings.Contains(e.Message, c.says) || strings.Contains(e.Message, "\n") {
				t.Errorf("message %q does not say %q on one line", e.Message, c.says)
			}
		})
	}
}

// The editor's endpoints keep the server's Host and cross-origin checks.
func TestWorkflowEndpointsRefuseOtherOrigins(t *testing.T) {
	wf := demoWorkflows(t)
	s := serve(t, newShop(t), options{workflows: wf})
	body := fmt.Sprintf(`{"yaml":%q}`, wf.files[0].Source)
	port := s.host[strings.LastIndex(s.host, ":"):]
	cases := []struct {
		name, method, path, body string
		header                   []string
		status                   int
	}{
		{"cross-origin check", "POST", "/api/workflows/check", body, []string{"Origin", "http://evil.example"}, 403},
		{"cross-origin run", "POST", "/api/workflows/run", body, []string{"Origin", "http://localhost:1"}, 403},
		{"cross-site run", "POST", "/api/workflows/run", body, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site list", "GET", "/api/workflows", "", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"foreign Host", "GET", "/api/workflows", "", []string{"Host", "evil.example" + port}, 403},
		{"same-origin check", "POST", "/api/workflows/check", body, []string{"Origin", s.base, "Sec-Fetch-Site", "same-origin"}, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, b := s.do(t, c.method, c.path, c.body, c.header...)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, b)
			}
			if c.status == 403 && errorOf(t, b).Kind != "forbidden" {
				t.Errorf("body %s", b)
			}
		})
	}
	if len(wf.runs()) != 0 {
		t.Errorf("a refused request ran a workflow")
	}
}
