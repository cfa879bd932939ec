package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) importCmd() *cobra.Command {
	var format string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "import FILE|DIR",
		Short: "Import a dbt, Cube or Cortex Analyst semantic model into the knowledge folder",
		Long: `Read semantic models written for another tool and merge them into the
knowledge folder: dbt MetricFlow (semantic_models: and metrics:), Cube
(cubes:) or Snowflake Cortex Analyst (tables:, relationships:,
verified_queries:). The format is detected from the content unless --format
says it. A folder is read with every .yaml and .yml file under it.

Entities, columns, relationships, metrics, dimensions and verified queries
are added; whatever you edited in the folder is kept, as with learn, and
running the same import again changes nothing. What quarry cannot represent
(percentile and median measures, cumulative and conversion metrics, Jinja
other than a Dimension filter, …) is listed as skipped with the reason.`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&format, "format", "", "the format: dbt, cube or cortex (default: detected)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		rep, err := a.rt.Import(ctx, args[0], format)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		fmt.Fprintf(w, "Imported %s into %s\n", args[0], cfg.Knowledge)
		list := func(label string, items []string) {
			if len(items) > 0 {
				fmt.Fprintf(w, "  %s (%d): %s\n", label, len(items), clip(strings.Join(items, ", "), 300))
			}
		}
		list("entities added", rep.EntitiesAdded)
		list("columns added", rep.ColumnsAdded)
		list("relationships added", rep.RelationshipsAdded)
		list("metrics added", rep.MetricsAdded)
		list("dimensions added", rep.DimensionsAdded)
		if rep.ExamplesAdded > 0 {
			fmt.Fprintf(w, "  verified queries added: %d\n", rep.ExamplesAdded)
		}
		if rep.PendingAdded > 0 {
			fmt.Fprintf(w, "  queries to check added to examples/_pending/: %d\n", rep.PendingAdded)
		}
		list("kept as the folder defines them", rep.Kept)
		if len(rep.Files) == 0 {
			fmt.Fprintln(w, "  nothing changed: the folder already holds this import")
		} else {
			list("files written", rep.Files)
		}
		for _, wn := range rep.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", wn)
		}
		if len(rep.Skipped) > 0 {
			fmt.Fprintf(w, "  skipped (%d): quarry cannot represent these:\n", len(rep.Skipped))
			for _, s := range rep.Skipped {
				fmt.Fprintf(w, "    %s\n", s)
			}
		}
		return nil
	})
	return cmd
}
