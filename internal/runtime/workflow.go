package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/deliver"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/narrate/chart"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/suggest"
	"github.com/quarrydata/quarry/internal/workflow"
)

// WorkflowSource is one workflows/*.yaml file of the knowledge folder.
type WorkflowSource struct {
	Name   string // the file's name without .yaml
	File   string // relative to the knowledge folder (workflow.File)
	Path   string // on disk
	Source []byte
}

// maxWorkflowFile bounds a workflow file.
const maxWorkflowFile = 1 << 20

// WorkflowSources lists the knowledge folder's workflows/*.yaml files,
// sorted by name. A missing folder is none.
func (r *Runtime) WorkflowSources() ([]WorkflowSource, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cfg.Knowledge, workflow.Dir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "read %s", dir)
	}
	var out []WorkflowSource
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || ext != ".yaml" && ext != ".yml" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err == nil && info.Size() > maxWorkflowFile {
			return nil, quarry.Errorf(quarry.KindInput, "%s is %d bytes; a workflow file is at most 1 MB", p, info.Size())
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInput, err, "read %s", p)
		}
		out = append(out, WorkflowSource{Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), File: workflow.Dir + "/" + e.Name(), Path: p, Source: src})
	}
	return out, nil
}

// WorkflowKnown is what a workflow is validated against: the knowledge
// folder's verified queries, and, when questions go to the builtin planner
// (no language model), whether it can read each question.
func (r *Runtime) WorkflowKnown() (workflow.Known, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	f, err := r.Folder()
	if err != nil {
		return nil, err
	}
	kn := &workflowKnown{now: r.o.Now(), r: r, cfg: cfg, channels: cfg.ChannelNames, cfgFile: filepath.Base(cfg.Path)}
	for _, v := range f.Verified {
		kn.verified = append(kn.verified, v.Question)
	}
	if m, err := r.ModelFor(cfg, ""); err == nil && m.Provider == config.ProviderBuiltin && !cfg.Manual("") {
		k, err := r.Knowledge()
		if err != nil {
			return nil, err
		}
		kn.k = k
	}
	return kn, nil
}

type workflowKnown struct {
	verified []string
	k        *analyst.Knowledge // nil: a model reads the questions
	now      time.Time
	r        *Runtime
	cfg      *config.Config
	channels []string
	cfgFile  string
}

// CheckSQL is the guard's verdict on a query node's SQL, on the default
// connection under the column policy, as the run would check it.
func (w *workflowKnown) CheckSQL(sql string) string {
	ctx := context.Background()
	conn, _, err := w.r.Conn(ctx, "")
	if err != nil {
		return ""
	}
	g, release, err := w.r.ConnGuard(ctx, conn)
	if err != nil {
		return ""
	}
	defer release()
	v := g.Check(ctx, sql)
	if v.Allowed {
		return ""
	}
	return "the guard refuses it: " + quarry.Message(v.Err())
}

// Privacy is the tier of the default connection, which a workflow's
// questions run on ("" when there is none).
func (w *workflowKnown) Privacy() quarry.Privacy {
	return defaultPrivacy(w.cfg)
}

// defaultPrivacy is the privacy tier of cfg's default connection, "" when
// it has none (manual mode).
func defaultPrivacy(cfg *config.Config) quarry.Privacy {
	if cfg.Manual("") {
		return ""
	}
	cc, err := cfg.Conn("")
	if err != nil {
		return ""
	}
	return cc.Privacy.Or()
}

// CheckChannel says whether quarry.yaml defines the channel.
func (w *workflowKnown) CheckChannel(name string) string {
	if slices.Contains(w.channels, name) {
		return ""
	}
	fix := "define it under channels: in " + w.cfgFile + " (docs/deliver.md), or remove it"
	if len(w.channels) > 0 {
		fix = "the channels are " + strings.Join(w.channels, ", ") + "; " + fix
		if best, d := suggest.Closest(name, w.channels); best != "" && d <= 2 {
			fix = fmt.Sprintf("did you mean %q? ", best) + fix
		}
	}
	return fmt.Sprintf("no channel named %q in %s; %s", name, w.cfgFile, fix)
}

func (w *workflowKnown) Verified(q string) (string, []string) {
	for _, v := range w.verified {
		if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(q)) {
			return v, w.verified
		}
	}
	return "", w.verified
}

// CheckQuestion plans the question with the builtin planner (nothing
// runs): a refusal or a clarification is the reason it cannot be answered.
func (w *workflowKnown) CheckQuestion(q string) string {
	if w.k == nil {
		return ""
	}
	pl, _, err := w.k.Plan(context.Background(), q, w.now)
	if err != nil {
		return quarry.Message(err)
	}
	switch pl.Kind {
	case planner.KindRefuse, planner.KindUnanswered:
		msg := strings.TrimSpace(pl.Reason)
		if len(pl.Unknown) > 0 {
			msg = "the builtin planner does not know " + strings.Join(pl.Unknown, ", ")
			if pl.DidYouMean != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", pl.DidYouMean)
			}
		}
		if msg == "" {
			msg = "the builtin planner cannot read it"
		}
		return msg
	case planner.KindClarify:
		return "it needs a choice first: " + pl.Question + " (" + strings.Join(pl.Options, "; ") + "); write the question so it does not"
	}
	return ""
}

// Workflow decodes and validates the workflow called name. A workflow with
// problems is a KindConfig error listing each with its file and line.
func (r *Runtime) Workflow(name string) (*workflow.Workflow, workflow.Graph, error) {
	srcs, err := r.WorkflowSources()
	if err != nil {
		return nil, workflow.Graph{}, err
	}
	var names []string
	for _, s := range srcs {
		if s.Name == name {
			return r.CheckWorkflow(s.File, s.Source)
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, workflow.Graph{}, quarry.Errorf(quarry.KindNotFound, "no workflow %q: the knowledge folder has no workflows/ yet; write one (docs/workflows.md)", name)
	}
	hint := ""
	if best, d := suggest.Closest(name, names); best != "" && d <= 3 {
		hint = fmt.Sprintf(" (did you mean %q?)", best)
	}
	return nil, workflow.Graph{}, quarry.Errorf(quarry.KindNotFound, "no workflow %q%s; quarry workflow list shows them", name, hint)
}

// CheckWorkflow decodes and validates one workflow file's text.
func (r *Runtime) CheckWorkflow(file string, src []byte) (*workflow.Workflow, workflow.Graph, error) {
	known, err := r.WorkflowKnown()
	if err != nil {
		return nil, workflow.Graph{}, err
	}
	w, g, probs := workflow.Check(file, src, known)
	if len(probs) > 0 {
		return w, g, r.problemsError(probs)
	}
	return w, g, nil
}

// WorkflowProblems is a KindConfig error that carries every problem.
type WorkflowProblems struct {
	Problems []workflow.Problem
	Dir      string // the knowledge folder as shown to the user
}

func (e *WorkflowProblems) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.Format(e.Dir)
	}
	return strings.Join(lines, "\n")
}

func (r *Runtime) problemsError(probs []workflow.Problem) error {
	cfg, _ := r.Config()
	dir := cfg.Knowledge
	if rel, err := filepath.Rel(cfg.Dir, cfg.Knowledge); err == nil && !strings.HasPrefix(rel, "..") {
		dir = rel
	}
	e := &WorkflowProblems{Problems: probs, Dir: dir}
	msg := probs[0].Format(dir)
	if len(probs) > 1 {
		msg += fmt.Sprintf(" (and %d more problems; quarry workflow validate lists them)", len(probs)-1)
	}
	return quarry.Wrap(quarry.KindConfig, e, "%s", msg)
}

// WorkflowRequest is how a workflow runs: its parameters (text, by name),
// the day relative dates are read against, who acts (approvals), and a
// function told the run's state after each step.
type WorkflowRequest struct {
	Params   map[string]string
	AsOf     time.Time
	By       string
	Progress func(workflow.State)
	// Server, when a server runs the workflow for a request, is where its
	// steps ask and query: the server's generation as the person of the
	// request is served (their groups' policy and connections), not the
	// runtime's own connection.
	Server *Server
}

// workflowRowCap bounds the rows one step of a workflow reads.
const workflowRowCap = 10000

// runner builds the Runner of w: its steps are the analyst's (the
// builtin planner, or the model through Ask), recorded in the store.
func (r *Runtime) runner(ctx context.Context, w *workflow.Workflow, g workflow.Graph, req WorkflowRequest, prior []event.Event) (*workflow.Runner, func(), error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return nil, nil, err
	}
	if probs := workflowChannels(cfg, w); len(probs) > 0 {
		return nil, nil, quarry.Errorf(quarry.KindConfig, "%s", probs[0])
	}
	m, err := r.ModelFor(cfg, "")
	if err != nil {
		return nil, nil, err
	}
	steps := &workflowSteps{r: r, cfg: cfg, asOf: req.AsOf, srv: req.Server}
	release := func() {}
	if m.Provider == config.ProviderBuiltin && !cfg.Manual("") && req.Server == nil {
		k, err := r.Knowledge()
		if err != nil {
			return nil, nil, err
		}
		an, rel, err := r.Analyst(ctx, "", min(cfg.Limits.MaxRows, workflowRowCap))
		if err != nil {
			return nil, nil, err
		}
		steps.an, steps.k, release = an, k, rel
	}
	var sink event.Sink = st
	if req.Progress != nil {
		sink = &progressSink{next: st, progress: req.Progress, log: slices.Clone(prior)}
	}
	return &workflow.Runner{Workflow: w, Graph: g, Steps: steps, Sink: sink, Clock: r.o.Now, By: req.By, Holder: holder(), Privacy: defaultPrivacy(cfg)}, release, nil
}

// RunWorkflow starts a run of w (valid: Workflow or CheckWorkflow).
func (r *Runtime) RunWorkflow(ctx context.Context, w *workflow.Workflow, g workflow.Graph, req WorkflowRequest) (workflow.State, error) {
	run, release, err := r.runner(ctx, w, g, req, nil)
	if err != nil {
		return workflow.State{}, err
	}
	defer release()
	k, err := r.Folder()
	if err != nil {
		return workflow.State{}, err
	}
	return run.Start(ctx, r.NewID("w"), req.Params, event.RunStartedData{AsOf: req.AsOf.Format(time.DateOnly), Knowledge: k.Hash, Owner: req.By})
}

// workflowRun is a workflow run's state and log as recorded.
func (r *Runtime) workflowRun(ctx context.Context, runID string) (workflow.State, []event.Event, store.State, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return workflow.State{}, nil, nil, err
	}
	evs, err := st.Events(ctx, runID)
	if err != nil {
		return workflow.State{}, nil, nil, err
	}
	ws, err := workflow.Fold(evs)
	if err != nil {
		return workflow.State{}, nil, nil, err
	}
	if ws.Workflow == "" {
		return ws, nil, nil, quarry.Errorf(quarry.KindNotFound, "run %s is not a workflow run; quarry runs show %s shows it", ws.RunID, ws.RunID)
	}
	return ws, evs, st, nil
}

// WorkflowRun is a workflow run's state as it may be shown now: what its
// nodes gave, with what the column policy of now restricts replaced by
// its mark (restrictedNodes).
func (r *Runtime) WorkflowRun(ctx context.Context, runID string) (workflow.State, error) {
	ws, _, st, err := r.workflowRun(ctx, runID)
	if err != nil {
		return ws, err
	}
	w, _, err := r.recorded(ws)
	if err != nil {
		return ws, err
	}
	restricted, err := r.restrictedNodes(ctx, st, w, ws)
	if err != nil {
		return ws, err
	}
	return redactRun(ws, restricted), nil
}

// WorkflowRuns lists workflow runs, newest first (limit <= 0: all), each
// as WorkflowRun shows it.
func (r *Runtime) WorkflowRuns(ctx context.Context, limit int) ([]workflow.State, error) {
	return r.workflowRuns(ctx, limit, r.WorkflowRun)
}

// WorkflowRunStatuses lists workflow runs, newest first (limit <= 0:
// all), with where each stands (status, start, wait) but none of what its
// nodes gave: enough to list workflows and to schedule, without reading
// every node back under the policy.
func (r *Runtime) WorkflowRunStatuses(ctx context.Context, limit int) ([]workflow.State, error) {
	return r.workflowRuns(ctx, limit, func(ctx context.Context, runID string) (workflow.State, error) {
		ws, _, _, err := r.workflowRun(ctx, runID)
		for i := range ws.Nodes {
			ws.Nodes[i].Output, ws.Nodes[i].Message, ws.Nodes[i].Resumed, ws.Nodes[i].Approval = nil, "", nil, ""
		}
		ws.Message = ""
		if ws.Waiting != nil {
			wt := *ws.Waiting
			wt.Approval = ""
			ws.Waiting = &wt
		}
		return ws, err
	})
}

func (r *Runtime) workflowRuns(ctx context.Context, limit int, read func(context.Context, string) (workflow.State, error)) ([]workflow.State, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	runs, err := st.Runs(ctx, store.RunFilter{Kind: "workflow", Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]workflow.State, 0, len(runs))
	for _, run := range runs {
		ws, err := read(ctx, run.RunID)
		if err != nil {
			return nil, err
		}
		out = append(out, ws)
	}
	return out, nil
}

// recorded is the definition a run recorded, checked again (without the
// knowledge: a run goes on with what it started with).
func (r *Runtime) recorded(ws workflow.State) (*workflow.Workflow, workflow.Graph, error) {
	w, g, probs := workflow.Check(ws.File, []byte(ws.Definition), nil)
	if len(probs) > 0 {
		return nil, g, quarry.Errorf(quarry.KindInternal, "the definition run %s recorded does not validate: %s", ws.RunID, probs[0].Msg)
	}
	return w, g, nil
}

// ResumeWorkflow goes on with a run from its log (workflow.Runner.Resume);
// approve, when not nil, first approves or refuses the wait that holds it.
func (r *Runtime) ResumeWorkflow(ctx context.Context, runID string, approve *bool, note string, req WorkflowRequest) (workflow.State, error) {
	ws, evs, st, err := r.workflowRun(ctx, runID)
	if err != nil {
		return workflow.State{}, err
	}
	w, g, err := r.recorded(ws)
	if err != nil {
		return ws, err
	}
	if err := refuseLive(ws); err != nil {
		return ws, err
	}
	if !ws.Final() {
		restricted, err := r.restrictedNodes(ctx, st, w, ws)
		if err != nil {
			return ws, err
		}
		if err := refuseRestricted(ws, restricted); err != nil {
			return redactRun(ws, restricted), err
		}
	}
	if ws.AsOf != "" && req.AsOf.IsZero() {
		req.AsOf, _ = time.Parse(time.DateOnly, ws.AsOf)
	}
	run, release, err := r.runner(ctx, w, g, req, evs)
	if err != nil {
		return ws, err
	}
	defer release()
	var out workflow.State
	if approve != nil {
		out, err = run.Approve(ctx, evs, *approve, note)
	} else {
		out, err = run.Resume(ctx, evs)
	}
	if quarry.KindOf(err) == quarry.KindConflict {
		// Another process appended to the run first (an approval, a
		// resume): its record stands.
		err = quarry.Wrap(quarry.KindInput, err, "another quarry process went on with run %s at the same time, and its record stands; quarry workflow show %s says where the run is", runID, runID)
	}
	return out, err
}

// workflowChannels says which channels of the workflow's notify nodes
// quarry.yaml does not define.
func workflowChannels(cfg *config.Config, w *workflow.Workflow) []string {
	var out []string
	for i, n := range w.Nodes {
		for _, c := range n.Channels {
			if _, ok := cfg.Channels[c]; ok {
				continue
			}
			fix := "define it under channels: in " + filepath.Base(cfg.Path) + " (docs/deliver.md), or remove it"
			if len(cfg.ChannelNames) > 0 {
				fix = "the channels are " + strings.Join(cfg.ChannelNames, ", ") + "; " + fix
			}
			out = append(out, fmt.Sprintf("%s: nodes[%d].channels: no channel named %q in %s; %s", w.File, i, c, filepath.Base(cfg.Path), fix))
		}
	}
	return out
}

// progressSink hands each stored event's new state to progress.
type progressSink struct {
	next     event.Sink
	progress func(workflow.State)
	log      []event.Event
}

func (p *progressSink) Append(ctx context.Context, evs ...event.Event) error {
	if err := p.next.Append(ctx, evs...); err != nil {
		return err
	}
	p.log = append(p.log, evs...)
	if st, err := workflow.Fold(p.log); err == nil && st.Workflow != "" {
		p.progress(st)
	}
	return nil
}

// workflowSteps are a workflow's calls into the analyst and the channels.
type workflowSteps struct {
	r    *Runtime
	cfg  *config.Config
	asOf time.Time
	an   *analyst.Analyst   // the builtin planner's analyst; nil when a model asks
	k    *analyst.Knowledge // its knowledge
	srv  *Server            // the server the steps run through, when a server runs it
}

// Ask asks one question: the builtin planner directly (one analyst for
// the whole workflow), or through Ask (a model) otherwise.
func (s *workflowSteps) Ask(ctx context.Context, question string) (workflow.StepResult, error) {
	if s.srv != nil {
		rec, err := s.r.Recorder(ctx)
		if err != nil {
			return workflow.StepResult{}, err
		}
		out, err := s.srv.Ask(ctx, rec, question, s.asOf, agent.AskOptions{})
		return s.result(ctx, out, err)
	}
	if s.an != nil {
		rec, err := s.r.Recorder(ctx)
		if err != nil {
			return workflow.StepResult{}, err
		}
		out, err := builtinPlanner{an: s.an, k: s.k}.Ask(ctx, rec, question, s.asOf, agent.AskOptions{})
		return s.result(ctx, out, err)
	}
	ans, err := s.r.Ask(ctx, AskRequest{Question: question, AsOf: s.asOf})
	return s.result(ctx, ans.Outcome, err)
}

// Query runs a verified query (through the builtin planner, which maps its
// question onto it exactly) or SQL (through the guard and the column
// policy, as quarry run does).
func (s *workflowSteps) Query(ctx context.Context, verified, sql string) (workflow.StepResult, error) {
	an, k, release, err := s.analyst(ctx, verified != "")
	if err != nil {
		return workflow.StepResult{}, err
	}
	defer release()
	rec, err := s.r.Recorder(ctx)
	if err != nil {
		return workflow.StepResult{}, err
	}
	if verified != "" {
		out, err := an.Ask(ctx, rec, k, verified, s.asOf)
		return s.result(ctx, out, err)
	}
	sink := &tableSink{max: workflowRowCap}
	out, err := an.Run(ctx, rec, sql, sink)
	res := workflow.StepResult{Table: &sink.t}
	if out != nil {
		res.RunID, res.ResultID = out.RunID, out.ResultID
	}
	if err != nil {
		res.Message, res.Transient = quarry.Message(err), transient(err)
		return res, nil
	}
	if out != nil && out.Truncated {
		res.Message = fmt.Sprintf("the query returned more than %d rows, the most a workflow step reads; aggregate in the SQL (GROUP BY, LIMIT) so the step reads the answer itself", workflowRowCap)
		return res, nil
	}
	// SQL has no reading to be confident about: its confidence is what the
	// guard and the engine vouch for, the rows as they came.
	res.Answered, res.Confidence = true, 1
	return res, nil
}

// analyst returns the analyst of one query step, and with knowledge the
// knowledge its verified query is looked up in: the server's, as the
// request's person is served, when a server runs the workflow.
func (s *workflowSteps) analyst(ctx context.Context, knowledge bool) (*analyst.Analyst, *analyst.Knowledge, func(), error) {
	rows := min(s.cfg.Limits.MaxRows, workflowRowCap)
	if s.srv != nil {
		an, done, err := s.srv.Start(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		an.Limits = limits(s.cfg, rows)
		var k *analyst.Knowledge
		if knowledge {
			p, err := s.srv.Project(ctx)
			if err != nil {
				done()
				return nil, nil, nil, err
			}
			k = p.Knowledge
		}
		return an, k, done, nil
	}
	an, release, err := s.r.Analyst(ctx, "", rows)
	if err != nil {
		return nil, nil, nil, err
	}
	var k *analyst.Knowledge
	if knowledge {
		if k, err = s.r.Knowledge(); err != nil {
			release()
			return nil, nil, nil, err
		}
	}
	return an, k, release, nil
}

func (s *workflowSteps) result(ctx context.Context, out *analyst.AskOutcome, err error) (workflow.StepResult, error) {
	o := analyst.OutcomeOf(out, err)
	res := workflow.StepResult{RunID: o.RunID, Answered: o.Status == analyst.Answered, Confidence: o.Confidence,
		Headline: o.Headline, Table: o.Table, ResultID: o.ResultID}
	if !res.Answered {
		res.Message = o.Message
		if o.Status == analyst.Clarify {
			res.Message = "the question needs a choice: " + o.Clarify + " (" + strings.Join(o.Options, "; ") + ")"
		}
		res.Transient = err != nil && transient(err)
		if err != nil && o.RunID == "" && !o.NotAnswered() {
			return res, err
		}
	}
	for _, c := range o.Checks {
		if c.Status == "fail" {
			res.FailedChecks = append(res.FailedChecks, c.Name+": "+c.Detail)
		}
	}
	if o.Reading != nil && len(o.Reading.Measures) > 0 {
		res.Measure = o.Reading.Measures[0].Name
		res.Measures = len(o.Reading.Measures)
	}
	if o.RunID != "" {
		if st, e := s.r.Store(ctx); e == nil {
			if rs, e := st.Run(ctx, o.RunID); e == nil {
				res.CostUSD = rs.CostMicroUSD
			}
		}
	}
	return res, nil
}

// transient says whether trying again may help.
func transient(err error) bool {
	return slices.Contains([]quarry.Kind{quarry.KindTimeout, quarry.KindConnection}, quarry.KindOf(err))
}

// Notify delivers a message to the channels named (checked when the run
// began), recording nothing beyond the run's own event: the workflow's
// log is the record.
func (s *workflowSteps) Notify(ctx context.Context, channels []string, title, message string) (int, []string, error) {
	sender := &deliver.Sender{Clock: s.r.o.Now}
	var ok int
	var errs []string
	for _, name := range channels {
		ch := s.cfg.Channels[name]
		if _, err := sender.Send(ctx, ch.Deliver(), deliver.Message{Title: title, Text: message}); err != nil {
			errs = append(errs, name+": "+quarry.Message(err))
			continue
		}
		ok++
	}
	if ok == 0 && len(errs) > 0 {
		return ok, errs, quarry.Errorf(quarry.KindConnection, "no channel took the message: %s", strings.Join(errs, "; "))
	}
	return ok, errs, nil
}

// WorkflowReport lays a workflow run out as one document: each step with
// its figures bound to result cells, the SQL and a chart of each answer
// (from the stored result, read back under the policy of now), and a link
// to each step's provenance.
func (r *Runtime) WorkflowReport(ctx context.Context, runID string) (workflow.Report, error) {
	cfg, err := r.Config()
	if err != nil {
		return workflow.Report{}, err
	}
	ws, err := r.WorkflowRun(ctx, runID)
	if err != nil {
		return workflow.Report{}, err
	}
	w, _, err := r.recorded(ws)
	if err != nil {
		return workflow.Report{}, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return workflow.Report{}, err
	}
	results := r.ReadRedacted(st)
	details := map[string]workflow.StepDetail{}
	for _, n := range ws.Nodes {
		if n.RunID == "" {
			continue
		}
		d := workflow.StepDetail{Link: RunLink(cfg, n.RunID), Command: "quarry runs export " + n.RunID}
		rs, err := st.Run(ctx, n.RunID)
		if err == nil {
			d.SQL = rs.SQL
			if rs.Kind == "ask" && !strings.Contains(string(n.Output), `"restricted"`) {
				d.Asked = rs.Question
			}
		}
		var out workflow.AnswerOutput
		if json.Unmarshal(n.Output, &out) == nil {
			d.Headline = out.Headline
			if out.ResultID != "" {
				if t, err := results.Result(ctx, out.ResultID); err == nil && len(t.Rows) > 1 {
					title := w.Node(n.ID).Title
					if spec := narrate.ChooseChart(t, nil, title); spec.Kind != "" && spec.Kind != narrate.ChartNone && spec.Kind != narrate.ChartFigure {
						if svg, err := chart.RenderSVG(spec, 720, 360); err == nil {
							d.ChartSVG = svg
						}
					}
				}
			}
		}
		details[n.ID] = d
	}
	return workflow.NewReport(w, ws, details), nil
}
