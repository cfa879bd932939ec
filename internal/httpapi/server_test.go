package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/store"
)

func TestChatStreamsTheRunAndKeepsTheSession(t *testing.T) {
	s := serve(t, newShop(t), options{})
	evs := s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`)
	got := names(evs)
	want := []string{"session", "run.started", "question.parsed", "plan.made", "question.read", "sql.generated", "guard.checked",
		"query.executed", "checks.ran", "answer.rendered", "run.finished", "done"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("event order (-want +got):\n%s", diff)
	}
	var first sessionEvent
	json.Unmarshal(evs[0].data, &first)
	for i, e := range evs[1 : len(evs)-1] {
		var ev event.Event
		if err := json.Unmarshal(e.data, &ev); err != nil || ev.RunID != first.RunID || string(ev.Type) != e.name || e.id != itoa(i+1) {
			t.Errorf("event %d: id %s, envelope %+v (%v)", i+1, e.id, ev, err)
		}
	}
	d := doneOf(t, evs)
	if d.RunID != first.RunID || d.SessionID != first.SessionID || d.Status != "succeeded" || d.Error != nil {
		t.Fatalf("done = %+v, session event %+v", d, first)
	}
	a := d.Answer
	if a == nil || a.SQL == "" || len(a.Rows) != 3 || a.RowCount != 3 || len(a.Columns) != 2 || a.ResultID == "" ||
		a.Chart == nil || a.Chart.Kind != "bar" || !strings.HasPrefix(a.ChartSVG, "<svg") || !strings.Contains(a.HTML, "<") || len(a.Checks) == 0 {
		t.Fatalf("answer = %+v", a)
	}

	// A second turn in the same session.
	evs2 := s.chat(t, `{"message":"number of orders","session_id":"`+first.SessionID+`","as_of":"`+asOf+`"}`)
	d2 := doneOf(t, evs2)
	if d2.SessionID != first.SessionID || d2.Status != "succeeded" {
		t.Fatalf("second turn: %+v", d2)
	}
	var sessions []store.Session
	s.getJSON(t, "/api/sessions", 200, &sessions)
	if len(sessions) != 1 || sessions[0].Title != "revenue by country" || sessions[0].LastRunID != d2.RunID {
		t.Fatalf("sessions = %+v", sessions)
	}
	var sess struct {
		Session store.Session `json:"session"`
		Turns   []turnJSON    `json:"turns"`
	}
	s.getJSON(t, "/api/sessions/"+first.SessionID, 200, &sess)
	if len(sess.Turns) != 2 || sess.Turns[0].RunID != d.RunID || sess.Turns[0].Question != "revenue by country" ||
		sess.Turns[0].Answer == nil || len(sess.Turns[0].Answer.Rows) != 3 || sess.Turns[0].Answer.ChartSVG == "" || sess.Turns[1].RunID != d2.RunID {
		t.Fatalf("session turns = %+v", sess.Turns)
	}
	// The history shows the table's cells as the answer first wrote them.
	if diff := cmp.Diff(a.Cells, sess.Turns[0].Answer.Cells); diff != "" || len(a.Cells) != 3 {
		t.Fatalf("history cells differ from the answer's (-answer +history):\n%s", diff)
	}

	// A session made to continue a question asked before it (quarry ask
	// --continue) begins with that question.
	if err := s.st.CreateSession(context.Background(), store.Session{ID: "s_cont", FromRunID: d2.RunID, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s.getJSON(t, "/api/sessions/s_cont", 200, &sess)
	if len(sess.Turns) != 1 || sess.Turns[0].RunID != d2.RunID || sess.Turns[0].Question != "number of orders" {
		t.Fatalf("continued session turns = %+v", sess.Turns)
	}

	// The runs and their events.
	var runs []event.RunState
	s.getJSON(t, "/api/runs?limit=10", 200, &runs)
	if len(runs) != 2 || runs[0].RunID != d2.RunID || runs[0].SessionID != first.SessionID {
		t.Fatalf("runs = %+v", runs)
	}
	var st event.RunState
	s.getJSON(t, "/api/runs/"+d.RunID, 200, &st)
	if st.Status != "succeeded" || st.Question != "revenue by country" {
		t.Fatalf("run = %+v", st)
	}
	var log []event.Event
	s.getJSON(t, "/api/runs/"+d.RunID+"/events", 200, &log)
	if len(log) != len(evs)-2 {
		t.Fatalf("%d events stored, %d streamed", len(log), len(evs)-2)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestChatEndsWithDoneAfterARefusalAndAGuardRejection(t *testing.T) {
	sh := newShop(t)
	s := serve(t, sh, options{})
	d := doneOf(t, s.chat(t, `{"message":"delete all orders from Germany"}`))
	if d.Status == "succeeded" || d.Error == nil || d.Answer != nil {
		t.Fatalf("a request to change data: done = %+v", d)
	}
	s.close()

	no := analyst.GuardFunc(func(ctx context.Context, sql string) sqlguard.Verdict {
		return sqlguard.Verdict{Violations: []sqlguard.Violation{{Code: "test", Message: "refused by the test"}}}
	})
	s = serve(t, sh, options{guard: no})
	evs := s.chat(t, `{"message":"revenue by country"}`)
	d = doneOf(t, evs)
	if evs[0].name != "session" || d.Status != "rejected" || d.Error == nil || d.Error.Kind != "rejected" {
		t.Fatalf("a guard rejection: %v, done = %+v", names(evs), d)
	}
	if strings.Contains(strings.Join(names(evs), " "), "query.executed") {
		t.Fatal("a rejected statement ran")
	}
}

func TestAskContract(t *testing.T) {
	s := serve(t, newShop(t), options{})
	res, b := s.do(t, "POST", "/ask", `{"question":"revenue by day in 2025"}`)
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, b)
	}
	var got struct {
		Success bool   `json:"success"`
		Answer  string `json:"answer"`
		Query   string `json:"query"`
		Data    struct {
			Rows          []map[string]any `json:"rows"`
			RowCount      int              `json:"rowCount"`
			ExecutionTime string           `json:"executionTime"`
		} `json:"data"`
		Trace    []map[string]any `json:"trace"`
		Warnings []string         `json:"warnings"`
		RunID    string           `json:"run_id"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Success || got.Answer == "" || !strings.Contains(got.Query, "SELECT") || got.RunID == "" ||
		len(got.Data.Rows) != 100 || got.Data.RowCount <= 100 || !strings.HasSuffix(got.Data.ExecutionTime, "ms") {
		t.Fatalf("ask = %+v", got)
	}
	if len(got.Data.Rows[0]) != 2 {
		t.Errorf("a row is not an object of its columns: %v", got.Data.Rows[0])
	}
	var steps []string
	for _, st := range got.Trace {
		steps = append(steps, st["step"].(string))
	}
	if diff := cmp.Diff([]string{"schema_extraction", "interpretation", "query_generation", "safety_check", "policy", "execution", "verification", "summarization"}, steps); diff != "" {
		t.Errorf("trace steps (-want +got):\n%s", diff)
	}
	if len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "showing the first 100 of") {
		t.Errorf("warnings = %q", got.Warnings)
	}

	// A refused question: success false, an error, the status of its kind.
	res, b = s.do(t, "POST", "/ask", `{"question":"drop the orders table"}`)
	var refused askResponse
	json.Unmarshal(b, &refused)
	if res.StatusCode != 422 || refused.Success || refused.Error == nil || refused.RunID == "" {
		t.Fatalf("refused: %d %s", res.StatusCode, b)
	}
}

func TestRunAndTheFullResult(t *testing.T) {
	sh := newShop(t)
	s := serve(t, sh, options{})
	res, b := s.do(t, "POST", "/api/run", `{"sql":"SELECT id, amount, status FROM orders ORDER BY id"}`)
	var run runResponse
	if err := json.Unmarshal(b, &run); err != nil || res.StatusCode != 200 {
		t.Fatalf("run: %d %s", res.StatusCode, b)
	}
	if run.Status != "succeeded" || run.RowCount != 50000 || len(run.Rows) != 100 || run.ResultID == "" || run.Guard == nil || !run.Guard.Allowed || len(run.Columns) != 3 {
		t.Fatalf("run = %+v", run)
	}
	checkFull := func(s *testServer) {
		var full struct {
			Columns  []columnJSON `json:"columns"`
			Rows     [][]any      `json:"rows"`
			RowCount int          `json:"row_count"`
		}
		s.getJSON(t, "/api/results/"+run.ResultID+"?format=json", 200, &full)
		if len(full.Rows) != 50000 || full.RowCount != 50000 || full.Rows[49999][0].(float64) != 50000 || len(full.Columns) != 3 {
			t.Fatalf("json result: %d rows, row_count %d", len(full.Rows), full.RowCount)
		}
		res, b := s.do(t, "GET", "/api/results/"+run.ResultID+"?format=csv", "")
		recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil || res.StatusCode != 200 || len(recs) != 50001 || strings.Join(recs[0], ",") != "id,amount,status" || recs[50000][0] != "50000" {
			t.Fatalf("csv result: %d, %d records, %v", res.StatusCode, len(recs), err)
		}
		if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") {
			t.Errorf("Content-Disposition = %q", cd)
		}
	}
	checkFull(s)

	// After a restart, on the same state database.
	s.close()
	s = serve(t, sh, options{})
	checkFull(s)

	// A small result comes from the store as it is.
	_, b = s.do(t, "POST", "/api/run", `{"sql":"SELECT country, count(*) AS n FROM orders GROUP BY country ORDER BY country"}`)
	json.Unmarshal(b, &run)
	var small struct {
		Rows [][]any `json:"rows"`
	}
	s.getJSON(t, "/api/results/"+run.ResultID, 200, &small)
	if diff := cmp.Diff([][]any{{"Finland", 16666.0}, {"Germany", 16667.0}, {"Spain", 16667.0}}, small.Rows); diff != "" {
		t.Errorf("small result (-want +got):\n%s", diff)
	}

	// Unknown IDs and a result whose run is gone.
	for _, p := range []string{"/api/results/res_r_nope", "/api/results/nothing", "/api/runs/r_nope", "/api/runs/r_nope/events", "/api/sessions/s_nope"} {
		res, b := s.do(t, "GET", p, "")
		if res.StatusCode != 404 || errorOf(t, b).Kind != "not_found" {
			t.Errorf("GET %s: %d %s", p, res.StatusCode, b)
		}
	}
	if _, _, err := s.st.SaveResult(context.Background(), "r_gone", &quarry.Table{Columns: []quarry.Column{{Name: "x", Type: quarry.TypeInt}}, Truncated: true}); err != nil {
		t.Fatal(err)
	}
	res, b = s.do(t, "GET", "/api/results/res_r_gone", "")
	if res.StatusCode != 410 || errorOf(t, b).Kind != "expired" {
		t.Errorf("a result whose run is gone: %d %s", res.StatusCode, b)
	}

	// The guard refuses a write: nothing runs.
	res, b = s.do(t, "POST", "/api/run", `{"sql":"DELETE FROM orders"}`)
	var rej runResponse
	json.Unmarshal(b, &rej)
	if res.StatusCode != 422 || rej.Status != "rejected" || rej.Guard == nil || rej.Guard.Allowed || rej.Error == nil || rej.Error.Kind != "rejected" {
		t.Fatalf("DELETE: %d %s", res.StatusCode, b)
	}
}

func TestBadInput(t *testing.T) {
	s := serve(t, newShop(t), options{})
	huge := `{"message":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name, path, body string
		status           int
		says             string
	}{
		{"malformed", "/api/chat", `{"message":`, 400, "ends in the middle"},
		{"not JSON", "/ask", `question=revenue`, 400, "not valid JSON"},
		{"unknown field", "/api/chat", `{"message":"revenue","sesion_id":"x"}`, 400, `"sesion_id"`},
		{"two values", "/api/run", `{"sql":"SELECT 1"} {"sql":"SELECT 2"}`, 400, "more than one"},
		{"wrong type", "/api/feedback", `{"run_id":1,"vote":"up"}`, 400, "run_id"},
		{"empty", "/ask", `{"question":"  "}`, 400, "empty"},
		{"huge", "/api/chat", huge, 413, "limit"},
		{"bad vote", "/api/feedback", `{"run_id":"r","vote":"sideways"}`, 400, "sideways"},
		{"bad date", "/api/chat", `{"message":"revenue","as_of":"yesterday"}`, 400, "YYYY-MM-DD"},
		{"manual mode", "/api/chat", `{"message":"revenue","results":"a,b\n1,2"}`, 501, "manual mode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, b := s.do(t, "POST", c.path, c.body)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, b)
			}
			if e := errorOf(t, b); !strings.Contains(e.Message, c.says) {
				t.Errorf("message %q does not say %q", e.Message, c.says)
			}
		})
	}
	res, b := s.do(t, "GET", "/api/runs?limit=-1", "")
	if res.StatusCode != 400 {
		t.Errorf("limit=-1: %d %s", res.StatusCode, b)
	}
	res, b = s.do(t, "GET", "/api/results/res_x?format=xml", "")
	if res.StatusCode != 400 {
		t.Errorf("format=xml: %d %s", res.StatusCode, b)
	}
}

func TestSafety(t *testing.T) {
	s := serve(t, newShop(t), options{assets: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>quarry</title>")}}})
	port := s.host[strings.LastIndex(s.host, ":"):]
	cases := []struct {
		name, method, path, body string
		header                   []string
		status                   int
	}{
		{"foreign Host", "GET", "/api/health", "", []string{"Host", "evil.example" + port}, 403},
		{"foreign Host on the UI", "GET", "/", "", []string{"Host", "rebind.attacker.test" + port}, 403},
		{"loopback on another port", "GET", "/api/health", "", []string{"Host", "127.0.0.1:1"}, 403},
		{"localhost", "GET", "/api/health", "", []string{"Host", "localhost" + port}, 200},
		{"ipv6 loopback", "GET", "/api/health", "", []string{"Host", "[::1]" + port}, 200},
		{"cross-origin POST", "POST", "/api/run", `{"sql":"SELECT 1"}`, []string{"Origin", "http://evil.example"}, 403},
		{"cross-origin POST /ask", "POST", "/ask", `{"question":"revenue"}`, []string{"Origin", "http://localhost:1"}, 403},
		{"cross-site fetch", "GET", "/api/runs", "", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"same-origin POST", "POST", "/api/run", `{"sql":"SELECT 1 AS one"}`, []string{"Origin", s.base, "Sec-Fetch-Site", "same-origin"}, 200},
		{"the UI", "GET", "/", "", nil, 200},
		{"no route", "GET", "/api/nothing", "", nil, 404},
		{"health", "GET", "/api/health", "", nil, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, b := s.do(t, c.method, c.path, c.body, c.header...)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, b)
			}
			if c.status == 403 && errorOf(t, b).Kind != "forbidden" {
				t.Errorf("body %s", b)
			}
			csp := res.Header.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "connect-src 'self'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %s", csp, want)
				}
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("X-Frame-Options") != "DENY" || res.Header.Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("headers: %v", res.Header)
			}
		})
	}
	var health map[string]any
	s.getJSON(t, "/api/health", 200, &health)
	if diff := cmp.Diff(map[string]any{"ok": true, "version": "test"}, health); diff != "" {
		t.Errorf("health (-want +got):\n%s", diff)
	}
}

func TestStreamCap(t *testing.T) {
	gate := make(chan struct{})
	s := serve(t, newShop(t), options{maxStreams: 1, gate: gate})
	req, _ := http.NewRequest("POST", s.base+"/api/chat", strings.NewReader(`{"message":"revenue by country"}`))
	first, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	res, b := s.do(t, "POST", "/api/chat", `{"message":"revenue"}`)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("over the cap: %d %s", res.StatusCode, b)
	}
	res, _ = s.do(t, "POST", "/ask", `{"question":"revenue"}`)
	if res.StatusCode != 429 {
		t.Fatalf("/ask over the cap: %d", res.StatusCode)
	}
	close(gate)
	if d := doneOf(t, readSSE(t, first.Body)); d.Status != "succeeded" {
		t.Fatalf("the first stream: %+v", d)
	}
	s.srv.Wait(context.Background())
	if res, b := s.do(t, "POST", "/ask", `{"question":"revenue"}`); res.StatusCode != 200 {
		t.Fatalf("after the first run: %d %s", res.StatusCode, b)
	}
}

func TestDisconnectedClientDoesNotStopTheRun(t *testing.T) {
	gate := make(chan struct{})
	s := serve(t, newShop(t), options{gate: gate})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", s.base+"/api/chat", strings.NewReader(`{"message":"revenue by country"}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("chat: %d", res.StatusCode)
	}
	cancel() // the client goes away before the run has begun
	res.Body.Close()
	close(gate)
	s.srv.Wait(context.Background())
	var runs []event.RunState
	s.getJSON(t, "/api/runs", 200, &runs)
	if len(runs) != 1 || runs[0].Status != "succeeded" || runs[0].ResultID == "" || runs[0].SessionID == "" {
		t.Fatalf("runs after the client left: %+v", runs)
	}
}

func TestFeedbackWritesAPendingVerifiedQuery(t *testing.T) {
	s := serve(t, newShop(t), options{})
	d := doneOf(t, s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`))
	res, b := s.do(t, "POST", "/api/feedback", `{"run_id":"`+d.RunID+`","vote":"up","comment":"matches the finance report"}`)
	var fb struct {
		OK          bool   `json:"ok"`
		PendingFile string `json:"pending_file"`
	}
	json.Unmarshal(b, &fb)
	if res.StatusCode != 200 || !fb.OK || fb.PendingFile != "knowledge/examples/_pending/"+d.RunID+".yaml" {
		t.Fatalf("feedback: %d %s", res.StatusCode, b)
	}
	src, err := os.ReadFile(filepath.Join(s.knowledge, "examples", "_pending", d.RunID+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Pending files are not loaded; once a person signs it and moves it to
	// examples/, it loads as a verified query.
	if f, err := knowledge.Load(s.knowledge); err != nil || len(f.Verified) != 0 {
		t.Fatalf("pending loaded as verified: %v %v", f, err)
	}
	signed := strings.Replace(strings.Replace(string(src), `verified_by: ""`, "verified_by: ana", 1), `verified_at: ""`, "verified_at: 2026-01-05", 1)
	if err := os.WriteFile(filepath.Join(s.knowledge, "examples", "revenue.yaml"), []byte(signed), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := knowledge.Load(s.knowledge)
	if err != nil {
		t.Fatalf("the signed file does not load: %v\n%s", err, src)
	}
	if len(f.Verified) != 1 || f.Verified[0].Question != "revenue by country" || f.Verified[0].SQL != strings.TrimSpace(d.Answer.SQL) && f.Verified[0].SQL != d.Answer.SQL+"\n" && f.Verified[0].SQL != d.Answer.SQL {
		t.Fatalf("verified = %+v\nsql %q", f.Verified, d.Answer.SQL)
	}
	if res, b := s.do(t, "POST", "/api/feedback", `{"run_id":"`+d.RunID+`","vote":"down"}`); res.StatusCode != 200 {
		t.Errorf("down: %d %s", res.StatusCode, b)
	}
	if res, _ := s.do(t, "POST", "/api/feedback", `{"run_id":"r_nope","vote":"up"}`); res.StatusCode != 404 {
		t.Errorf("unknown run: %d", res.StatusCode)
	}
}

func TestStatusTable(t *testing.T) {
	want := map[quarry.Kind]int{
		quarry.KindUsage: 400, quarry.KindInput: 400, quarry.KindNotFound: 404, quarry.KindExpired: 410,
		quarry.KindRejected: 422, quarry.KindForbidden: 422, quarry.KindTooCostly: 422, quarry.KindUnanswered: 422,
		quarry.KindConflict: 409, quarry.KindTimeout: 504, quarry.KindConnection: 502, quarry.KindUnsupported: 501,
		quarry.KindCanceled: 499, quarry.KindModel: 502, quarry.KindInternal: 500,
	}
	for k, st := range want {
		if got := Status(k); got != st {
			t.Errorf("Status(%s) = %d, want %d", k, got, st)
		}
	}
}

func TestTheWebUIIsServedFromTheBinary(t *testing.T) {
	s := serve(t, newShop(t), options{assets: Assets()})
	for _, p := range []string{"/", "/assets/app.js", "/assets/app.css", "/assets/workflows.js", "/assets/workflowgraph.js", "/assets/monitors.js", "/assets/signin.js", "/assets/approvals.js"} {
		res, b := s.do(t, "GET", p, "")
		if res.StatusCode != 200 || len(b) == 0 || res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d, %d bytes", p, res.StatusCode, len(b))
		}
	}
	if res, _ := s.do(t, "GET", "/assets/nothing.js", ""); res.StatusCode != 404 {
		t.Errorf("a missing file: %d", res.StatusCode)
	}
	if res, _ := s.do(t, "POST", "/", "{}"); res.StatusCode != 405 {
		t.Errorf("POST /: %d", res.StatusCode)
	}
}

// A follow-up in a chat session is made whole for the builtin planner
// from the session's last question, as `quarry ask --continue` does.
func TestChatFollowUpWithTheBuiltinPlanner(t *testing.T) {
	s := serve(t, newShop(t), options{})
	first := doneOf(t, s.chat(t, `{"message":"number of orders","as_of":"`+asOf+`"}`))
	if first.Status != "succeeded" {
		t.Fatalf("first turn: %+v", first)
	}
	d := doneOf(t, s.chat(t, `{"message":"and by country?","session_id":"`+first.SessionID+`","as_of":"`+asOf+`"}`))
	if d.Status != "succeeded" || d.Answer == nil || d.Answer.RowCount != 3 {
		t.Fatalf("follow-up: %+v", d)
	}
	var st event.RunState
	s.getJSON(t, "/api/runs/"+d.RunID, 200, &st)
	if st.Question != "number of orders by country" {
		t.Errorf("the follow-up was read as %q", st.Question)
	}
}

// TestChatSaysWhenItsFirstEventIsSent: the server's run slots are told of
// a chat stream from its admission until its first event (the session
// event) is sent, once; a request refused before it is admitted is not
// told of.
func TestChatSaysWhenItsFirstEventIsSent(t *testing.T) {
	var mu sync.Mutex
	arrived, sent := 0, 0
	var late []string // runs already finished when their first event was said sent
	counts := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return arrived, sent
	}
	var s *testServer
	s = serve(t, newShop(t), options{arriving: func() func() {
		mu.Lock()
		defer mu.Unlock()
		arrived++
		var once sync.Once
		return func() {
			once.Do(func() {
				runs, err := s.st.Runs(context.Background(), store.RunFilter{})
				mu.Lock()
				defer mu.Unlock()
				sent++
				for _, r := range runs {
					if err != nil || r.Status != "" && r.Status != "running" {
						late = append(late, r.RunID+" "+r.Status)
					}
				}
			})
		}
	}})
	evs := s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`)
	if d := doneOf(t, evs); d.Status != "succeeded" || evs[0].name != "session" {
		t.Fatalf("chat: first event %q, done %+v", evs[0].name, d)
	}
	if a, n := counts(); a != 1 || n != 1 || len(late) > 0 {
		t.Errorf("after a chat: arrived %d, sent %d, runs already over when it was sent %v; want 1, 1 and none", a, n, late)
	}
	if res, body := s.do(t, "POST", "/api/chat", `{"message":""}`); res.StatusCode != 400 {
		t.Fatalf("an empty question: %s %s", res.Status, body)
	}
	if a, n := counts(); a != 1 || n != 1 {
		t.Errorf("after a refused request: arrived %d, sent %d; want 1 and 1", a, n)
	}
}
