package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/quarry"
)

// fixFlags are run's flags for fixes by a model.
type fixFlags struct {
	model string // --model
	fix   bool   // --fix: apply a fix without asking
	noFix bool   // --no-fix: never propose one
}

// stdinTTY reports whether standard input is a terminal (someone can
// answer a question).
func (a *app) stdinTTY() bool {
	f, ok := a.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// tryFix offers a model's fix of the user's statement after the guard or
// the database refused it. It reports whether it handled the failure; when
// it did, the returned error is the command's result. The fixer sees the
// SQL and the error text only, and the fix passes the guard again before it
// runs as a new run.
func (a *app) tryFix(ctx context.Context, ff fixFlags, an *analyst.Analyst, rec *event.Recorder, sql string, out *analyst.RunOutcome, runErr error, newWriter func() (format.Writer, error)) (bool, error) {
	kind := quarry.KindOf(runErr)
	if ff.noFix || (kind != quarry.KindRejected && kind != quarry.KindQuery) {
		return false, nil
	}
	cfg, err := a.config()
	if err != nil {
		return false, nil
	}
	m, err := a.rt.ModelFor(cfg, ff.model)
	if err != nil {
		return true, err
	}
	if m.Provider == config.ProviderBuiltin {
		return false, nil
	}
	errText := quarry.Message(runErr)
	if kind == quarry.KindRejected && out != nil && !out.Verdict.Allowed {
		errText = "the read-only guard refused it: " + out.Verdict.String()
		fmt.Fprintln(a.stderr, "quarry: nothing was run: "+out.Verdict.String())
	} else {
		fmt.Fprintln(a.stderr, "quarry: "+oneLine(errText))
	}
	ag := a.rt.Fixer(m, an)
	failed := silentError(quarry.ExitCode(runErr))
	f, err := ag.Fix(ctx, rec, sql, errText)
	if err != nil {
		fmt.Fprintln(a.stderr, "quarry: no fix: "+oneLine(quarry.Message(err)))
		return true, failed
	}
	fmt.Fprintf(a.stderr, "A fix proposed by the model:\n%s", f.Diff)
	if !f.Verdict.Allowed {
		fmt.Fprintln(a.stderr, "quarry: the guard refuses the fix too, so it was not run: "+f.Verdict.String())
		return true, failed
	}
	apply := ff.fix
	if !apply {
		if !a.stdinTTY() || !a.stderrTTY() {
			fmt.Fprintln(a.stderr, "quarry: not applied; run again with --fix to apply it, or --no-fix to not ask")
			_ = ag.Accepted(ctx, rec, f, false)
			return true, failed
		}
		fmt.Fprint(a.stderr, "Run the fixed query? [y/N] ")
		line, _ := bufio.NewReader(a.stdin).ReadString('\n')
		apply = strings.EqualFold(strings.TrimSpace(line), "y") || strings.EqualFold(strings.TrimSpace(line), "yes")
	}
	if err := ag.Accepted(ctx, rec, f, apply); err != nil {
		return true, err
	}
	if !apply {
		return true, failed
	}
	w, err := newWriter()
	if err != nil {
		return true, err
	}
	rec2, err := a.rt.Recorder(ctx)
	if err != nil {
		return true, err
	}
	fmt.Fprintf(a.stderr, "quarry: running the fixed query (run %s; the failed one is %s)\n", rec2.RunID(), rec.RunID())
	out2, err := an.Run(ctx, rec2, f.SQL, w)
	if err != nil {
		w.Flush()
		if quarry.KindOf(err) == quarry.KindRejected && !out2.Verdict.Allowed {
			fmt.Fprintln(a.stderr, "quarry: nothing was run: "+out2.Verdict.String())
			return true, errSilent
		}
		return true, err
	}
	info := format.Info{Rows: out2.Rows, Truncated: out2.Truncated}
	if out2.Truncated {
		info.Notice = fmt.Sprintf("stopped at %d rows (--max-rows / limits.max_rows)", out2.Rows)
	}
	return true, w.End(info)
}
