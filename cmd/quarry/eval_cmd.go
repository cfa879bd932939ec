package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/eval"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) evalCmd() *cobra.Command {
	var spiderDir, asOf, connName string
	var asJSON, verbose, faults, retrieval bool
	var tables, questions, budget int
	var only []string
	cmd := &cobra.Command{
		Use:   "eval [FILE…] [--spider DIR]",
		Short: "Score the builtin planner by execution on a golden set or the Spider benchmark",
		Long: `Answer every question of a golden set and compare the result with the gold
SQL's (or the expected rows) by execution: as multisets, in order only when the
gold query orders, numbers to a relative tolerance of 1e-6, columns matched by
their values. Each failed case gets a reason code; the summary separates wrong
answers (the dangerous ones) from refusals. Each case is recorded as a run.

--retrieval measures the schema retrieval index instead: recall@5 and @10
of the gold tables and columns, what is shown as a share of the whole schema,
and search latency, on a synthetic catalog (--tables, --questions) and, with
--spider DIR, on every Spider database pooled into one catalog.

--spider DIR reads the Spider format (dev.json and database/<db>/<db>.sqlite),
builds each database's knowledge with learn alone, and scores it.

The golden format and the reason codes: docs/eval.md.`,
		Example: `  quarry eval eval/demo.yaml
  quarry eval --spider ../data/spider --only concert_singer
  quarry eval --retrieval --spider ../data/spider --tables 10000`,
	}
	cmd.Flags().StringVar(&spiderDir, "spider", "", "score the Spider benchmark in DIR instead of golden files")
	cmd.Flags().StringSliceVar(&only, "only", nil, "with --spider, only these databases")
	cmd.Flags().StringVar(&asOf, "as-of", "", "the day for cases without as_of, YYYY-MM-DD (default: today)")
	cmd.Flags().StringVar(&connName, "connection", "", "the connection golden files are scored on (default: the project's default)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary and every case as JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every failed case")
	cmd.Flags().BoolVar(&retrieval, "retrieval", false, "measure schema retrieval (docs/eval.md) instead of answers")
	cmd.Flags().IntVar(&tables, "tables", 10000, "with --retrieval, the tables of the synthetic catalog (0: none)")
	cmd.Flags().IntVar(&questions, "questions", 1000, "with --retrieval, the questions asked of the synthetic catalog")
	cmd.Flags().IntVar(&budget, "budget", 0, "with --retrieval, the tokens of schema a search may show (default 1500)")
	cmd.Flags().BoolVar(&faults, "faults", false, "also inject planner mistakes into every correct answer and report how many the checks catch (docs/eval.md)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		opts := eval.Options{}
		if asOf != "" {
			t, err := time.Parse("2006-01-02", asOf)
			if err != nil {
				return quarry.Errorf(quarry.KindUsage, "--as-of %q is not a date; write it as YYYY-MM-DD", asOf)
			}
			opts.AsOf = t
		} else {
			opts.AsOf = a.now()
		}
		switch {
		case retrieval && len(args) > 0:
			return quarry.Errorf(quarry.KindUsage, "--retrieval reads no golden files; give --spider DIR and --tables N")
		case retrieval && spiderDir == "" && tables <= 0:
			return quarry.Errorf(quarry.KindUsage, "--retrieval needs a catalog: --tables N (a synthetic one) or --spider DIR")
		case retrieval:
			return a.evalRetrieval(ctx, runtime.RetrievalOptions{SpiderDir: spiderDir, Tables: tables, Questions: questions, Seed: 1, Budget: budget}, asJSON, verbose)
		case spiderDir != "" && len(args) > 0:
			return quarry.Errorf(quarry.KindUsage, "give golden files or --spider DIR, not both")
		case spiderDir != "":
			return a.evalSpider(ctx, spiderDir, only, opts, asJSON, verbose, faults)
		case len(args) == 0:
			return quarry.Errorf(quarry.KindUsage, "name a golden file (for the demo: quarry eval eval/demo.yaml) or use --spider DIR")
		}
		return a.evalFiles(ctx, args, connName, opts, asJSON, verbose, faults)
	})
	return cmd
}

func (a *app) evalFiles(ctx context.Context, files []string, connName string, opts eval.Options, asJSON, verbose, faults bool) error {
	var sets []*eval.Set
	for _, f := range files {
		s, err := eval.LoadFile(f)
		if err != nil {
			return err
		}
		sets = append(sets, s)
	}
	opts.Progress = func(done, total int, _ *eval.Result) {
		if a.tty {
			fmt.Fprintf(a.stderr, "\r%d/%d", done, total)
		}
	}
	all, err := a.rt.Eval(ctx, connName, sets, opts)
	if err != nil {
		return err
	}
	if a.tty {
		fmt.Fprintln(a.stderr)
	}
	sum := eval.Summarize(all)
	var fr *eval.FaultReport
	if faults {
		r, err := a.rt.EvalFaults(ctx, connName, sets, all, opts.AsOf)
		if err != nil {
			return err
		}
		fr = &r
	}
	if asJSON {
		j := map[string]any{"summary": sum, "cases": all}
		if fr != nil {
			j["faults"] = fr
		}
		return writeJSON(a.stdout, j)
	}
	if err := sum.WriteText(a.stdout, verbose); err != nil || fr == nil {
		return err
	}
	fmt.Fprintln(a.stdout)
	return fr.WriteText(a.stdout, verbose)
}

func (a *app) evalSpider(ctx context.Context, dir string, only []string, opts eval.Options, asJSON, verbose, faults bool) error {
	rep, err := runtime.EvalSpider(ctx, dir, only, opts, faults, a.stderr)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a.stdout, map[string]any{"report": rep, "cases": rep.Results})
	}
	return rep.WriteText(a.stdout, verbose)
}

func (a *app) evalRetrieval(ctx context.Context, opts runtime.RetrievalOptions, asJSON, verbose bool) error {
	reps, err := runtime.EvalRetrieval(ctx, opts)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a.stdout, map[string]any{"retrieval": reps})
	}
	for i := range reps {
		if err := reps[i].WriteText(a.stdout, verbose); err != nil {
			return err
		}
	}
	return nil
}
