package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// chatRequest is the body of POST /api/chat.
type chatRequest struct {
	Message   string `json:"message"`
	SessionID string `json:"session_id,omitempty"`
	AsOf      string `json:"as_of,omitempty"`
	Results   string `json:"results,omitempty"` // manual mode: pasted results
	RunID     string `json:"run_id,omitempty"`  // with results: the run they continue
}

// sessionEvent is the first event of every chat stream.
type sessionEvent struct {
	SessionID string `json:"session_id"`
	RunID     string `json:"run_id"`
}

// doneEvent is the last event of every chat stream.
type doneEvent struct {
	RunID     string `json:"run_id"`
	SessionID string `json:"session_id"`
	Status    string `json:"status"`
	Message   string `json:"message,omitempty"` // why there is no answer, one line
	// Interpretation is how the question was read, in business terms.
	Interpretation *event.ReadingData `json:"interpretation,omitempty"`
	Answer         *answerJSON        `json:"answer,omitempty"`
	Clarification  *clarification     `json:"clarification,omitempty"`
	Understood     []string           `json:"understood,omitempty"`
	Unknown        []string           `json:"unknown,omitempty"`
	Suggestions    []string           `json:"suggestions,omitempty"`
	DidYouMean     string             `json:"did_you_mean,omitempty"` // the question with its unknown words corrected
	Proposed       *proposedJSON      `json:"proposed,omitempty"`     // manual mode: the query to run
	Error          *apiError          `json:"error,omitempty"`
}

type clarification struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
}

// askTurn is one question being answered: its run's identity, where its
// events go, and the outcome once it has finished.
type askTurn struct {
	runID, sessionID, question, title string
	newSession                        bool
	asOf                              time.Time
	feed                              *feed
	proposed                          proposals
	out                               *analyst.AskOutcome
	err                               error
}

// chat answers one question and streams the run's events as server-sent
// events: session first, then each event as it is recorded, then done.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	question := strings.TrimSpace(req.Message)
	var pastedEvents []event.Event
	if strings.TrimSpace(req.Results) != "" {
		if s.cfg.Agent == nil {
			writeError(w, quarry.Errorf(quarry.KindUnsupported, "manual mode (pasted results) needs a project with no connection; this server runs the queries itself"))
			return
		}
		runID, events, err := s.pastedTurn(r.Context(), &req)
		if err != nil {
			writeError(w, err)
			return
		}
		req.RunID, pastedEvents = runID, events
		question = questionOf(events)
	} else if req.RunID != "" {
		writeError(w, errf("run_id goes with results; send the pasted result as \"results\""))
		return
	} else if question == "" {
		writeError(w, errf("message is empty; send the question as \"message\""))
		return
	}
	asOf, err := s.asOf(req.AsOf)
	if err != nil {
		writeError(w, err)
		return
	}
	turn := &askTurn{question: question, asOf: asOf, feed: newFeed()}
	if pastedEvents != nil {
		if st, err := event.Fold(pastedEvents); err == nil && req.SessionID == "" {
			req.SessionID = st.SessionID
		}
	}
	if req.SessionID != "" {
		sess, err := s.cfg.Store.Session(r.Context(), req.SessionID)
		if err != nil {
			writeError(w, err)
			return
		}
		turn.sessionID = sess.ID
	} else if pastedEvents == nil {
		turn.sessionID, turn.newSession, turn.title = s.cfg.NewID("s"), true, title(question)
	}
	if !s.admit(w) {
		return
	}
	turn.runID = s.cfg.NewID("r")
	if pastedEvents != nil {
		turn.runID = req.RunID
	}
	s.runs.Add(1) // before the first byte, so that Wait sees this run
	firstSent := func() {}
	if s.cfg.Arriving != nil {
		firstSent = s.cfg.Arriving()
	}
	defer firstSent() // a stream that ends before its first event

	sse := startSSE(w)
	// The session event says the run is recorded: a client that reads it
	// can find the run on any replica sharing the state, whatever happens
	// to this one. A new run is recorded with its first event (batched
	// stores run.started before the feed sees it); a continued one is.
	sessionSent := false
	session := func() {
		if !sessionSent {
			sse.send("session", "", sessionEvent{SessionID: turn.sessionID, RunID: turn.runID})
			sessionSent = true
			firstSent()
		}
	}
	if pastedEvents != nil {
		session()
	}

	// The run's own events come through its feed; one another writer
	// recorded in between (a decision on its approval, made on any
	// replica) is read from the log, so that the stream misses none.
	var sent int64
	sendAll := func(evs []event.Event) {
		for _, e := range evs {
			if sent > 0 && e.Seq > sent+1 {
				if logged, err := s.cfg.Store.Events(r.Context(), turn.runID); err == nil {
					for _, l := range logged {
						if l.Seq > sent && l.Seq < e.Seq {
							sse.sendEvent(l)
						}
					}
				}
			}
			sse.sendEvent(e)
			sent = max(sent, e.Seq)
		}
	}

	finished := make(chan struct{})
	ctx, cancel := s.runContext(r)
	go func() {
		defer s.runs.Done()
		defer s.release()
		defer cancel()
		defer close(finished)
		if pastedEvents != nil {
			s.resumeRun(ctx, turn, pastedEvents, req.Results)
			return
		}
		s.askRun(ctx, turn)
	}()

	// Stream until the run has finished; a client that goes away stops the
	// stream here and the run goes on.
	for {
		select {
		case <-r.Context().Done():
			return
		case <-turn.feed.ready:
			evs := turn.feed.take()
			if len(evs) > 0 {
				session()
			}
			sendAll(evs)
			continue
		case <-finished:
		}
		break
	}
	session()
	sendAll(turn.feed.take())
	sse.send("done", "", s.done(turn))
}

// askRun answers the turn's question on the detached context ctx and
// records the session.
func (s *Server) askRun(ctx context.Context, t *askTurn) {
	// The session's earlier questions: context for the model, and what
	// makes "and by month?" whole for the builtin planner.
	var history []agent.Turn
	if !t.newSession {
		runs, err := s.cfg.Store.Runs(ctx, store.RunFilter{SessionID: t.sessionID, Kind: "ask"})
		if err != nil {
			t.err = err
			return
		}
		history = agent.History(runs)
	}
	// A new session is stored while the run records its first event, so
	// that both go to the state in one commit; the feed, and so the
	// stream, sees the run's events once both are stored.
	created := &sessionStored{}
	if t.newSession {
		ch := make(chan error, 1)
		sess := store.Session{ID: t.sessionID, Title: t.title, CreatedAt: s.cfg.Clock()}
		go func() { ch <- s.cfg.Store.CreateSession(ctx, sess) }()
		created.ch = ch
	}
	rec := event.NewRecorder(t.runID, s.cfg.Clock, event.WithSession(t.sessionID, event.MultiSink(batched(s.cfg.Store), created, t.feed, &t.proposed)))
	t.out, t.err = s.cfg.Ask(ctx, rec, t.question, t.asOf, agent.AskOptions{SessionID: t.sessionID, History: history})
	if err := created.wait(ctx); err != nil && t.err == nil {
		t.err = err
	}
	if err := s.cfg.Store.TouchSession(ctx, t.sessionID, t.runID, title(t.question), s.cfg.Clock()); err != nil && t.err == nil {
		t.err = err
	}
}

// sessionStored is a sink that holds a run's events until the run's new
// session is stored, and fails them when it could not be.
type sessionStored struct {
	ch   <-chan error // nil: the session was stored before
	once sync.Once
	err  error
}

func (c *sessionStored) Append(ctx context.Context, _ ...event.Event) error {
	return c.wait(ctx)
}

// wait returns once the session is stored, with the error storing it.
func (c *sessionStored) wait(ctx context.Context) error {
	if c.ch == nil {
		return nil
	}
	c.once.Do(func() {
		select {
		case c.err = <-c.ch:
		case <-ctx.Done():
			c.err = ctx.Err()
		}
	})
	return c.err
}

// done builds the last event of a turn from its outcome.
func (s *Server) done(t *askTurn) doneEvent {
	o := analyst.OutcomeOf(t.out, t.err)
	d := doneEvent{RunID: t.runID, SessionID: t.sessionID, Status: string(o.Status), Message: o.Message, Interpretation: o.Reading,
		Understood: o.Understood, Unknown: o.Unknown, Suggestions: o.Suggestions, DidYouMean: o.DidYouMean}
	if o.Status == analyst.Clarify {
		d.Clarification = &clarification{Question: o.Clarify, Options: o.Options}
	}
	switch {
	case o.Status == analyst.Waiting:
		d.Proposed = t.proposed.get()
		if d.Proposed == nil {
			d.Proposed = &proposedJSON{SQL: o.SQL}
		}
		if d.Proposed.Columns == nil {
			d.Proposed.Columns = []string{}
		}
	case t.out != nil && t.err == nil:
		d.Answer = s.answerOf(t.out)
	}
	if t.err != nil {
		e := errorBody(t.err)
		d.Error = &e
	}
	return d
}

// asOf reads the day relative dates are read against; empty means today.
func (s *Server) asOf(day string) (time.Time, error) {
	if day == "" {
		return s.cfg.Clock(), nil
	}
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		return time.Time{}, errf("as_of %q is not a date; write it as YYYY-MM-DD", day)
	}
	return t, nil
}

// title names a session after its first question.
func title(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if r := []rune(q); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return q
}

// feed is a run's live event sink for one stream: it never blocks the run,
// whether or not anybody still reads.
type feed struct {
	mu     sync.Mutex
	events []event.Event
	ready  chan struct{}
}

func newFeed() *feed { return &feed{ready: make(chan struct{}, 1)} }

// Append queues events for the stream.
func (f *feed) Append(_ context.Context, events ...event.Event) error {
	f.mu.Lock()
	f.events = append(f.events, events...)
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
	return nil
}

func (f *feed) take() []event.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs := f.events
	f.events = nil
	return evs
}

// batched returns a sink that hands events to next in a few writes per
// run instead of one per event, at the points where the analyst makes the
// log durable when it holds events itself: once the guard has decided
// (before a statement reaches the database), when a statement starts to
// wait for approval (the person who decides reads it from the store), when
// the run ends; and when it starts, so that a run the chat has named to its
// client exists in the state even if this server dies. The live stream is
// not batched: it gets each event as it is made.
func batched(next event.Sink) event.Sink {
	var pending []event.Event
	return event.SinkFunc(func(ctx context.Context, events ...event.Event) error {
		pending = append(pending, events...)
		for _, e := range events {
			if e.Type == event.RunStarted || e.Type == event.GuardChecked || e.Type == event.ApprovalRequested || e.Type == event.RunFinished {
				evs := pending
				pending = nil
				return next.Append(ctx, evs...)
			}
		}
		return nil
	})
}

// startSSE answers 200 with the headers of an event stream (no caching,
// no proxy buffering) and returns its writer.
func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	sw := &sseWriter{w: w, rc: http.NewResponseController(w)}
	if err := sw.rc.Flush(); err != nil {
		sw.failed = true
	}
	return sw
}

// sseWriter writes server-sent events and flushes each one. Once a write
// fails (the client went away) it writes nothing more.
type sseWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	failed bool
}

func (s *sseWriter) sendEvent(e event.Event) {
	s.send(string(e.Type), fmt.Sprint(e.Seq), e)
}

// comment writes an SSE comment, which clients ignore: a keep-alive.
func (s *sseWriter) comment(text string) {
	if s.failed {
		return
	}
	if _, err := s.w.Write([]byte(": " + text + "\n\n")); err != nil {
		s.failed = true
		return
	}
	if err := s.rc.Flush(); err != nil {
		s.failed = true
	}
}

func (s *sseWriter) send(name, id string, v any) {
	if s.failed {
		return
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		data.Reset()
		data.WriteString(`{"error":{"kind":"internal","message":"cannot encode the event"}}`)
	}
	var b strings.Builder
	b.WriteString("event: " + name + "\n")
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	b.WriteString("data: ")
	b.Write(bytes.TrimRight(data.Bytes(), "\n"))
	b.WriteString("\n\n")
	if _, err := s.w.Write([]byte(b.String())); err != nil {
		s.failed = true
		return
	}
	if err := s.rc.Flush(); err != nil {
		s.failed = true
	}
}
