package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Timing of GET /api/runs/{id}/stream.
const (
	// streamPoll is how often a stream reads the log again when the
	// server has no Tailer; tailPoll, at the latest, when it has one.
	streamPoll = 250 * time.Millisecond
	tailPoll   = 2 * time.Second
	// keepAlive is how long a stream stays silent before it sends a
	// comment, so that proxies keep it open.
	keepAlive = 15 * time.Second
)

// streamRun streams a run's logged events after a sequence number
// (?after=N, or the Last-Event-ID header a reconnecting EventSource
// sends; 0 for all), each with its sequence number as the event's ID,
// then the events recorded after them as they are stored, by whichever
// replica runs it, and, once the log holds run.finished, a done event of
// the same shape as the chat's, rebuilt from the log. A run someone else
// owns is not found.
func (s *Server) streamRun(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	after, err := afterParam(r)
	if err != nil {
		writeError(w, err)
		return
	}
	evs, err := s.cfg.Store.Events(ctx, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if len(evs) == 0 {
		writeError(w, quarry.Errorf(quarry.KindNotFound, "run %q has no events yet", r.PathValue("id")))
		return
	}
	runID := evs[0].RunID
	wake, stop := s.watch(runID)
	defer stop()
	sse := startSSE(w)
	idle := time.NewTimer(keepAlive)
	defer idle.Stop()
	every := streamPoll
	if s.cfg.Tail != nil {
		every = tailPoll
	}
	poll := time.NewTicker(every)
	defer poll.Stop()
	for {
		// Read again once watching, so that nothing stored between the
		// first read and the watch is missed.
		if evs, err = s.cfg.Store.Events(ctx, runID); err != nil {
			if ctx.Err() == nil {
				e := errorBody(err)
				sse.send("error", "", map[string]any{"error": e})
			}
			return
		}
		for _, e := range evs {
			if e.Seq > after {
				sse.sendEvent(e)
				after = e.Seq
			}
		}
		// A run waiting for a person's approval goes on once someone
		// decides: it is followed, as a running one is.
		st, err := event.Fold(evs)
		if err == nil && st.Status != event.StatusRunning && st.Status != event.StatusAwaitingApproval {
			sse.send("done", "", s.doneOf(ctx, st))
			return
		}
		if sse.failed {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-poll.C:
		case <-idle.C:
			sse.comment("keep-alive")
			idle.Reset(keepAlive)
		}
	}
}

// watch watches runID through the server's Tailer; without one, only the
// stream's own polling wakes it.
func (s *Server) watch(runID string) (<-chan struct{}, func()) {
	if s.cfg.Tail == nil {
		return nil, func() {}
	}
	return s.cfg.Tail.Watch(runID)
}

// afterParam reads where a stream resumes: ?after=N, else Last-Event-ID,
// else 0.
func afterParam(r *http.Request) (int64, error) {
	v, name := r.URL.Query().Get("after"), "after"
	if v == "" {
		v, name = strings.TrimSpace(r.Header.Get("Last-Event-ID")), "Last-Event-ID"
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errf("%s %q is not a sequence number; give the id of the last event received", name, v)
	}
	return n, nil
}

// doneOf is the done event of a finished run, rebuilt from its log and
// stored result: what the chat's done event said, as far as the log
// records it.
func (s *Server) doneOf(ctx context.Context, st event.RunState) doneEvent {
	d := doneEvent{RunID: st.RunID, SessionID: st.SessionID, Status: st.Status, Interpretation: st.Reading,
		Understood: st.Understood, Unknown: st.Unknown}
	switch {
	case st.Status == event.StatusSucceeded:
		var tbl *quarry.Table
		if st.ResultID != "" {
			tbl, _ = s.cfg.Store.Result(ctx, st.ResultID)
		}
		d.Answer = s.rebuiltAnswer(st, tbl)
	case st.Clarification != "":
		d.Status = "clarify"
		d.Clarification = &clarification{Question: st.Clarification}
	case st.Status == event.StatusAwaitingResults:
		d.Proposed = &proposedJSON{SQL: st.ProposedSQL, Columns: []string{}}
	}
	if st.Status != event.StatusSucceeded && st.Error != "" {
		d.Message = strings.Join(strings.Fields(st.Error), " ")
		d.Error = &apiError{Kind: st.ErrorKind, Message: st.Error}
	}
	return d
}
