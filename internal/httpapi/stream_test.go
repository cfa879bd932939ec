package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
)

// streamOf GETs a run's stream with the headers given and reads it whole.
func (s *testServer) streamOf(t *testing.T, path string, header ...string) (*http.Response, []sseEvent) {
	t.Helper()
	req, err := http.NewRequest("GET", s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return res, nil
	}
	return res, readSSE(t, res.Body)
}

// seqs returns the IDs of the logged events of a stream (all but session
// and done), which are their sequence numbers.
func seqs(t *testing.T, evs []sseEvent) []string {
	t.Helper()
	var out []string
	for _, e := range evs {
		if e.name == "session" || e.name == "done" {
			continue
		}
		var ev event.Event
		if err := json.Unmarshal(e.data, &ev); err != nil {
			t.Fatal(err)
		}
		if e.id != fmt.Sprint(ev.Seq) {
			t.Fatalf("event %s has id %q but seq %d", e.name, e.id, ev.Seq)
		}
		out = append(out, e.id)
	}
	return out
}

func TestStreamOfAnotherPersonsRunIsNotFound(t *testing.T) {
	tm := newTeam(t)
	runID, _ := tm.run(t, "bob")
	for _, who := range []string{"dan", "vic", "carol"} {
		res, _ := tm.streamOf(t, "/api/runs/"+runID+"/stream", bearer(tm.tokens[who])...)
		if res.StatusCode != 404 {
			t.Errorf("%s streams bob's run: %d, want 404", who, res.StatusCode)
		}
	}
	if res, _ := tm.streamOf(t, "/api/runs/"+runID+"/stream"); res.StatusCode != 401 {
		t.Errorf("nobody streams bob's run: %d, want 401", res.StatusCode)
	}
	res, evs := tm.streamOf(t, "/api/runs/"+runID+"/stream", bearer(tm.tokens["bob"])...)
	if res.StatusCode != 200 || doneOf(t, evs).Status != "succeeded" {
		t.Fatalf("bob streams his run: %d %v", res.StatusCode, names(evs))
	}
}

func TestStreamResumesAfterASeq(t *testing.T) {
	s := serve(t, newShop(t), options{})
	chat := s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`)
	all := seqs(t, chat) // the chat's events carry their seq as their id
	d := doneOf(t, chat)
	if len(all) < 5 || d.Status != "succeeded" {
		t.Fatalf("chat: %v %+v", all, d)
	}
	path := "/api/runs/" + d.RunID + "/stream"
	for _, tt := range []struct {
		name   string
		query  string
		header []string
		want   []string
	}{
		{"from the start", "", nil, all},
		{"after 3", "?after=3", nil, all[3:]},
		{"Last-Event-ID 3", "", []string{"Last-Event-ID", "3"}, all[3:]},
		{"?after wins over Last-Event-ID", "?after=4", []string{"Last-Event-ID", "1"}, all[4:]},
		{"after the last", "?after=" + all[len(all)-1], nil, nil},
		{"after more than the log holds", "?after=999", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, evs := s.streamOf(t, path+tt.query, tt.header...)
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			if diff := cmp.Diff(tt.want, seqs(t, evs)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			got := doneOf(t, evs)
			if got.RunID != d.RunID || got.SessionID != d.SessionID || got.Status != "succeeded" || got.Answer == nil ||
				got.Answer.SQL != d.Answer.SQL || got.Answer.RowCount != d.Answer.RowCount || got.Answer.ResultID != d.Answer.ResultID {
				t.Errorf("done %+v, the chat's %+v", got, d)
			}
		})
	}
	for _, bad := range []string{"?after=-1", "?after=x"} {
		res, b := s.do(t, "GET", path+bad, "")
		if res.StatusCode != 400 {
			t.Errorf("%s: %d %s", bad, res.StatusCode, b)
		}
	}
	if res, _ := s.do(t, "GET", "/api/runs/r_nothing/stream", ""); res.StatusCode != 404 {
		t.Errorf("an unknown run: %d", res.StatusCode)
	}
}

// TestStreamTailsARunRecordedElsewhere streams a run whose events another
// process appends to the state while the stream is open.
func TestStreamTailsARunRecordedElsewhere(t *testing.T) {
	s := serve(t, newShop(t), options{})
	ctx := context.Background()
	at := time.Now()
	rec := event.NewRecorder("r_elsewhere", func() time.Time { return at }, s.st)
	if err := rec.Emit(ctx, &event.RunStartedData{Kind: "ask", Question: "revenue", SessionID: "s_1"}); err != nil {
		t.Fatal(err)
	}
	type result struct {
		evs []sseEvent
		err error
	}
	got := make(chan result, 1)
	go func() {
		res, err := http.Get(s.base + "/api/runs/r_elsewhere/stream?after=0")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer res.Body.Close()
		got <- result{evs: readSSE(t, res.Body)}
	}()
	time.Sleep(100 * time.Millisecond)
	for _, p := range []event.Payload{
		&event.QuestionParsedData{Understood: []string{"revenue"}},
		&event.RunFinishedData{Status: event.StatusFailed, Error: "the server running it stopped; ask again", Kind: "connection"},
	} {
		time.Sleep(50 * time.Millisecond)
		if err := rec.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if diff := cmp.Diff([]string{"1", "2", "3"}, seqs(t, r.evs)); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		d := doneOf(t, r.evs)
		if d.Status != "failed" || d.SessionID != "s_1" || d.Error == nil || !strings.Contains(d.Error.Message, "stopped") {
			t.Errorf("done: %+v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end after run.finished")
	}
}

// TestStreamFollowsARunWaitingForApproval: a run whose statement waits
// for a person's approval has not ended; its stream goes on to the
// decision and the end.
func TestStreamFollowsARunWaitingForApproval(t *testing.T) {
	s := serve(t, newShop(t), options{})
	ctx := context.Background()
	at := time.Now()
	rec := event.NewRecorder("r_waits", func() time.Time { return at }, s.st)
	for _, p := range []event.Payload{
		&event.RunStartedData{Kind: "ask", Question: "revenue", SessionID: "s_1"},
		&event.ApprovalRequestedData{Statement: "s1", SQL: "SELECT 1", Guard: event.GuardCheckedData{Allowed: true}},
	} {
		if err := rec.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan []sseEvent, 1)
	go func() {
		res, err := http.Get(s.base + "/api/runs/r_waits/stream")
		if err != nil {
			t.Error(err)
			got <- nil
			return
		}
		defer res.Body.Close()
		got <- readSSE(t, res.Body)
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case evs := <-got:
		t.Fatalf("the stream ended while the statement waited: %v", seqs(t, evs))
	default:
	}
	for _, p := range []event.Payload{
		&event.ApprovalDecidedData{Statement: "s1", Approved: false, By: "ann", Reason: "not now"},
		&event.RunFinishedData{Status: event.StatusRejected, Error: "refused", Kind: "rejected"},
	} {
		if err := rec.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case evs := <-got:
		if diff := cmp.Diff([]string{"1", "2", "3", "4"}, seqs(t, evs)); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if d := doneOf(t, evs); d.Status != event.StatusRejected {
			t.Errorf("done: %+v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end after run.finished")
	}
}

func TestDrainRefusesNewRunsAndGoesUnready(t *testing.T) {
	var stateDown atomic.Bool
	s := serve(t, newShop(t), options{ready: func(context.Context) error {
		if stateDown.Load() {
			return errors.New("state unreachable")
		}
		return nil
	}})
	probe := func(path string, header ...string) (int, string) {
		res, b := s.do(t, "GET", path, "", header...)
		return res.StatusCode, string(b)
	}
	if code, body := probe("/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("healthz: %d %q", code, body)
	}
	if code, body := probe("/readyz", "Host", "10.1.2.3:80"); code != 200 || body != "ok\n" {
		t.Fatalf("readyz from a load balancer: %d %q", code, body)
	}
	stateDown.Store(true)
	if code, body := probe("/readyz"); code != 503 || body != "unready\n" {
		t.Fatalf("readyz with the state down: %d %q", code, body)
	}
	stateDown.Store(false)
	d := doneOf(t, s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`))

	s.srv.Drain()
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/chat", `{"message":"revenue"}`},
		{"POST", "/ask", `{"question":"revenue"}`},
		{"POST", "/api/run", `{"sql":"SELECT 1"}`},
	} {
		res, b := s.do(t, r.method, r.path, r.body)
		if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" || !strings.Contains(errorOf(t, b).Message, "shutting down") {
			t.Errorf("%s %s while draining: %d %s", r.method, r.path, res.StatusCode, b)
		}
	}
	if code, body := probe("/readyz"); code != 503 || body != "draining\n" {
		t.Errorf("readyz while draining: %d %q", code, body)
	}
	if code, _ := probe("/healthz"); code != 200 {
		t.Errorf("healthz while draining: %d", code)
	}
	// Reads and streams of runs go on.
	if res, evs := s.streamOf(t, "/api/runs/"+d.RunID+"/stream"); res.StatusCode != 200 || doneOf(t, evs).Status != "succeeded" {
		t.Errorf("stream while draining: %d", res.StatusCode)
	}
}

func TestProbesNeedNoSignInAndSayOneWord(t *testing.T) {
	tm := newTeam(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		res, b := tm.do(t, "GET", p, "")
		if res.StatusCode != 200 || string(b) != "ok\n" {
			t.Errorf("%s without sign-in: %d %q", p, res.StatusCode, b)
		}
		if res, _ := tm.do(t, "POST", p, ""); res.StatusCode != 405 {
			t.Errorf("POST %s: %d", p, res.StatusCode)
		}
	}
}

// TestPublicURLIsAnsweredBehindAProxy: a TLS-terminating proxy passes the
// public host on; the server answers it, same-origin requests from it
// included, and still refuses every other name.
func TestPublicURLIsAnsweredBehindAProxy(t *testing.T) {
	s := serve(t, newShop(t), options{publicURL: "https://quarry.example.com"})
	if res, b := s.do(t, "GET", "/api/runs", "", "Host", "quarry.example.com"); res.StatusCode != 200 {
		t.Errorf("the public host: %d %s", res.StatusCode, b)
	}
	res, b := s.do(t, "POST", "/ask", `{"question":"revenue by country"}`, "Host", "quarry.example.com",
		"Origin", "https://quarry.example.com", "Sec-Fetch-Site", "same-origin")
	if res.StatusCode != 200 {
		t.Errorf("a same-origin POST through the proxy: %d %s", res.StatusCode, b)
	}
	if res, _ := s.do(t, "GET", "/api/runs", "", "Host", "evil.example.com"); res.StatusCode != 403 {
		t.Errorf("another host: %d", res.StatusCode)
	}
	res, _ = s.do(t, "POST", "/ask", `{"question":"revenue"}`, "Host", "quarry.example.com",
		"Origin", "https://evil.example.com", "Sec-Fetch-Site", "cross-site")
	if res.StatusCode != 403 {
		t.Errorf("a cross-site POST through the proxy: %d", res.StatusCode)
	}
}
