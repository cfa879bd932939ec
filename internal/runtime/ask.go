package runtime

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// AskRequest is one question, as any surface asks it.
type AskRequest struct {
	Question   string
	Connection string // "" for the project's default
	// Model is the planner: "" (model.provider in quarry.yaml), builtin,
	// a provider, or provider:model (ModelFor).
	Model string
	// PreferModel sends the question to the model even when the builtin
	// planner maps it exactly.
	PreferModel bool
	AsOf        time.Time // relative dates are read against this day
	// Session asks within a session (created when new); Continue, in the
	// conversation of the project's newest question.
	Session  string
	Continue bool
	// Offer, when set and the request names no session, is asked whether
	// to continue the conversation of the newest question, when it is
	// under a day old (a terminal's prompt). Only a conversation (a model
	// or manual mode) offers it: the builtin planner answers a question on
	// its own.
	Offer func(last event.RunState) bool
}

// Answer is what Ask did: the outcome (nil when the question never
// became a run), the session it belongs to, and how a follow-up was read.
type Answer struct {
	Outcome   *analyst.AskOutcome
	SessionID string
	// ReadAs is the follow-up made whole for the builtin planner ("and by
	// month?" after "revenue by channel"), when it was rewritten.
	ReadAs string
	// Conversational says the question went through the conversation
	// path (a model, manual mode, a session) rather than the builtin
	// planner alone; the two differ in what they report on failure.
	Conversational bool
}

// Planner is a strategy that turns a question into a run of the one
// pipeline (analyst's steps), recording it through rec: the builtin
// planner, a language model (the agent's tool loop, whose tools are the
// pipeline's own steps), or manual mode (the agent without a connection:
// propose the SQL and suspend until the result is pasted).
type Planner interface {
	Ask(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error)
}

// builtinPlanner is the builtin planner over one knowledge folder.
type builtinPlanner struct {
	an *analyst.Analyst
	k  *analyst.Knowledge
}

// Ask implements Planner; the builtin planner reads one question at a
// time (a follow-up is made whole before it gets here).
func (b builtinPlanner) Ask(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, _ agent.AskOptions) (*analyst.AskOutcome, error) {
	return b.an.Ask(ctx, rec, b.k, question, asOf)
}

var (
	_ Planner = builtinPlanner{}
	_ Planner = (*agent.Agent)(nil)
)

// offerWithin is how recent a question must be for a terminal to offer to
// continue its conversation.
const offerWithin = 24 * time.Hour

// Ask answers a question: with the builtin planner, a language model, or
// in manual mode a proposed query, within a session when one is asked
// for. The error is the question's (a refusal is KindUnanswered,
// KindForbidden or KindRejected, with an outcome that says why).
func (r *Runtime) Ask(ctx context.Context, req AskRequest) (Answer, error) {
	cfg, err := r.Config()
	if err != nil {
		return Answer{}, err
	}
	m, err := r.ModelFor(cfg, req.Model)
	if err != nil {
		return Answer{}, err
	}
	manual := cfg.Manual(req.Connection)
	if m.Provider == config.ProviderBuiltin && !manual && !req.Continue && req.Session == "" {
		r.NoteBuiltin(cfg)
		// The folder, its planner and the plan are made while the
		// connection opens (planAhead).
		r.planAhead(ctx, cfg, req.Question, req.AsOf)
		an, release, err := r.Analyst(ctx, req.Connection, cfg.Limits.MaxRows)
		if err != nil {
			return Answer{}, err
		}
		defer release()
		k, err := r.Knowledge()
		if err != nil {
			return Answer{}, err
		}
		conn, _, err := r.Conn(ctx, req.Connection)
		if err != nil {
			return Answer{}, err
		}
		k, rebuilt, err := r.withViewPolicy(ctx, conn, an.Guard, k)
		if err != nil {
			return Answer{}, err
		}
		if !rebuilt {
			// The plan made ahead read the knowledge as it is.
			k = k.WithPlanned(r.planned())
		}
		rec, err := r.Recorder(ctx)
		if err != nil {
			return Answer{}, err
		}
		var p Planner = builtinPlanner{an: an, k: k}
		out, err := p.Ask(ctx, rec, req.Question, req.AsOf, agent.AskOptions{})
		return Answer{Outcome: out}, err
	}
	return r.askInSession(ctx, m, req)
}

// askInSession answers one question of a conversation: through the model
// with the earlier turns, or with the builtin planner after making a
// follow-up whole ("and by month?").
func (r *Runtime) askInSession(ctx context.Context, m ModelChoice, req AskRequest) (Answer, error) {
	ans := Answer{Conversational: true}
	st, err := r.Store(ctx)
	if err != nil {
		return ans, err
	}
	sessID, history, err := r.session(ctx, st, req)
	if err != nil {
		return ans, err
	}
	ans.SessionID = sessID
	ag, rec, release, err := r.Agent(ctx, m, req.Connection, req.PreferModel)
	if err != nil {
		return ans, err
	}
	defer release()
	if sessID != "" {
		rec = event.NewRecorder(rec.RunID(), r.o.Now, event.WithSession(sessID, st))
		rec.Hold()
	}
	if ag.Gateway == nil && ag.Conn != nil {
		// The builtin planner answers: it needs the knowledge folder.
		if ag.Knowledge == nil || ag.Knowledge.Planner == nil {
			if _, err := r.Knowledge(); err != nil {
				return ans, err
			}
		}
		if q := agent.FollowUp(history, req.Question); q != req.Question {
			ans.ReadAs = q
		}
	}
	var p Planner = ag // the model, manual mode, or the builtin planner behind the agent
	out, askErr := p.Ask(ctx, rec, req.Question, req.AsOf, agent.AskOptions{SessionID: sessID, History: history})
	ans.Outcome = out
	if sessID != "" && out != nil {
		title := ""
		if len(history) == 0 {
			title = req.Question
		}
		if err := st.TouchSession(context.WithoutCancel(ctx), sessID, out.RunID, title, r.o.Now()); err != nil && askErr == nil {
			askErr = err
		}
	}
	return ans, askErr
}

// StartSession begins a conversation: the newest question's (when cont),
// or a new one. It returns the session's ID.
func (r *Runtime) StartSession(ctx context.Context, cont bool) (string, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return "", err
	}
	if cont {
		id, _, err := r.session(ctx, st, AskRequest{Continue: true})
		return id, err
	}
	id := r.NewID("s")
	return id, st.CreateSession(ctx, store.Session{ID: id, CreatedAt: r.o.Now()})
}

// ResumeRequest continues a manual-mode run with the result a person ran
// and pasted.
type ResumeRequest struct {
	RunID string // "" for the newest run that waits for a result
	// Read returns the pasted result (CSV, TSV, a psql or mysql table,
	// Markdown or JSON); it is called once the run is found, so that
	// nobody pastes a result for a run that does not exist.
	Read func() ([]byte, error)
}

// Resume continues the run that waits for a result with the pasted one:
// the result is read, redacted, kept, verified and explained as if quarry
// had run the query.
func (r *Runtime) Resume(ctx context.Context, req ResumeRequest) (*analyst.AskOutcome, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	runID := req.RunID
	if runID == "" {
		runs, err := st.Runs(ctx, store.RunFilter{Kind: "ask", Limit: 50})
		if err != nil {
			return nil, err
		}
		for _, run := range runs {
			if run.Status == event.StatusAwaitingResults {
				runID = run.RunID
				break
			}
		}
		if runID == "" {
			return nil, quarry.Errorf(quarry.KindNotFound, "no run is waiting for a pasted result; ask a question in a project with no connection first, or name the run with --run ID")
		}
	}
	events, err := st.Events(ctx, runID)
	if err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, quarry.Errorf(quarry.KindNotFound, "no run %s", runID)
	}
	data, err := req.Read()
	if err != nil {
		return nil, err
	}
	ag, _, release, err := r.Agent(ctx, ModelChoice{Provider: config.ProviderBuiltin}, "", false)
	if err != nil {
		return nil, err
	}
	defer release()
	rec := event.ContinueRecorder(events, r.o.Now, st)
	rec.Hold()
	return ag.ResumeWith(ctx, rec, events, data)
}
