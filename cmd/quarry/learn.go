package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) learnCmd() *cobra.Command {
	var connName string
	var asJSON, quiet bool
	cmd := &cobra.Command{
		Use:   "learn",
		Short: "Build or refresh the knowledge folder from the database's catalog",
		Long: `Read the connection's catalog (tables, views, columns, keys, comments, row
counts) and the known values of low-cardinality text columns, and write the
knowledge folder: model.yaml with entities and relationships (from foreign
keys, and from naming where keys are missing), candidate measures in
metrics.yaml, and a policy.yaml to fill in.

Run again, it refreshes: it keeps every edit you made, adds what is new, and
reports drift: metrics, dimensions, policy rules or verified queries that
refer to tables or columns that no longer exist. Before reading, it runs the
connection's read-only probe and warns, with the SQL for a read-only role,
when a write was not refused.`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to learn (default: the project's default)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		conn, _, err := a.rt.Conn(ctx, connName)
		if err != nil {
			return err
		}
		var findings []runtime.Finding
		a.rt.Probe(ctx, connName, conn, func(f runtime.Finding) { findings = append(findings, f) })
		// A connection that can write is still read through the guard and
		// read-only transactions; the warning says how to add the missing
		// layer, a read-only role.
		for _, f := range findings {
			if f.Status == "fail" {
				a.rt.Warn(f.Detail)
				fmt.Fprintf(a.stderr, "  → %s\n", f.Fix)
				if f.SQL != "" {
					fmt.Fprintf(a.stderr, "\n%s\n\n", indent(strings.TrimSpace(f.SQL), "    "))
				}
			}
		}
		opts := knowledge.LearnOptions{Now: a.now()}
		if !quiet {
			opts.Progress = a.stderr
		}
		rep, err := a.rt.Learn(ctx, conn, opts)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		fmt.Fprintf(w, "Knowledge folder %s\n", cfg.Knowledge)
		list := func(label string, items []string) {
			if len(items) > 0 {
				fmt.Fprintf(w, "  %s (%d): %s\n", label, len(items), clip(strings.Join(items, ", "), 200))
			}
		}
		list("tables added", rep.TablesAdded)
		list("columns added", rep.ColumnsAdded)
		list("relationships added", rep.RelationshipsAdded)
		if rep.ValuesAdded > 0 {
			fmt.Fprintf(w, "  known values added: %d\n", rep.ValuesAdded)
		}
		list("files written", rep.Files)
		if v := rep.ValueIndex; v != nil {
			fmt.Fprintf(w, "  value index %s: %d values and %d identifiers of %d columns\n", knowledge.ValuesFile, v.Values, v.IDs, v.Columns)
			list(fmt.Sprintf("columns with more values than the %d kept of each", v.PerColumn), v.Truncated)
			list(fmt.Sprintf("columns left out (the index holds at most %d values)", v.Total), v.LeftOut)
			list("columns of long text, not indexed", v.FreeText)
		}
		for _, wn := range rep.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", wn)
		}
		if len(rep.Drift) == 0 {
			fmt.Fprintln(w, "  no drift: everything the knowledge refers to still exists")
			return nil
		}
		fmt.Fprintf(w, "  drift (%d): these refer to tables or columns that no longer exist:\n", len(rep.Drift))
		for _, d := range rep.Drift {
			fmt.Fprintf(w, "    %s:%d: %s: %s\n", d.File, d.Line, d.What, d.Message)
		}
		return nil
	})
	return cmd
}
