package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) exportCmd() *cobra.Command {
	var fmtName, out string
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Write a run's self-contained provenance bundle, as JSON or Markdown",
		Long: `Write everything needed to understand, check and repeat one run without
quarry's state database: the question and how it was read, the plan, the
exact SQL, the knowledge digest, the checks and confidence, the result's
hash and stored rows, and the whole event log. JSON (the default) is the
whole bundle; Markdown is a report for people.`,
		Example: `  quarry runs export r_01M8… > run.json
  quarry runs export r_01M8… --format md -o run.md`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&fmtName, "format", "json", "json or md")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if fmtName != "json" && fmtName != "md" && fmtName != "markdown" {
			return quarry.Errorf(quarry.KindUsage, "--format %q is not known; use json or md", fmtName)
		}
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		// The rows as the column policy of now lets them be shown: a result
		// kept before a column was restricted comes out redacted.
		b, err := export.Read(ctx, a.rt.ReadRedacted(st), args[0], a.now(), version)
		if err != nil {
			return err
		}
		var data []byte
		if fmtName == "json" {
			var buf bytes.Buffer
			if err := writeJSON(&buf, b); err != nil {
				return quarry.Wrap(quarry.KindInternal, err, "encode the bundle")
			}
			data = buf.Bytes()
		} else {
			data = []byte(export.Markdown(b))
		}
		if out == "" {
			_, err := a.stdout.Write(data)
			return err
		}
		if err := runtime.WriteFileAtomic(out, data, 0o600); err != nil {
			return quarry.Wrap(quarry.KindInput, err, "cannot write %s", out)
		}
		fmt.Fprintf(a.stderr, "quarry: wrote %s\n", out)
		return nil
	})
	return cmd
}

func (a *app) rerunCmd() *cobra.Command {
	var connName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rerun ID",
		Short: "Re-execute a run's SQL and say whether its result is the same, and if not, what changed",
		Long: `Re-execute the SQL a run executed, through the same guard on the project's
connection, as a new run, and compare the result's hash with the one the
run recorded: the same hash means the same rows. It also says whether the
knowledge folder changed since the run and, for a question the builtin
planner answered, whether asking it now would run the same SQL — so a
difference can be told apart as data, knowledge or quarry's planner.`,
		Example: `  quarry runs rerun r_01M8…`,
		Args:    cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to re-execute on (default: the project's default)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		st, err := a.rt.Store(ctx)
		if err != nil {
			return err
		}
		cfg, err := a.config()
		if err != nil {
			return err
		}
		an, closeRun, err := a.rt.Analyst(ctx, connName, cfg.Limits.MaxRows)
		if err != nil {
			return err
		}
		defer closeRun()
		rec, err := a.rt.Recorder(ctx)
		if err != nil {
			return err
		}
		k, err := a.rt.Knowledge()
		if err != nil {
			k = nil // no knowledge folder: nothing to compare it with
		}
		// The run as the policy of the moment shows it: a result it
		// withholds has no hash or row count to print (found from
		// outside: the recorded hash confirmed a guessed value).
		r, err := an.RerunJudged(ctx, rec, a.rt.ReadRedacted(st), k, args[0])
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(a.stdout, r)
		}
		w := a.stdout
		fmt.Fprintf(w, "Run %s re-executed as run %s.\n", r.RunID, r.RerunID)
		fmt.Fprintf(w, "Result: recorded %s (%d rows), now %s (%d rows).\n", r.RecordedHash, r.RecordedRows, orNone(r.Hash), r.Rows)
		for _, v := range r.Verdict {
			fmt.Fprintf(w, "- %s\n", capitalize(v))
		}
		return nil
	})
	return cmd
}

func orNone(s string) string {
	if s == "" {
		return "no result"
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
