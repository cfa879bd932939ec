package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// askFlags are ask's flags for language models, manual mode and sessions.
type askFlags struct {
	model       string // --model
	preferModel bool   // --prefer-model
	results     string // --results FILE|-
	runID       string // --run ID, with --results
	cont        bool   // --continue
	session     string // --session ID
	loop        bool   // --loop
}

// stderrTTY reports whether stderr is a terminal.
func (a *app) stderrTTY() bool {
	f, ok := a.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// showAgentOutcome prints what the agent did, the way ask prints builtin
// answers, and turns the outcome into the command's error.
func (a *app) showAgentOutcome(out *analyst.AskOutcome, askErr error, asJSON bool, chartFile string) error {
	if out == nil {
		return askErr
	}
	if askErr != nil {
		switch quarry.KindOf(askErr) {
		case quarry.KindUnanswered, quarry.KindForbidden, quarry.KindRejected:
		default:
			return askErr
		}
	}
	if out.Status == event.StatusAwaitingResults {
		if asJSON {
			j := map[string]any{"run_id": out.RunID, "status": out.Status, "question": out.Question, "sql": out.SQL}
			if out.Compiled != nil {
				var cols []string
				for _, c := range out.Compiled.Columns {
					cols = append(cols, c.Name)
				}
				j["columns"] = cols
			}
			return writeJSON(a.stdout, j)
		}
		fmt.Fprintf(a.stdout, "No connection is configured, so quarry did not run this query. Run it on your database:\n\n%s\n\nthen paste its result (CSV, TSV, a psql or mysql table, Markdown or JSON):\n\n  quarry ask --results FILE      (or --results - to paste it here)\n\nRun %s is waiting for the result.\n",
			strings.TrimSpace(out.SQL), out.RunID)
		return nil
	}
	return a.showAnswer(out, askErr, chartFile, asJSON)
}
