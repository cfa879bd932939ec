package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector/normalize"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
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

// usesAgent reports whether ask goes through the agent rather than the
// builtin path as it always was: a model is chosen, no connection is
// configured (manual mode), or a session or pasted result is involved.
func (f askFlags) usesAgent(cfg *config.Config, m modelChoice, connName string) bool {
	manual := connName == "" && cfg.Connection == ""
	return m.Provider != config.ProviderBuiltin || manual || f.results != "" || f.cont || f.session != "" || f.loop
}

// stderrTTY reports whether stderr is a terminal.
func (a *app) stderrTTY() bool {
	f, ok := a.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newAgent wires an agent for one question: the model, the connection and
// its guard (none in manual mode), the knowledge folder and the limits. It
// returns a recorder for a new run and a func that releases what it opened.
func (a *app) newAgent(ctx context.Context, cfg *config.Config, m modelChoice, connName string, preferModel bool) (*agent.Agent, *event.Recorder, func(), error) {
	k, verified, err := a.agentKnowledge(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	ag := &agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, PreferModel: preferModel, Clock: a.now,
		Limits: agentLimits(cfg),
	}
	if gw := a.gateway(m); gw != nil {
		ag.Gateway = gw
	}
	if connName == "" && cfg.Connection == "" {
		st, err := a.store(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		g, closeGuard, err := a.newGuard(quarry.DialectGeneric)
		if err != nil {
			return nil, nil, nil, err
		}
		ag.Guard, ag.Results, ag.Dialect, ag.Connection = g, st, quarry.DialectGeneric, "manual (no connection)"
		if err := a.checkModelOnce(ctx, cfg, m, ag); err != nil {
			closeGuard()
			return nil, nil, nil, err
		}
		rec := event.NewRecorder(a.newID("r"), a.now, st)
		rec.Hold()
		return ag, rec, closeGuard, nil
	}
	an, rec, closeRun, err := a.analyst(ctx, connName, cfg.Limits.MaxRows)
	if err != nil {
		return nil, nil, nil, err
	}
	ag.Conn, ag.Guard, ag.Results, ag.Connection, ag.Builtin = an.Conn, an.Guard, an.Results, an.Connection, an
	ag.PrivilegedRole = an.PrivilegedRole
	if c, _, err := a.conn(ctx, connName); err == nil {
		if cat, err := a.catalog(ctx, c); err == nil {
			ag.Catalog = cat
			if ag.Withheld, err = a.withheldViews(ctx, c, cat); err != nil {
				closeRun()
				return nil, nil, nil, err
			}
		}
	}
	if err := a.checkModelOnce(ctx, cfg, m, ag); err != nil {
		closeRun()
		return nil, nil, nil, err
	}
	return ag, rec, closeRun, nil
}

// agentLimits are the agent's bounds from quarry.yaml: its steps and
// budget, preview rows and repairs, and the limits its queries run under.
func agentLimits(cfg *config.Config) agent.Limits {
	l := agent.Limits{
		MaxSteps:    cfg.Model.MaxSteps,
		Budget:      llm.Budget{MaxMicroUSD: int64(math.Round(cfg.Model.BudgetUSD * 1e6))},
		PreviewRows: cfg.Limits.PreviewRows, RepairAttempts: cfg.Limits.RepairAttempts,
		StatementTimeout: cfg.Limits.StatementTimeout, MaxCost: cfg.Limits.MaxCost, MaxEstimatedRows: cfg.Limits.MaxEstimatedRows,
		MaxValueBytes: cfg.Limits.MaxValueBytes, MaxResultBytes: cfg.Limits.MaxResultBytes,
	}
	if cfg.Limits.MaxRows > 0 {
		l.MaxRows = min(cfg.Limits.MaxRows, agent.DefaultMaxRows)
	}
	return l
}

// agentKnowledge loads the knowledge folder for the agent. A project
// without one still gets answers from a model (the live schema is enough),
// so a missing folder is an empty model, not an error.
func (a *app) agentKnowledge(cfg *config.Config) (*analyst.Knowledge, []agent.Verified, error) {
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		return &analyst.Knowledge{}, nil, nil
	}
	k, err := a.knowledge()
	if err != nil {
		return nil, nil, err
	}
	f, err := a.folder(cfg)
	if err != nil {
		return nil, nil, err
	}
	var verified []agent.Verified
	for _, v := range f.Verified {
		verified = append(verified, agent.Verified{Question: v.Question, SQL: v.SQL})
	}
	return k, verified, nil
}

// askWithAgent answers a question (or, with --loop, a conversation)
// through the agent, in a session when one is asked for.
func (a *app) askWithAgent(ctx context.Context, cfg *config.Config, f askFlags, m modelChoice, question, connName string, day time.Time, asJSON bool, chartFile string) error {
	if f.loop {
		if asJSON || chartFile != "" {
			return quarry.Errorf(quarry.KindUsage, "--loop is a conversation in the terminal; it takes no --json or --chart")
		}
		return a.askLoop(ctx, cfg, f, m, question, connName, day)
	}
	if question == "" {
		return quarry.Errorf(quarry.KindUsage, "no question given; pass it as an argument, with -f FILE, or - to read standard input")
	}
	offer := f.session == "" && !f.cont && !asJSON
	return a.askInSession(ctx, cfg, f, m, question, connName, day, asJSON, chartFile, offer)
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

// askResults continues a manual-mode run with the result the user pasted:
// the run named by --run, or the newest run that waits for one.
func (a *app) askResults(ctx context.Context, f askFlags, asJSON bool, chartFile string) error {
	cfg, err := a.config()
	if err != nil {
		return err
	}
	st, err := a.store(ctx)
	if err != nil {
		return err
	}
	runID := f.runID
	if runID == "" {
		runs, err := st.Runs(ctx, store.RunFilter{Kind: "ask", Limit: 50})
		if err != nil {
			return err
		}
		for _, r := range runs {
			if r.Status == event.StatusAwaitingResults {
				runID = r.RunID
				break
			}
		}
		if runID == "" {
			return quarry.Errorf(quarry.KindNotFound, "no run is waiting for a pasted result; ask a question in a project with no connection first, or name the run with --run ID")
		}
	}
	events, err := st.Events(ctx, runID)
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return quarry.Errorf(quarry.KindNotFound, "no run %s", runID)
	}
	data, err := a.readInput(nil, f.results, "pasted result")
	if err != nil {
		return err
	}
	t, format, err := normalize.Parse([]byte(data))
	if err != nil {
		return err
	}
	ag, _, release, err := a.newAgent(ctx, cfg, modelChoice{Provider: config.ProviderBuiltin}, "", false)
	if err != nil {
		return err
	}
	defer release()
	last := events[len(events)-1].Seq
	for _, e := range events {
		last = max(last, e.Seq)
	}
	rec := event.ResumeRecorder(events[0].RunID, last, a.now, st)
	rec.Hold()
	out, askErr := ag.Resume(ctx, rec, events, agent.Pasted{Table: t, Format: format})
	return a.showAgentOutcome(out, askErr, asJSON, chartFile)
}
