package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/workflow"
)

// Exit codes of quarry workflow run, resume and approve beyond the
// kinds' table: a run that stopped on a branch, a check or a refusal is
// 1; one that waits is 10; one whose step failed is 5.
const (
	errStopped = silentError(quarry.ExitRejected)
	errWaiting = silentError(10)
	errFailed  = silentError(quarry.ExitQuery)
)

func (a *app) workflowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workflow",
		Short: "Workflows: analyses of several steps, as diffable YAML, run and resumed from their record",
		Long: `A workflow is a graph of steps in the knowledge folder (workflows/NAME.yaml,
docs/workflows.md): questions to the analyst, verified queries or SQL through
the guard, small computations over earlier results, branches, waits (for a
time or a person's approval), notifications and an end. Each step is recorded
as an event of the workflow's run (and each question as a run of its own), so
a run that was interrupted or is waiting goes on with quarry workflow resume.`,
		Example: `  quarry workflow list
  quarry workflow validate
  quarry workflow run weekly-review --as-of 2026-06-30
  quarry workflow approve w_01J… --note "checked against the ledger"
  quarry workflow report w_01J… --html -o review.html`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.workflowListCmd(), a.workflowValidateCmd(), a.workflowShowCmd(), a.workflowRunCmd(),
		a.workflowResumeCmd(), a.workflowApproveCmd(), a.workflowRunsCmd(), a.workflowFmtCmd(), a.workflowReportCmd(), a.workflowTickCmd())
	return cmd
}

// workflowListing is one workflow as list prints it.
type workflowListing struct {
	Name        string             `json:"name"`
	File        string             `json:"file"`
	Description string             `json:"description,omitempty"`
	Nodes       int                `json:"nodes"`
	Schedule    string             `json:"schedule,omitempty"`
	Valid       bool               `json:"valid"`
	Problems    []workflow.Problem `json:"problems,omitempty"`
	LastRun     *workflowRunView   `json:"last_run,omitempty"`
	// outside says File is a path of its own, not in the knowledge folder.
	outside bool
}

type workflowRunView struct {
	RunID     string    `json:"run_id"`
	Status    string    `json:"status"`
	StartedAt time.Time `json:"started_at"`
}

// checked decodes and validates every workflow file.
func (a *app) checkedWorkflows() ([]workflowListing, error) {
	srcs, err := a.rt.WorkflowSources()
	if err != nil {
		return nil, err
	}
	known, err := a.rt.WorkflowKnown()
	if err != nil {
		return nil, err
	}
	out := make([]workflowListing, 0, len(srcs))
	for _, s := range srcs {
		l := workflowListing{Name: s.Name, File: s.File}
		w, _, probs := workflow.Check(s.File, s.Source, known)
		if w != nil {
			l.Name, l.Description, l.Nodes, l.Schedule = w.Name, w.Description, len(w.Nodes), w.Schedule
		}
		l.Problems, l.Valid = probs, len(probs) == 0
		out = append(out, l)
	}
	return out, nil
}

func (a *app) workflowListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the workflows of the knowledge folder, whether each is valid, and its last run",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, _ []string) error {
		ls, err := a.checkedWorkflows()
		if err != nil {
			return err
		}
		runs, err := a.rt.WorkflowRunStatuses(ctx, 0)
		if err != nil {
			return err
		}
		for i := range ls {
			for _, r := range runs {
				if r.Workflow == ls[i].Name {
					ls[i].LastRun = &workflowRunView{RunID: r.RunID, Status: r.Status, StartedAt: r.StartedAt}
					break
				}
			}
		}
		if asJSON {
			return writeJSON(a.stdout, ls)
		}
		if len(ls) == 0 {
			fmt.Fprintln(a.stdout, "No workflows yet: write one in the knowledge folder's workflows/ (docs/workflows.md).")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tNODES\tSCHEDULE\tVALID\tLAST RUN")
		for _, l := range ls {
			valid, last := "yes", "-"
			if !l.Valid {
				valid = fmt.Sprintf("no (%d problems)", len(l.Problems))
			}
			if l.LastRun != nil {
				last = fmt.Sprintf("%s %s (%s)", l.LastRun.Status, l.LastRun.StartedAt.Local().Format("2006-01-02 15:04"), l.LastRun.RunID)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", l.Name, l.Nodes, orDash(l.Schedule), valid, last)
		}
		return tw.Flush()
	})
	return cmd
}

// plural is "1 workflow", "2 workflows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (a *app) workflowValidateCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate [NAME|FILE]...",
		Short: "Check workflows: their form, the graph, every expression's types, the queries and questions they name",
		Long: `Check the named workflows (all of the knowledge folder's when none are
named): each file's form, that the graph starts at its first node, has no
cycle and reaches every node, that every expression and placeholder reads
only parameters and outputs of nodes that run before it on every path, with
the right types, and that every verified query exists and every question
can be answered. Problems are printed as FILE:LINE: FIELD: MESSAGE; the exit
code is 3 when there is any.`,
		Args: cobra.ArbitraryArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: each workflow with its problems")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		ls, err := a.checkedWorkflows()
		if err != nil {
			return err
		}
		if len(args) > 0 {
			ls, err = a.pickWorkflows(ls, args)
			if err != nil {
				return err
			}
		}
		bad := 0
		for _, l := range ls {
			bad += len(l.Problems)
		}
		if asJSON {
			if err := writeJSON(a.stdout, ls); err != nil {
				return err
			}
		} else {
			for _, l := range ls {
				dir := a.knowledgeDisplay()
				if l.outside {
					dir = ""
				}
				for _, p := range l.Problems {
					fmt.Fprintln(a.stdout, format.DisplayText(p.Format(dir)))
				}
			}
			if bad == 0 {
				fmt.Fprintf(a.stdout, "%s, no problems\n", plural(len(ls), "workflow"))
			}
		}
		if bad > 0 {
			if !asJSON {
				fmt.Fprintf(a.stderr, "%s in %s\n", plural(bad, "problem"), plural(len(ls), "workflow"))
			}
			return silentError(quarry.ExitConfig)
		}
		return nil
	})
	return cmd
}

// pickWorkflows keeps the workflows args name, by name or file; a file
// outside the knowledge folder is read and checked as it is.
func (a *app) pickWorkflows(ls []workflowListing, args []string) ([]workflowListing, error) {
	var out []workflowListing
	for _, arg := range args {
		found := false
		for _, l := range ls {
			if l.Name == arg || l.File == filepath.ToSlash(arg) || strings.HasSuffix(filepath.ToSlash(arg), "/"+l.File) {
				out, found = append(out, l), true
				break
			}
		}
		if found {
			continue
		}
		if _, err := os.Stat(arg); err != nil {
			if _, _, err := a.rt.Workflow(arg); err != nil {
				return nil, err
			}
			return nil, quarry.Errorf(quarry.KindNotFound, "no workflow or file %q", arg)
		}
		src, err := readWorkflowFile(arg)
		if err != nil {
			return nil, err
		}
		l := workflowListing{Name: arg, File: arg, outside: true}
		known, err := a.rt.WorkflowKnown()
		if err != nil {
			return nil, err
		}
		w, _, probs := workflow.Check(arg, src, known)
		if w != nil {
			l.Name, l.Nodes = w.Name, len(w.Nodes)
		}
		l.Problems, l.Valid = probs, len(probs) == 0
		out = append(out, l)
	}
	return out, nil
}

// knowledgeDisplay is the knowledge folder as problems name it: relative
// to the project when inside it.
func (a *app) knowledgeDisplay() string {
	cfg, err := a.rt.Config()
	if err != nil {
		return ""
	}
	if rel, err := filepath.Rel(cfg.Dir, cfg.Knowledge); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return cfg.Knowledge
}

// params reads --param NAME=VALUE flags.
func params(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, quarry.Errorf(quarry.KindUsage, "--param %q: write NAME=VALUE", f)
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

func (a *app) workflowRunCmd() *cobra.Command {
	var paramFlags []string
	var asOf, by string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run NAME",
		Short: "Run a workflow: each step recorded, the run resumable; exit 0 completed, 1 stopped, 10 waiting",
		Long: `Run the workflow NAME from its first node. Each node is recorded as an event
of the workflow's run, and each question and query as a run of its own
(quarry runs show), through the same guard, column policy, checks and
confidence as any answer. A question that is not answered, or whose answer
fails a check or is below the node's min_confidence, stops the workflow.

Exit codes: 0 the workflow completed; 1 it stopped (a branch to a stopped
end, a check, a refused approval); 10 it waits (for a time or an approval:
quarry workflow resume or approve goes on); 5 a step failed (after its
retries); others as for every command (3 the workflow is invalid).`,
		Example: `  quarry workflow run weekly-review
  quarry workflow run weekly-review --param threshold=0.05 --as-of 2026-06-30 --json`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringArrayVar(&paramFlags, "param", nil, "a parameter, NAME=VALUE (repeat for more)")
	cmd.Flags().StringVar(&asOf, "as-of", "", "read relative dates against this day, YYYY-MM-DD (default: today)")
	cmd.Flags().StringVar(&by, "by", "", "who runs it, for the record (default: $USER)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run's final state as JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		ps, err := params(paramFlags)
		if err != nil {
			return err
		}
		req, err := a.workflowRequest(asOf, by, asJSON)
		if err != nil {
			return err
		}
		req.Params = ps
		w, g, err := a.rt.Workflow(args[0])
		if err != nil {
			return err
		}
		st, err := a.rt.RunWorkflow(ctx, w, g, req)
		return a.workflowDone(st, err, asJSON)
	})
	return cmd
}

// workflowRequest reads the flags every command that runs nodes takes;
// without --json, each node is printed as it finishes.
func (a *app) workflowRequest(asOf, by string, asJSON bool) (runtime.WorkflowRequest, error) {
	req := runtime.WorkflowRequest{AsOf: a.now(), By: by}
	if asOf != "" {
		t, err := day("as-of", asOf)
		if err != nil {
			return req, err
		}
		req.AsOf = t
	}
	if req.By == "" {
		req.By = os.Getenv("USER")
	}
	if req.By == "" {
		if u, err := user.Current(); err == nil {
			req.By = u.Username
		}
	}
	if !asJSON {
		printed := map[string]bool{}
		req.Progress = func(st workflow.State) {
			for _, n := range st.Nodes {
				key := fmt.Sprintf("%s/%d/%s", n.ID, n.Attempts, n.Status)
				if printed[key] || n.Status == workflow.NodeRunning {
					continue
				}
				printed[key] = true
				printNode(a.stdout, n)
			}
		}
	}
	return req, nil
}

// printNode writes one node's line: its status, id, kind and what it gave.
func printNode(w io.Writer, n workflow.NodeState) {
	mark := map[string]string{workflow.NodeSucceeded: "✓", workflow.NodeFailed: "✗", workflow.NodeStopped: "■", workflow.NodeWaiting: "…"}[n.Status]
	fmt.Fprintf(w, "%s %-16s %-8s %s\n", mark, n.ID, n.Kind, format.DisplayText(nodeSummary(n)))
}

// nodeSummary is one line of what a node gave.
func nodeSummary(n workflow.NodeState) string {
	var parts []string
	var out map[string]any
	if len(n.Output) > 0 && json.Unmarshal(n.Output, &out) == nil {
		switch n.Kind {
		case string(workflow.Ask), string(workflow.Query):
			if h, _ := out["headline"].(string); h != "" {
				parts = append(parts, oneLine(h))
			} else if has, _ := out["has_value"].(bool); has {
				f, _ := out["value"].(float64)
				parts = append(parts, narrate.Number(f, narrate.FormatNumber, ""))
			}
		case string(workflow.Compute):
			if f, ok := out["value"].(float64); ok {
				parts = append(parts, "= "+narrate.Number(f, narrate.FormatNumber, ""))
			} else {
				parts = append(parts, fmt.Sprintf("= %v", out["value"]))
			}
		case string(workflow.Branch):
			parts = append(parts, fmt.Sprintf("→ %v", out["taken"]))
		case string(workflow.Notify):
			parts = append(parts, fmt.Sprint(out["message"]))
			if errs, _ := out["errors"].([]any); len(errs) > 0 {
				msgs := make([]string, len(errs))
				for i, e := range errs {
					msgs[i] = fmt.Sprint(e)
				}
				parts = append(parts, "[NOT DELIVERED: "+strings.Join(msgs, "; ")+"]")
			}
		case string(workflow.Wait):
			parts = append(parts, waitSummary(out))
		}
		if mark, ok := out["restricted"].(string); ok {
			parts = append(parts, mark)
		}
	}
	if n.Message != "" {
		parts = append(parts, n.Message)
	}
	if n.Status == workflow.NodeWaiting {
		parts = append(parts, "waiting")
	}
	if n.RunID != "" {
		parts = append(parts, "("+n.RunID+")")
	}
	if n.Attempts > 1 {
		parts = append(parts, fmt.Sprintf("[attempt %d]", n.Attempts))
	}
	return strings.Join(parts, "  ")
}

// waitSummary says how a wait ended: approved or refused, by whom, with
// what note; or that its time came.
func waitSummary(out map[string]any) string {
	note, _ := out["note"].(string)
	by, _ := out["by"].(string)
	if note == "the time came" && by == "" {
		return "the time came"
	}
	s := "refused"
	if ok, _ := out["approved"].(bool); ok {
		s = "approved"
	}
	if by != "" {
		s += " by " + by
	}
	if note != "" {
		s += ": " + note
	}
	return s
}

// workflowDone prints how a run ended and maps it to the exit code.
func (a *app) workflowDone(st workflow.State, err error, asJSON bool) error {
	if err != nil && st.RunID == "" {
		return err
	}
	if asJSON {
		if e := writeJSON(a.stdout, st); e != nil {
			return e
		}
	} else {
		a.printWorkflowEnd(st)
	}
	if err != nil {
		if !asJSON {
			fmt.Fprintf(a.stderr, "quarry: %s\n", quarry.Message(err))
		}
		return silentError(quarry.ExitCode(err))
	}
	switch st.Status {
	case workflow.StatusCompleted:
		return nil
	case workflow.StatusStopped:
		return errStopped
	case workflow.StatusWaiting:
		return errWaiting
	case workflow.StatusRunning:
		return silentError(quarry.ExitCanceled)
	}
	return errFailed
}

func (a *app) printWorkflowEnd(st workflow.State) {
	st.Message = format.DisplayText(st.Message)
	if st.Waiting != nil {
		w := *st.Waiting
		w.Approval = format.DisplayText(w.Approval)
		st.Waiting = &w
	}
	switch st.Status {
	case workflow.StatusCompleted:
		fmt.Fprintf(a.stdout, "\n%s completed in %s (%s).", st.Workflow, st.Duration.Round(time.Millisecond), st.RunID)
		if end := st.Node(st.Last); end != nil && end.Message != "" {
			fmt.Fprintf(a.stdout, " %s", format.DisplayText(end.Message))
		}
		fmt.Fprintln(a.stdout)
	case workflow.StatusStopped:
		fmt.Fprintf(a.stdout, "\n%s stopped: %s (%s)\n", st.Workflow, st.Message, st.RunID)
	case workflow.StatusFailed:
		fmt.Fprintf(a.stdout, "\n%s failed: %s (%s)\nA failed run is over; after fixing the cause, run the workflow again.\n", st.Workflow, st.Message, st.RunID)
	case workflow.StatusWaiting:
		if st.Waiting.Approval != "" {
			fmt.Fprintf(a.stdout, "\n%s waits for an approval at %s: %s\nApprove: quarry workflow approve %s   ·   refuse: quarry workflow approve %s --reject\n",
				st.Workflow, st.Waiting.Node, st.Waiting.Approval, st.RunID, st.RunID)
		} else {
			fmt.Fprintf(a.stdout, "\n%s waits at %s until %s; then: quarry workflow resume %s\n", st.Workflow, st.Waiting.Node, st.Waiting.Until, st.RunID)
		}
	default:
		fmt.Fprintf(a.stdout, "\n%s was interrupted at %s; go on with: quarry workflow resume %s\n", st.Workflow, st.Next, st.RunID)
	}
}

func (a *app) workflowResumeCmd() *cobra.Command {
	var asJSON bool
	var by string
	cmd := &cobra.Command{
		Use:   "resume RUN",
		Short: "Go on with an interrupted, failed or waiting workflow run from its record",
		Long: `Read the run's log and go on: a node that started and never finished runs
again, a failed node is tried again, a wait whose time has come ends. A
wait for approval goes on only with quarry workflow approve. The run goes on
with the definition it started with, whatever the file says now.`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run's final state as JSON")
	cmd.Flags().StringVar(&by, "by", "", "who resumes it, for the record (default: $USER)")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		req, err := a.workflowRequest("", by, asJSON)
		if err != nil {
			return err
		}
		req.AsOf = time.Time{} // the run's own
		st, err := a.rt.ResumeWorkflow(ctx, args[0], nil, "", req)
		return a.workflowDone(st, err, asJSON)
	})
	return cmd
}

func (a *app) workflowApproveCmd() *cobra.Command {
	var asJSON, reject bool
	var note, by string
	cmd := &cobra.Command{
		Use:   "approve RUN",
		Short: "Approve (or --reject) the wait that holds a workflow run, and go on",
		Args:  cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&reject, "reject", false, "refuse: the workflow stops")
	cmd.Flags().StringVar(&note, "note", "", "a note for the record")
	cmd.Flags().StringVar(&by, "by", "", "who approves, for the record (default: $USER)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run's final state as JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		req, err := a.workflowRequest("", by, asJSON)
		if err != nil {
			return err
		}
		req.AsOf = time.Time{}
		ok := !reject
		st, err := a.rt.ResumeWorkflow(ctx, args[0], &ok, note, req)
		if quarry.KindOf(err) == quarry.KindInput {
			return err
		}
		return a.workflowDone(st, err, asJSON)
	})
	return cmd
}
