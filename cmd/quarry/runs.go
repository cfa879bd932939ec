package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

func (a *app) runsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List past runs, show one, or print its event log",
		Long: `Every run and ask is recorded as an append-only log of events in quarry's
state database (.quarry/state.db). A run's status, SQL, rows, checks and
answer are computed from that log. IDs may be shortened to any unique prefix.
Finished runs can be archived and deleted whole with quarry runs prune; a
run's provenance bundle is quarry runs export, and quarry runs rerun
re-executes it and says whether the result is the same.`,
	}
	var asJSON bool
	var limit int
	var kind string
	list := &cobra.Command{
		Use:   "list",
		Short: "List recent runs, newest first",
		Args:  cobra.NoArgs,
	}
	list.Flags().IntVarP(&limit, "limit", "n", 20, "show at most N runs")
	list.Flags().StringVar(&kind, "kind", "", "only runs of this kind: run or ask")
	list.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if kind != "" && kind != "run" && kind != "ask" {
			return quarry.Errorf(quarry.KindUsage, "--kind %q: runs are of kind run or ask", kind)
		}
		if limit < 1 {
			return quarry.Errorf(quarry.KindUsage, "--limit must be at least 1")
		}
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		// Read back under the policy of the moment, as show is: a run
		// that read a column restricted since lists no row count (found
		// from outside: the count of a withheld run answered a guess).
		runs, err := a.rt.ReadRedacted(st).Runs(ctx, store.RunFilter{Limit: limit, Kind: kind})
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, runs)
		}
		if len(runs) == 0 {
			fmt.Fprintln(a.stdout, "No runs yet. Try: quarry ask \"…\" or quarry run \"SELECT …\"")
			return nil
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSTARTED\tKIND\tSTATUS\tROWS\tTIME\tWHAT")
		for _, r := range runs {
			what := r.Question
			if what == "" {
				what = r.SQL
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.RunID, r.StartedAt.Local().Format("2006-01-02 15:04:05"),
				r.Kind, r.Status, r.Rows, shortDuration(r.Duration), clip(oneLine(what), 60))
		}
		return tw.Flush()
	})

	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show what a run did: its question or SQL, verdict, rows, checks and answer",
		Args:  cobra.ExactArgs(1),
	}
	show.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		// Under the policy of now, as every other surface shows a run: a
		// column restricted since is not printed (found from outside).
		r, err := a.rt.ReadRedacted(st).Run(ctx, args[0])
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, r)
		}
		a.printRun(r)
		return nil
	})

	events := &cobra.Command{
		Use:   "events ID",
		Short: "Print a run's event log, one event per line",
		Args:  cobra.ExactArgs(1),
	}
	events.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		evs, err := a.runEvents(ctx, args[0])
		if err != nil {
			return err
		}
		if asJSON {
			enc := json.NewEncoder(a.stdout)
			for _, e := range evs {
				if err := enc.Encode(e); err != nil {
					return err
				}
			}
			return nil
		}
		for _, e := range evs {
			fmt.Fprintf(a.stdout, "%3d  %s  %-16s %s\n", e.Seq, e.At.Local().Format("15:04:05.000"), e.Type, compactJSON(e.Data))
		}
		return nil
	})

	replay := &cobra.Command{
		Use:   "replay ID",
		Short: "Re-fold a run's log step by step and print the state after each event",
		Args:  cobra.ExactArgs(1),
	}
	replay.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		evs, err := a.runEvents(ctx, args[0])
		if err != nil {
			return err
		}
		return event.Replay(evs, func(s event.RunState, e event.Event) error {
			if asJSON {
				return writeJSON(a.stdout, map[string]any{"seq": e.Seq, "type": e.Type, "state": s})
			}
			fmt.Fprintf(a.stdout, "%3d %-16s status=%s rows=%d\n", e.Seq, e.Type, s.Status, s.Rows)
			return nil
		})
	})

	for _, c := range []*cobra.Command{list, show, events, replay} {
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		cmd.AddCommand(c)
	}
	cmd.AddCommand(a.pruneCmd(), a.exportCmd(), a.rerunCmd())
	return cmd
}

func (a *app) printRun(r event.RunState) {
	w := a.stdout
	fmt.Fprintf(w, "Run %s (%s) %s\n", r.RunID, r.Kind, r.Status)
	fmt.Fprintf(w, "Started  %s", r.StartedAt.Local().Format(time.RFC3339))
	if !r.FinishedAt.IsZero() {
		fmt.Fprintf(w, ", took %s", shortDuration(r.Duration))
	}
	fmt.Fprintln(w)
	if r.Connection != "" {
		fmt.Fprintf(w, "Connection  %s\n", r.Connection)
	}
	if r.Privacy != "" {
		fmt.Fprintf(w, "Privacy  %s\n", privacyLine(r))
	}
	for _, wh := range r.Withheld {
		fmt.Fprintf(w, "Withheld from the model  %s\n", wh)
	}
	if r.PolicyOff {
		fmt.Fprintln(w, "Policy  off (quarry run --no-policy): restricted columns could be read; the result was not kept")
	}
	if r.SessionID != "" {
		fmt.Fprintf(w, "Session  %s\n", r.SessionID)
	}
	if r.Kind == "workflow" {
		fmt.Fprintf(w, "Workflow  %s (its steps: quarry workflow show %s)\n", r.Question, r.RunID)
	} else if r.Question != "" {
		fmt.Fprintf(w, "Question  %s\n", r.Question)
	}
	if r.Reading != nil && r.Reading.Text != "" {
		fmt.Fprintf(w, "Read as  %s\n", r.Reading.Text)
	}
	if r.SQL != "" {
		fmt.Fprintf(w, "SQL\n%s\n", indent(r.SQL, "    "))
	}
	if r.Allowed != nil {
		if *r.Allowed {
			fmt.Fprintln(w, "Guard  allowed")
		} else {
			for _, v := range r.Violations {
				fmt.Fprintf(w, "Guard  rejected: %s at byte %d: %s\n", v.Code, v.Pos, v.Message)
			}
		}
	}
	if r.Columns != nil {
		fmt.Fprintf(w, "Rows  %d%s (columns: %s)\n", r.Rows, map[bool]string{true: ", truncated"}[r.Truncated], strings.Join(r.Columns, ", "))
	}
	if r.ResultID != "" {
		fmt.Fprintf(w, "Result  %s  %s\n", r.ResultID, r.ResultHash)
	}
	for _, c := range r.Checks {
		fmt.Fprintf(w, "Check  %s %s %s\n", c.Status, c.Name, c.Detail)
	}
	if r.Confidence != nil {
		fmt.Fprintf(w, "Confidence  %.2f\n", *r.Confidence)
	}
	if r.InputTokens+r.OutputTokens+r.CacheReadTokens+r.CacheWriteTokens > 0 || r.CostMicroUSD > 0 {
		fmt.Fprintf(w, "Model  %s: %d input, %d cache write, %d cache read, %d output tokens (thinking included); cost %s\n",
			r.Planner, r.InputTokens, r.CacheWriteTokens, r.CacheReadTokens, r.OutputTokens, llm.USD(r.CostMicroUSD))
	}
	if r.Clarification != "" {
		fmt.Fprintf(w, "Asked  %s\n", r.Clarification)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "Error  %s (%s)\n", r.Error, r.ErrorKind)
	}
	if r.Answer != "" {
		fmt.Fprintf(w, "Answer\n%s\n", indent(strings.TrimSpace(r.Answer), "    "))
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func shortDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	default:
		return d.Round(10 * time.Millisecond).String()
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// runEvents reads the event log of run id from the state database,
// redacted under the column policy of now.
func (a *app) runEvents(ctx context.Context, id string) ([]event.Event, error) {
	st, err := a.rt.Store(ctx)
	if err != nil {
		return nil, err
	}
	return a.rt.ReadRedacted(st).Events(ctx, id)
}

// privacyLine says what the run's privacy tier let reach a model.
func privacyLine(r event.RunState) string {
	switch quarry.Privacy(r.Privacy) {
	case quarry.PrivacySchema:
		return "schema-only: no value of a row may reach a model"
	case quarry.PrivacyAggregates:
		return fmt.Sprintf("aggregates-only: a model may see only aggregated results of groups of at least %d rows", r.MinGroupSize)
	case quarry.PrivacyFull:
		return "full: a model may see previews of results"
	}
	return r.Privacy
}
