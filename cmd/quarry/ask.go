package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/narrate/chart"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) askCmd() *cobra.Command {
	var asOf, chartFile, connName, file string
	var asJSON bool
	var af askFlags
	cmd := &cobra.Command{
		Use:   "ask QUESTION",
		Short: "Ask a question in plain language; get the answer, the SQL, the checks and a chart",
		Long: `Answer a question about your data. quarry maps it onto the metrics,
dimensions and tables of the knowledge folder (with no language model, the
builtin planner does this deterministically), writes the SQL, checks it with
the read-only guard, runs it, verifies the result, and explains it. Every ask
is a recorded run (quarry runs show ID).

When part of the question cannot be mapped with confidence, quarry does not
guess: it says what it understood, what it did not, and the closest known
terms (exit status 7). When two meanings fit, it asks which one you mean.
Requests to change data and questions about restricted columns are refused
(exit status 1).

Relative dates ("last month", "this year", "last 30 days") are read against
today, or against --as-of.`,
		Example: `  quarry ask "revenue by month last year"
  quarry ask "top 5 products by revenue in 2025" --chart top5.svg
  quarry ask --json "how many customers in Germany"`,
		Args: cobra.MaximumNArgs(1),
	}
	cmd.Flags().StringVar(&asOf, "as-of", "", "read relative dates against this day, YYYY-MM-DD (default: today)")
	cmd.Flags().StringVar(&chartFile, "chart", "", "also write the chart to FILE (.svg or .png)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer, SQL, columns, rows, checks, confidence and run id as JSON")
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to use (default: the project's default)")
	cmd.Flags().StringVarP(&file, "file", "f", "", "read the question from FILE (- for standard input)")
	cmd.Flags().StringVar(&af.model, "model", "", "the model for this question: builtin, anthropic, openai, anthropic:MODEL or openai:MODEL (default: model.provider)")
	cmd.Flags().BoolVar(&af.preferModel, "prefer-model", false, "ask the model even when the builtin planner maps the question exactly")
	cmd.Flags().StringVar(&af.results, "results", "", "continue the run that waits for a result with the result you ran, from FILE (- for standard input): CSV, TSV, a psql or mysql table, Markdown or JSON")
	cmd.Flags().StringVar(&af.runID, "run", "", "with --results: the run to continue (default: the newest one waiting)")
	cmd.Flags().BoolVar(&af.cont, "continue", false, "ask a follow-up in the conversation of your last question (\"and by month?\")")
	cmd.Flags().StringVar(&af.session, "session", "", "ask within session ID (created when new), with its earlier questions as context")
	cmd.Flags().BoolVar(&af.loop, "loop", false, "a conversation in the terminal: one question per line, each a follow-up of the last; an empty line ends it")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if af.session != "" && af.cont {
			return quarry.Errorf(quarry.KindUsage, "--session and --continue both name the conversation; give one")
		}
		if af.results != "" {
			if len(args) > 0 || file != "" {
				return quarry.Errorf(quarry.KindUsage, "--results continues an earlier question; give no new question with it")
			}
			out, err := a.rt.Resume(ctx, runtime.ResumeRequest{RunID: af.runID, Read: func() ([]byte, error) {
				data, err := a.readInput(nil, af.results, "pasted result")
				return []byte(data), err
			}})
			return a.showAgentOutcome(out, err, asJSON, chartFile)
		}
		var question string
		var err error
		if !af.loop || len(args) > 0 || file != "" {
			question, err = a.readInput(args, file, "question")
			if err != nil {
				return err
			}
		}
		question = strings.TrimSpace(question)
		day := a.now()
		if asOf != "" {
			t, err := time.Parse("2006-01-02", asOf)
			if err != nil {
				return quarry.Errorf(quarry.KindUsage, "--as-of %q is not a date; write it as YYYY-MM-DD", asOf)
			}
			day = t
		}
		if chartFile != "" {
			if ext := strings.ToLower(filepath.Ext(chartFile)); ext != ".svg" && ext != ".png" {
				return quarry.Errorf(quarry.KindUsage, "--chart %s: name the file .svg or .png", chartFile)
			}
		}
		req := runtime.AskRequest{
			Question: question, Connection: connName, Model: af.model, PreferModel: af.preferModel, AsOf: day,
			Session: af.session, Continue: af.cont,
		}
		if af.loop {
			if asJSON || chartFile != "" {
				return quarry.Errorf(quarry.KindUsage, "--loop is a conversation in the terminal; it takes no --json or --chart")
			}
			return a.askLoop(ctx, req)
		}
		if question == "" {
			return quarry.Errorf(quarry.KindUsage, "no question given; pass it as an argument, with -f FILE, or - to read standard input")
		}
		if req.Session == "" && !req.Continue && !asJSON && a.stdinTTY() && a.stderrTTY() {
			req.Offer = a.offerToContinue
		}
		ans, err := a.rt.Ask(ctx, req)
		return a.showAsk(ans, err, asJSON, chartFile)
	})
	return cmd
}

// showAsk prints what Ask did, and turns a refusal into its exit code
// after saying why.
func (a *app) showAsk(ans runtime.Answer, askErr error, asJSON bool, chartFile string) error {
	out := ans.Outcome
	if ans.ReadAs != "" {
		fmt.Fprintf(a.stderr, "quarry: reading the follow-up as %q\n", ans.ReadAs)
	}
	if !ans.Conversational {
		if out == nil || askErr != nil && out.Plan == nil {
			return askErr
		}
		return a.showAnswer(out, askErr, chartFile, asJSON)
	}
	err := a.showAgentOutcome(out, askErr, asJSON, chartFile)
	if ans.SessionID != "" && !asJSON && out != nil {
		fmt.Fprintf(a.stderr, "quarry: session %s (follow up with: quarry ask --continue \"…\")\n", ans.SessionID)
	}
	return err
}

// offerToContinue asks the person at the terminal whether a question
// continues the conversation of the last one.
func (a *app) offerToContinue(last event.RunState) bool {
	fmt.Fprintf(a.stderr, "Continue the conversation of %s (%q)? [y/N] ", last.StartedAt.Local().Format("15:04"), last.Question)
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// askLoop is a conversation in the terminal: each line of input is a
// question of one session, answered in turn, until an empty line, "exit"
// or the end of input.
func (a *app) askLoop(ctx context.Context, req runtime.AskRequest) error {
	if req.Session == "" {
		id, err := a.rt.StartSession(ctx, req.Continue)
		if err != nil {
			return err
		}
		req.Session = id
	}
	req.Continue = false
	in := bufio.NewReader(a.stdin)
	q := req.Question
	for {
		if strings.TrimSpace(q) == "" {
			if a.stdinTTY() {
				fmt.Fprint(a.stderr, "> ")
			}
			line, err := in.ReadString('\n')
			q = strings.TrimSpace(line)
			if q == "" || q == "exit" || q == "quit" {
				if err != nil && err != io.EOF {
					return quarry.Wrap(quarry.KindInput, err, "cannot read the next question")
				}
				return nil
			}
		}
		req.Question = q
		ans, err := a.rt.Ask(ctx, req)
		err = a.showAsk(ans, err, false, "")
		if quarry.KindOf(err) == quarry.KindCanceled || ctx.Err() != nil {
			return err
		}
		if err != nil {
			var se silentError
			if !errors.As(err, &se) {
				fmt.Fprintln(a.stderr, "quarry: "+oneLine(quarry.Message(err)))
			}
		}
		fmt.Fprintln(a.stdout)
		q = ""
	}
}

// showAnswer prints an answer (or why there is none), writes its chart when
// asked, and turns a refusal into its exit code after saying why.
func (a *app) showAnswer(out *analyst.AskOutcome, askErr error, chartFile string, asJSON bool) error {
	// The answer is printed whatever becomes of the chart: a chart that
	// cannot be drawn or written is the command's error after it.
	var chartErr error
	if chartFile != "" && askErr == nil {
		chartErr = writeChart(chartFile, out.Answer.Chart)
	}
	if asJSON {
		if err := writeJSON(a.stdout, askJSON(analyst.OutcomeOf(out, askErr))); err != nil {
			return err
		}
	} else {
		a.printAnswer(out, askErr)
	}
	if askErr != nil {
		switch quarry.KindOf(askErr) {
		case quarry.KindUnanswered, quarry.KindForbidden, quarry.KindRejected:
			return silentError(quarry.ExitCode(askErr))
		}
		return askErr
	}
	return chartErr
}

// printAnswer writes the answer for a person: rendered for a terminal, or
// plain Markdown when stdout is a pipe or a file.
func (a *app) printAnswer(out *analyst.AskOutcome, askErr error) {
	w := a.stdout
	if askErr != nil {
		fmt.Fprint(w, analyst.OutcomeOf(out, askErr).Explain()+"Run "+out.RunID+"\n")
		return
	}
	// Values from the database are in the answer, its reading, its SQL
	// (a literal) and the chart's labels: none reaches the terminal as a
	// control sequence.
	md := narrate.Safe(out.Answer.Markdown)
	if out.Reading != nil && out.Reading.Text != "" {
		// How the question was read comes first: a misreading shows here
		// before anyone reads a number.
		if a.tty {
			fmt.Fprintf(w, "\x1b[2mRead as: %s\x1b[0m\n\n", narrate.Safe(out.Reading.Text))
		} else {
			fmt.Fprintf(w, "Read as: %s\n\n", narrate.Safe(out.Reading.Text))
		}
	}
	if !a.tty {
		fmt.Fprintln(w, strings.TrimRight(md, "\n"))
		fmt.Fprintf(w, "\n```sql\n%s\n```\n\nRun %s · %s · %s · as of %s\n",
			narrate.Safe(strings.TrimSpace(out.SQL)), out.RunID, narrate.Rows(out.Rows), shortDuration(out.Duration), out.AsOf)
		return
	}
	fmt.Fprint(w, narrate.Terminal(md, true))
	if out.Answer.Chart.Kind != "" && out.Answer.Chart.Kind != narrate.ChartNone {
		fmt.Fprintln(w)
		fmt.Fprint(w, narrate.Safe(chart.RenderTerminal(out.Answer.Chart, min(a.width, 100))))
	}
	fmt.Fprintf(w, "\nSQL\n%s\n", terminalSQL(narrate.Safe(out.SQL)))
	fmt.Fprintf(w, "\x1b[2mRun %s · %s · %s · as of %s\x1b[0m\n", out.RunID, narrate.Rows(out.Rows), shortDuration(out.Duration), out.AsOf)
}

// terminalSQL sets SQL off for a terminal by indenting it, as the rendered
// answer shows its code: a Markdown fence there is noise, and a person
// copying the statement would have to leave it out.
func terminalSQL(sql string) string {
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(sql), "\r\n", "\n"), "\n")
	for i, l := range lines {
		if l = strings.TrimRight(l, " \t"); l != "" {
			l = "    " + l
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// askJSON is the --json shape of an answer.
func askJSON(o analyst.Outcome) map[string]any {
	j := map[string]any{
		"run_id":   o.RunID,
		"status":   o.Status,
		"question": o.Question,
		"as_of":    o.AsOf,
	}
	if o.PlanKind != "" {
		plan := map[string]any{"kind": o.PlanKind, "title": o.PlanTitle}
		for k, v := range map[string][]string{"understood": o.Understood, "unknown": o.Unknown, "suggestions": o.Suggestions, "options": o.Options} {
			if len(v) > 0 {
				plan[k] = v
			}
		}
		if o.Clarify != "" {
			plan["question"] = o.Clarify
		}
		j["plan"] = plan
	}
	if o.Message != "" {
		j["message"] = o.Message
	}
	if o.Reading != nil {
		j["interpretation"] = o.Reading
	}
	// What was understood and what was not, at the top as MCP's ask and
	// the chat give them (and under plan, as before).
	for k, v := range map[string][]string{"understood": o.Understood, "unknown": o.Unknown, "suggestions": o.Suggestions} {
		if len(v) > 0 {
			j[k] = v
		}
	}
	if o.DidYouMean != "" {
		j["did_you_mean"] = o.DidYouMean
	}
	j["row_count"] = o.RowCount
	j["truncated"] = o.Truncated
	if o.SQL == "" {
		return j
	}
	j["sql"] = o.SQL
	if o.Table != nil {
		rows := make([][]any, len(o.Table.Rows))
		for i, r := range o.Table.Rows {
			vals := make([]any, len(r))
			for k, v := range r {
				vals[k] = quarry.JSONValue(v)
			}
			rows[i] = vals
		}
		j["columns"] = o.Table.Columns
		j["rows"] = rows
	}
	j["row_count"] = o.RowCount
	j["truncated"] = o.Truncated
	j["answer"] = o.Answer
	j["headline"] = o.Headline
	j["checks"] = o.Checks
	j["confidence"] = o.Confidence
	j["chart"] = o.Chart.Kind
	j["result_id"] = o.ResultID
	j["duration_ms"] = float64(o.Duration.Microseconds()) / 1000
	return j
}

// writeChart writes the chart as SVG or PNG, by the file's extension.
func writeChart(path string, spec narrate.ChartSpec) error {
	if spec.Kind == "" || spec.Kind == narrate.ChartNone {
		return quarry.Errorf(quarry.KindInput, "this answer has no chart (its shape does not call for one); nothing written to %s", path)
	}
	var data []byte
	var err error
	if strings.EqualFold(filepath.Ext(path), ".png") {
		data, err = chart.RenderPNG(spec, 800, 450)
	} else {
		data, err = chart.RenderSVG(spec, 800, 450)
	}
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot draw the chart")
	}
	if err := runtime.WriteFileAtomic(path, data, 0o644); err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot write the chart to %s", path)
	}
	return nil
}
