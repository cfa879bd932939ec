package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// offerWithin is how recent a question must be for a terminal to offer to
// continue its conversation.
const offerWithin = 24 * time.Hour

// sessionSink stamps the session's ID into run.started before the events
// reach the store, for runs whose producer does not know the session (the
// builtin planner's): the store's index then lists them under it.
type sessionSink struct {
	next event.Sink
	id   string
}

// Append implements event.Sink.
func (s sessionSink) Append(ctx context.Context, events ...event.Event) error {
	for i, e := range events {
		if e.Type != event.RunStarted {
			continue
		}
		var d event.RunStartedData
		if json.Unmarshal(e.Data, &d) == nil && d.SessionID == "" {
			d.SessionID = s.id
			if ne, err := event.New(e.RunID, e.Seq, e.At, &d); err == nil {
				events[i] = ne
			}
		}
	}
	return s.next.Append(ctx, events...)
}

// session resolves the conversation a question belongs to: --session ID
// (created when new), --continue (the newest question's session, or a new
// one that continues it), or, in a terminal, an offer to continue a
// question under a day old. It returns "" for a question on its own, and
// the earlier turns.
func (a *app) session(ctx context.Context, st store.State, f askFlags, offer bool) (string, []agent.Turn, error) {
	switch {
	case f.session != "":
		if _, err := st.Session(ctx, f.session); err != nil {
			if quarry.KindOf(err) != quarry.KindNotFound {
				return "", nil, err
			}
			if err := st.CreateSession(ctx, store.Session{ID: f.session, CreatedAt: a.now()}); err != nil {
				return "", nil, err
			}
		}
		return a.turns(ctx, st, f.session, nil)
	case f.cont:
		last, err := a.lastQuestion(ctx, st)
		if err != nil {
			return "", nil, err
		}
		if last == nil {
			return "", nil, quarry.Errorf(quarry.KindNotFound, "there is no earlier question to continue; ask one first")
		}
		return a.continueFrom(ctx, st, last)
	case offer && a.stdinTTY() && a.stderrTTY():
		last, err := a.lastQuestion(ctx, st)
		if err != nil || last == nil || a.now().Sub(last.StartedAt) > offerWithin {
			return "", nil, nil
		}
		fmt.Fprintf(a.stderr, "Continue the conversation of %s (%q)? [y/N] ", last.StartedAt.Local().Format("15:04"), last.Question)
		line, _ := bufio.NewReader(a.stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			return "", nil, nil
		}
		return a.continueFrom(ctx, st, last)
	}
	return "", nil, nil
}

// lastQuestion returns the newest question of the project, or nil.
func (a *app) lastQuestion(ctx context.Context, st store.State) (*event.RunState, error) {
	runs, err := st.Runs(ctx, store.RunFilter{Kind: "ask", Limit: 1})
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	return &runs[0], nil
}

// continueFrom returns the session of run last, or a new one that starts
// from it.
func (a *app) continueFrom(ctx context.Context, st store.State, last *event.RunState) (string, []agent.Turn, error) {
	if last.SessionID != "" {
		if _, err := st.Session(ctx, last.SessionID); err == nil {
			return a.turns(ctx, st, last.SessionID, nil)
		}
	}
	id := a.newID("s")
	if err := st.CreateSession(ctx, store.Session{ID: id, Title: last.Question, LastRunID: last.RunID, CreatedAt: a.now()}); err != nil {
		return "", nil, err
	}
	return a.turns(ctx, st, id, last)
}

// turns reads a session's earlier questions; seed, when not nil, is a
// question asked before the session existed.
func (a *app) turns(ctx context.Context, st store.State, id string, seed *event.RunState) (string, []agent.Turn, error) {
	runs, err := st.Runs(ctx, store.RunFilter{SessionID: id, Kind: "ask"})
	if err != nil {
		return "", nil, err
	}
	if seed != nil {
		runs = append(runs, *seed)
	}
	return id, agent.History(runs), nil
}

// askInSession answers one question of a conversation: through the model
// with the earlier turns, or with the builtin planner after making a
// follow-up whole ("and by month?").
func (a *app) askInSession(ctx context.Context, cfg *config.Config, f askFlags, m modelChoice, question, connName string, day time.Time, asJSON bool, chartFile string, offer bool) error {
	st, err := a.store(ctx)
	if err != nil {
		return err
	}
	sessID, history, err := a.session(ctx, st, f, offer)
	if err != nil {
		return err
	}
	ag, rec, release, err := a.newAgent(ctx, cfg, m, connName, f.preferModel)
	if err != nil {
		return err
	}
	defer release()
	if sessID != "" {
		rec = event.NewRecorder(rec.RunID(), a.now, sessionSink{next: st, id: sessID})
		rec.Hold()
	}
	var out *analyst.AskOutcome
	var askErr error
	if ag.Gateway == nil && ag.Conn != nil {
		if ag.Knowledge == nil || ag.Knowledge.Planner == nil {
			if _, err := a.knowledge(); err != nil {
				return err
			}
		}
		q := agent.FollowUp(history, question)
		if q != question {
			fmt.Fprintf(a.stderr, "quarry: reading the follow-up as %q\n", q)
		}
		out, askErr = ag.Builtin.Ask(ctx, rec, ag.Knowledge, q, day)
	} else {
		out, askErr = ag.Ask(ctx, rec, question, day, agent.AskOptions{SessionID: sessID, History: history})
	}
	if sessID != "" && out != nil {
		title := ""
		if len(history) == 0 {
			title = question
		}
		if err := st.TouchSession(context.WithoutCancel(ctx), sessID, out.RunID, title, a.now()); err != nil && askErr == nil {
			askErr = err
		}
	}
	err = a.showAgentOutcome(out, askErr, asJSON, chartFile)
	if sessID != "" && !asJSON && out != nil {
		fmt.Fprintf(a.stderr, "quarry: session %s (follow up with: quarry ask --continue \"…\")\n", sessID)
	}
	return err
}

// askLoop is a conversation in the terminal: each line of input is a
// question of one session, answered in turn, until an empty line, "exit"
// or the end of input.
func (a *app) askLoop(ctx context.Context, cfg *config.Config, f askFlags, m modelChoice, first, connName string, day time.Time) error {
	st, err := a.store(ctx)
	if err != nil {
		return err
	}
	if f.session == "" {
		if f.cont {
			id, _, err := a.session(ctx, st, f, false)
			if err != nil {
				return err
			}
			f.session = id
		} else {
			f.session = a.newID("s")
			if err := st.CreateSession(ctx, store.Session{ID: f.session, CreatedAt: a.now()}); err != nil {
				return err
			}
		}
	}
	f.cont = false
	in := bufio.NewReader(a.stdin)
	q := first
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
		err := a.askInSession(ctx, cfg, f, m, q, connName, day, false, "", false)
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
