package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/workflow"
)

func (a *app) workflowShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME|RUN",
		Short: "Show a workflow's graph, or a workflow run's steps and outputs",
		Args:  cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		w, g, werr := a.rt.Workflow(args[0])
		if werr == nil {
			if asJSON {
				return writeJSON(a.stdout, struct {
					*workflow.Workflow
					Order []string `json:"order"`
				}{w, g.Order})
			}
			printGraph(a, w)
			return nil
		}
		if quarry.KindOf(werr) != quarry.KindNotFound {
			return werr
		}
		st, err := a.rt.WorkflowRun(ctx, args[0])
		if err != nil {
			if quarry.KindOf(err) == quarry.KindNotFound {
				return werr
			}
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, st)
		}
		fmt.Fprintf(a.stdout, "%s  run %s  %s  started %s\n", st.Workflow, st.RunID, st.Status, st.StartedAt.Local().Format("2006-01-02 15:04:05"))
		for _, k := range sortedParams(st.Params) {
			fmt.Fprintf(a.stdout, "  %s = %s\n", k, st.Params[k])
		}
		fmt.Fprintln(a.stdout)
		for _, n := range st.Nodes {
			printNode(a.stdout, n)
		}
		a.printWorkflowEnd(st)
		return nil
	})
	return cmd
}

func sortedParams(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// printGraph writes a workflow's nodes, one per line, with what follows.
func printGraph(a *app, w *workflow.Workflow) {
	fmt.Fprintf(a.stdout, "%s (%s)\n", w.Name, w.File)
	if w.Description != "" {
		fmt.Fprintf(a.stdout, "%s\n", w.Description)
	}
	if w.Schedule != "" {
		fmt.Fprintf(a.stdout, "schedule: %s\n", w.Schedule)
	}
	for _, p := range w.Params {
		def := p.Default
		if p.Required {
			def = "required"
		}
		fmt.Fprintf(a.stdout, "param %s (%s) = %s\n", p.Name, p.Type, def)
	}
	fmt.Fprintln(a.stdout)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tKIND\tWHAT\tTHEN")
	for _, n := range w.Nodes {
		what := n.Question + n.Verified + n.SQL + n.Expr + n.Approval + n.For + n.Until + n.Message
		next := n.Next
		if n.Kind == workflow.Branch {
			next = "then " + n.Then + ", else " + n.Else
		}
		if n.Kind == workflow.End {
			next = n.Status
			if next == "" {
				next = workflow.Completed
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n.ID, n.Kind, oneLine(what), next)
	}
	tw.Flush()
}

func (a *app) workflowRunsCmd() *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List workflow runs, newest first",
		Args:  cobra.NoArgs,
	}
	cmd.Flags().IntVar(&limit, "limit", 20, "at most this many runs (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, _ []string) error {
		runs, err := a.rt.WorkflowRuns(ctx, limit)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, runs)
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RUN\tWORKFLOW\tSTATUS\tSTARTED\tSTEPS\tNOTE")
		for _, r := range runs {
			note := r.Message
			if r.Status == workflow.StatusWaiting && r.Waiting != nil {
				note = "at " + r.Waiting.Node
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.RunID, r.Workflow, r.Status, r.StartedAt.Local().Format("2006-01-02 15:04"), len(r.Nodes), oneLine(note))
		}
		return tw.Flush()
	})
	return cmd
}

func (a *app) workflowFmtCmd() *cobra.Command {
	var write bool
	cmd := &cobra.Command{
		Use:   "fmt NAME|FILE",
		Short: "Print a workflow in its canonical form (what the web editor exports), or --write it back",
		Args:  cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&write, "write", false, "rewrite the file in canonical form")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		path, file := args[0], args[0]
		srcs, err := a.rt.WorkflowSources()
		if err != nil {
			return err
		}
		for _, s := range srcs {
			if s.Name == args[0] {
				path, file = s.Path, s.File
			}
		}
		src, err := readWorkflowFile(path)
		if err != nil {
			return err
		}
		w, probs := workflow.Decode(file, src)
		if len(probs) > 0 || w == nil {
			for _, p := range probs {
				fmt.Fprintln(a.stderr, p.Format(a.knowledgeDisplay()))
			}
			return silentError(quarry.ExitConfig)
		}
		out := workflow.Encode(w)
		if !write {
			_, err := a.stdout.Write(out)
			return err
		}
		if string(out) == string(src) {
			return nil
		}
		if hasComments(src) {
			return quarry.Errorf(quarry.KindInput, "%s has comments, which the canonical form does not keep; move what they say into description: or a node's title:, then run fmt --write again", path)
		}
		if err := runtime.WriteFileAtomic(path, out, 0o644); err != nil {
			return quarry.Wrap(quarry.KindInput, err, "cannot write %s (%s)", path, errText(err))
		}
		fmt.Fprintf(a.stderr, "rewrote %s\n", path)
		return nil
	})
	return cmd
}

// maxWorkflowFile bounds the workflow files quarry reads.
const maxWorkflowFile = 1 << 20

// readWorkflowFile reads a workflow file of at most maxWorkflowFile bytes.
func readWorkflowFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, quarry.Errorf(quarry.KindNotFound, "no workflow or file %q; quarry workflow list shows the workflows", path)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, quarry.Errorf(quarry.KindInput, "%s is not a regular file; name a workflow's YAML file", path)
	}
	src, err := io.ReadAll(io.LimitReader(f, maxWorkflowFile+1))
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot read %s", path)
	}
	if len(src) > maxWorkflowFile {
		return nil, quarry.Errorf(quarry.KindInput, "%s is over %d bytes; a workflow file is at most 1 MB", path, maxWorkflowFile)
	}
	return src, nil
}

// hasComments says whether a YAML file holds a comment, by YAML's own
// tokens (a # inside a quoted string is not one).
func hasComments(src []byte) bool {
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type == token.CommentType {
			return true
		}
	}
	return false
}

// errText is the cause of a file error without its path.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (a *app) workflowReportCmd() *cobra.Command {
	var html bool
	var outFile string
	cmd := &cobra.Command{
		Use:   "report RUN",
		Short: "Write a workflow run as one document: Markdown, or --html with its charts",
		Long: `Write the run as one document: each step with its question, query or
expression, what it gave, every figure with the result cell (result, column,
row) or the expression it came from, the SQL, a chart of each answer of
several rows (HTML), and each step's provenance.`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().BoolVar(&html, "html", false, "write HTML with the charts inline")
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "write to this file (default: standard output)")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, args []string) error {
		rep, err := a.rt.WorkflowReport(ctx, args[0])
		if err != nil {
			return err
		}
		text := rep.Markdown()
		if html {
			if text, err = rep.HTML(); err != nil {
				return quarry.Wrap(quarry.KindInternal, err, "render the report")
			}
		}
		if outFile == "" {
			_, err := fmt.Fprint(a.stdout, text)
			return err
		}
		if err := runtime.WriteFileAtomic(outFile, []byte(text), 0o644); err != nil {
			return quarry.Wrap(quarry.KindInput, err, "cannot write %s (%s); name a file in a folder that exists", outFile, errText(err))
		}
		fmt.Fprintf(a.stderr, "wrote %s\n", outFile)
		return nil
	})
	return cmd
}

func (a *app) workflowTickCmd() *cobra.Command {
	var asJSON bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "tick",
		Short: "Start the workflows whose schedule came due and go on with waits whose time came (run it from cron)",
		Long: `The scheduler's step, to run from cron or a timer beside quarry watch run
(e.g. every few minutes): every workflow with a schedule: that came due since
its last run (the state store holds the runs) starts, and every run waiting
until a time that has come goes on. A workflow that never ran starts at the
first tick.

Exit status: 0 when everything it started or resumed ran (completed, stopped
or waiting); 5 when one failed (one line each; the next tick tries again).`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&asOf, "as-of", "", "tick as on the day after this one, YYYY-MM-DD (default: now)")
	cmd.RunE = a.action(func(ctx context.Context, _ *cobra.Command, _ []string) error {
		now, err := a.asOfFlag(asOf)
		if err != nil {
			return err
		}
		out, err := a.rt.WorkflowTick(ctx, now, now)
		if err != nil {
			return err
		}
		if asJSON {
			if err := writeJSON(a.stdout, out); err != nil {
				return err
			}
		}
		failed := false
		for _, o := range out {
			failed = failed || o.Action == "failed"
			if asJSON {
				continue
			}
			switch o.Action {
			case "not_due":
				fmt.Fprintf(a.stdout, "%s: not due (next %s)\n", o.Workflow, o.Next)
			case "failed":
				fmt.Fprintf(a.stdout, "%s: failed: %s\n", o.Workflow, o.Error)
			default:
				fmt.Fprintf(a.stdout, "%s: %s %s, %s\n", o.Workflow, o.Action, o.RunID, o.Status)
			}
		}
		if failed {
			return errFailed
		}
		return nil
	})
	return cmd
}
