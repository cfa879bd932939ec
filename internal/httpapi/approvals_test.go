package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/store"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// teamAround is sign-in as quarry serve sets it: the gate, the scoped
// store, and auth's rule of who may approve.
func teamAround(st *sqlitestate.Store) (Store, func(http.Handler) http.Handler) {
	g := &auth.Gate{People: st, Clock: time.Now, Rand: rand.Reader, Connection: "shop"}
	return auth.Scope(st), g.Wrap
}

func mayApproveByRole(ctx context.Context) (bool, string) {
	p, ok := auth.From(ctx)
	if !ok {
		return true, ""
	}
	return p.MayApprove()
}

// chatAs asks a question as the person with token secret ("" for none)
// in the background and returns the stream's events once it ends.
func (s *testServer) chatAs(t *testing.T, secret, question string) <-chan []sseEvent {
	t.Helper()
	out := make(chan []sseEvent, 1)
	req, err := http.NewRequest("POST", s.base+"/api/chat", strings.NewReader(`{"message":"`+question+`","as_of":"`+asOf+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- nil
			return
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			b, _ := io.ReadAll(res.Body)
			t.Errorf("chat: %d %s", res.StatusCode, b)
			out <- nil
			return
		}
		out <- readSSE(t, res.Body)
	}()
	return out
}

// pending polls GET /api/approvals as a person until n statements wait.
func (s *testServer) pending(t *testing.T, n int, header ...string) []approvalJSON {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, b := s.do(t, "GET", "/api/approvals", "", header...)
		if res.StatusCode != 200 {
			t.Fatalf("GET /api/approvals: %d %s", res.StatusCode, b)
		}
		var got []approvalJSON
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) == n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d statements wait, want %d: %s", len(got), n, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestApprovalRoutesRefuseWhoMayNot: a statement a model proposed waits;
// a viewer, the analyst who asked and an analyst who did not cannot
// decide it; a wrong statement id and another run's id are not found; an
// admin's approval made through a second server on the same state (another
// replica) reaches the waiting run; a second decision is refused.
func TestApprovalRoutesRefuseWhoMayNot(t *testing.T) {
	const sql = "SELECT count(*) AS orders FROM orders"
	_, gw := fakeModel(
		llmtest.Reply(llmtest.ToolCall("t1", "run_query", `{"sql":"`+sql+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t2", "submit_answer", `{"answer":"There are 50,000 orders.","sql":"`+sql+`"}`)),
	)
	tm := &team{tokens: map[string]string{}}
	sh := newShop(t)
	tm.testServer = serve(t, sh, options{around: teamAround, approval: gw, mayApprove: mayApproveByRole})
	for _, u := range [][2]string{{"ann", "admin"}, {"bob", "analyst"}, {"dan", "analyst"}, {"vic", "viewer"}} {
		if err := tm.st.AddUser(t.Context(), storeUser(u[0], u[1])); err != nil {
			t.Fatal(err)
		}
		tm.tokens[u[0]] = tm.newToken(t, u[0])
	}
	other, _ := tm.run(t, "ann") // a finished run of someone else
	stream := tm.chatAs(t, tm.tokens["bob"], "how many orders are there?")

	waiting := tm.pending(t, 1, bearer(tm.tokens["ann"])...)
	w := waiting[0]
	if w.SQL != sql || w.AskedBy != "bob" || w.Question != "how many orders are there?" || !w.Guard.Allowed || !w.MayDecide || w.Statement != "s1" || w.Deadline.IsZero() {
		t.Fatalf("the admin sees %+v", w)
	}
	if mine := tm.pending(t, 1, bearer(tm.tokens["bob"])...); mine[0].MayDecide {
		t.Errorf("the asker is offered the decision: %+v", mine[0])
	}
	tm.pending(t, 0, bearer(tm.tokens["dan"])...) // someone else's run is not shown
	var st event.RunState
	if res, b := tm.do(t, "GET", "/api/runs/"+w.RunID, "", bearer(tm.tokens["ann"])...); res.StatusCode != 200 || json.Unmarshal(b, &st) != nil || st.Status != event.StatusAwaitingApproval {
		t.Fatalf("the waiting run: %d %s", res.StatusCode, b)
	}

	body := `{"statement":"s1"}`
	for _, who := range []string{"vic", "bob", "dan"} {
		res, b := tm.do(t, "POST", "/api/runs/"+w.RunID+"/approve", body, bearer(tm.tokens[who])...)
		wantError(t, res, b, http.StatusForbidden, "forbidden")
	}
	res, b := tm.do(t, "POST", "/api/runs/"+w.RunID+"/refuse", body, bearer(tm.tokens["bob"])...)
	wantError(t, res, b, http.StatusForbidden, "forbidden")
	res, b = tm.do(t, "POST", "/api/runs/"+w.RunID+"/approve", `{"statement":"s2"}`, bearer(tm.tokens["ann"])...)
	wantError(t, res, b, http.StatusNotFound, "not_found")
	res, b = tm.do(t, "POST", "/api/runs/"+other+"/approve", body, bearer(tm.tokens["ann"])...)
	wantError(t, res, b, http.StatusNotFound, "not_found")
	res, b = tm.do(t, "POST", "/api/runs/"+w.RunID+"/approve", body, "Origin", "https://evil.example", "Authorization", "Bearer "+tm.tokens["ann"])
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-origin approval: %d %s", res.StatusCode, b)
	}

	// The decision, made on another replica sharing the state database.
	replica := serve(t, sh, options{around: teamAround, mayApprove: mayApproveByRole})
	res, b = replica.do(t, "POST", "/api/runs/"+w.RunID+"/approve", `{"statement":"s1","reason":"fine"}`, bearer(tm.tokens["ann"])...)
	if res.StatusCode != 200 {
		t.Fatalf("approve through the replica: %d %s", res.StatusCode, b)
	}
	evs := <-stream
	d := doneOf(t, evs)
	if d.Status != event.StatusSucceeded || d.Error != nil {
		t.Fatalf("done = %+v, error %+v", d, d.Error)
	}
	if !contains(names(evs), string(event.ApprovalRequested)) || !contains(names(evs), string(event.QueryExecuted)) {
		t.Errorf("the stream: %v", names(evs))
	}
	for _, path := range []string{"/approve", "/refuse"} {
		res, b = tm.do(t, "POST", "/api/runs/"+w.RunID+path, body, bearer(tm.tokens["ann"])...)
		wantError(t, res, b, http.StatusConflict, "conflict")
	}
	if err := json.Unmarshal(mustGet(t, tm, "/api/runs/"+w.RunID, tm.tokens["bob"]), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Approvals) != 1 || st.Approvals[0].Decided == nil || !st.Approvals[0].Decided.Approved || st.Approvals[0].Decided.By != "ann" || st.Approvals[0].Decided.Reason != "fine" {
		t.Errorf("the run's approvals: %+v", st.Approvals)
	}
	tm.pending(t, 0, bearer(tm.tokens["ann"])...)
}

// TestRefusedStatementNeverRuns: on a project nobody signs in to, the
// local user decides their own statements; a refused one never reaches
// the database (it would fail there, visibly) and the model is told why;
// the next, approved, runs.
func TestRefusedStatementNeverRuns(t *testing.T) {
	const boom = "SELECT abs(-9223372036854775807 - 1) AS boom FROM orders"
	const good = "SELECT count(*) AS orders FROM orders"
	fake, gw := fakeModel(
		llmtest.Reply(llmtest.ToolCall("t1", "run_query", `{"sql":"`+boom+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t2", "run_query", `{"sql":"`+good+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t3", "submit_answer", `{"answer":"There are 50,000 orders.","sql":"`+good+`"}`)),
	)
	s := serve(t, newShop(t), options{approval: gw})
	stream := s.chatAs(t, "", "how many orders are there?")
	w := s.pending(t, 1)[0]
	if w.SQL != boom || !w.MayDecide || w.AskedBy != "" {
		t.Fatalf("waiting: %+v", w)
	}
	res, b := s.do(t, "POST", "/api/runs/"+w.RunID+"/refuse", `{"statement":"s1","reason":"no such figure"}`)
	if res.StatusCode != 200 {
		t.Fatalf("refuse: %d %s", res.StatusCode, b)
	}
	w2 := s.pending(t, 1)[0]
	if w2.SQL != good || w2.Statement != "s2" {
		t.Fatalf("the second statement: %+v", w2)
	}
	if res, b := s.do(t, "POST", "/api/runs/"+w.RunID+"/approve", `{"statement":"s2"}`); res.StatusCode != 200 {
		t.Fatalf("approve: %d %s", res.StatusCode, b)
	}
	streamed := <-stream
	d := doneOf(t, streamed)
	if d.Status != event.StatusSucceeded {
		t.Fatalf("done = %+v, error %+v", d, d.Error)
	}
	// The decisions, recorded by another writer, are in the chat's stream
	// too: every sequence number once, in order.
	got := seqs(t, streamed)
	for i, sq := range got {
		if sq != strconv.Itoa(i+1) {
			t.Errorf("the chat streamed %v; want every event in order", got)
			break
		}
	}
	decisions := 0
	for _, e := range streamed {
		if e.name == string(event.ApprovalDecided) {
			decisions++
		}
	}
	if decisions != 2 {
		t.Errorf("the chat streamed %d decisions, want 2", decisions)
	}
	evs, err := s.st.Events(t.Context(), w.RunID)
	if err != nil {
		t.Fatal(err)
	}
	executed, failed := 0, 0
	for _, e := range evs {
		switch e.Type {
		case event.QueryExecuted:
			executed++
		case event.QueryFailed:
			failed++
		}
	}
	if executed != 1 || failed != 0 {
		t.Errorf("%d queries executed and %d failed; the refused one must never run", executed, failed)
	}
	if len(fake.Find("the statement was refused by local user: no such figure; nothing ran")) == 0 {
		t.Error("the model was not told why its statement was refused")
	}
}

func storeUser(name, role string) store.User {
	return store.User{Name: name, Role: role, CreatedAt: time.Now()}
}

func mustGet(t *testing.T, tm *team, path, secret string) []byte {
	t.Helper()
	res, b := tm.do(t, "GET", path, "", bearer(secret)...)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	return b
}

// TestApprovalsLeaveOutDeadWaits: a statement whose wait passed its
// deadline without a decision (its process died waiting) is not listed,
// and cannot be decided.
func TestApprovalsLeaveOutDeadWaits(t *testing.T) {
	s := serve(t, newShop(t), options{})
	past := time.Now().Add(-time.Hour)
	rec := event.NewRecorder("r_dead", func() time.Time { return past }, s.st)
	for _, p := range []event.Payload{
		&event.RunStartedData{Kind: "ask", Question: "how many orders?"},
		&event.ApprovalRequestedData{Statement: "s1", SQL: "SELECT 1", Deadline: past.Add(time.Minute)},
	} {
		if err := rec.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	s.pending(t, 0)
	res, b := s.do(t, "POST", "/api/runs/r_dead/approve", `{"statement":"s1"}`)
	wantError(t, res, b, http.StatusConflict, "conflict")
}
