package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/quarry"
)

func (a *app) runCmd() *cobra.Command {
	var file, fmtName, connName string
	var maxRows int64
	var asJSON bool
	var ff fixFlags
	cmd := &cobra.Command{
		Use:   "run [SQL | -f FILE | -]",
		Short: "Run your own SQL through the guard, read-only, and print or export the result",
		Long: `Run one statement of your own. It passes the same read-only guard as every
generated query (a rejected statement never reaches the database), runs on a
read-only handle, and is recorded as a run (quarry runs list).

Formats: table (default; a preview that fits the terminal), csv, tsv, json,
jsonl, markdown. csv, tsv, json and jsonl stream every row in constant
memory; --max-rows caps any format. On Ctrl-C the output ends at the last
whole row.`,
		Example: `  quarry run "SELECT status, count(*) FROM orders GROUP BY status"
  quarry run -f report.sql --format csv > report.csv
  echo "SELECT 1" | quarry run -`,
		Args: cobra.MaximumNArgs(1),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the SQL from FILE (- for standard input)")
	cmd.Flags().StringVar(&fmtName, "format", "table", "output format: "+strings.Join(format.Names(), ", "))
	cmd.Flags().BoolVar(&asJSON, "json", false, "same as --format json")
	cmd.Flags().Int64Var(&maxRows, "max-rows", -1, "read at most N rows (default: limits.max_rows for table and markdown, all rows for the streaming formats)")
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to use (default: the project's default)")
	cmd.Flags().StringVar(&ff.model, "model", "", "the model that proposes fixes: builtin (none), anthropic, openai, anthropic:MODEL or openai:MODEL (default: model.provider)")
	cmd.Flags().BoolVar(&ff.fix, "fix", false, "when the database or the guard refuses the query, apply the model's fix without asking")
	cmd.Flags().BoolVar(&ff.noFix, "no-fix", false, "never propose a fix")
	cmd.Flags().BoolVar(&a.noPolicy, "no-policy", false, "read restricted columns too, at your own terminal: the knowledge folder's column policy is not applied, the run records that, and its result is not kept")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if asJSON {
			fmtName = "json"
		}
		if cmd.Flags().Changed("max-rows") && maxRows < 1 {
			return quarry.Errorf(quarry.KindUsage, "--max-rows must be at least 1; leave it out to read every row")
		}
		if a.noPolicy {
			a.rt.PolicyOff()
		}
		sql, err := a.readInput(args, file, "SQL")
		if err != nil {
			return err
		}
		cfg, err := a.config()
		if err != nil {
			return err
		}
		w, err := format.New(fmtName, a.stdout, format.Options{Width: a.width, PreviewRows: cfg.Limits.PreviewRows})
		if err != nil {
			return err
		}
		limit := maxRows
		if limit < 0 {
			limit = 0
			if f := strings.ToLower(fmtName); f == "table" || f == "markdown" || f == "md" {
				limit = cfg.Limits.MaxRows
			}
		}
		an, closeRun, err := a.rt.Analyst(ctx, connName, limit)
		if err != nil {
			return err
		}
		defer closeRun()
		rec, err := a.rt.Recorder(ctx)
		if err != nil {
			return err
		}
		out, err := an.Run(ctx, rec, sql, w)
		if err != nil {
			// Whatever was written ends at a whole row; flush it.
			w.Flush()
			if handled, ferr := a.tryFix(ctx, ff, an, rec, sql, out, err, func() (format.Writer, error) {
				return format.New(fmtName, a.stdout, format.Options{Width: a.width, PreviewRows: cfg.Limits.PreviewRows})
			}); handled {
				return ferr
			}
			if quarry.KindOf(err) == quarry.KindRejected && !out.Verdict.Allowed {
				fmt.Fprintln(a.stderr, "quarry: nothing was run: "+out.Verdict.String())
				return errSilent
			}
			return err
		}
		info := format.Info{Rows: out.Rows, Truncated: out.Truncated}
		if out.Truncated {
			info.Notice = fmt.Sprintf("stopped at %d rows (--max-rows / limits.max_rows)", out.Rows)
			if limit == 0 || out.Rows < limit {
				// quarry did not cut it: the service behind the
				// connection sent only part of the result.
				info.Notice = fmt.Sprintf("the connection's server sent only the first %d rows (its own row cap; for quarry connector, raise --max-rows)", out.Rows)
			}
		}
		if err := w.End(info); err != nil {
			return err
		}
		// csv, tsv and jsonl carry no notice; say it where it cannot spoil
		// the export.
		if f := strings.ToLower(fmtName); out.Truncated && (f == "csv" || f == "tsv" || f == "jsonl") {
			fmt.Fprintln(a.stderr, "quarry: "+info.Notice)
		}
		return nil
	})
	return cmd
}
