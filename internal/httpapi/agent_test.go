package httpapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// TestChatManualModePastedResults: with no connection, a question gets a
// proposed query and the run waits; a second turn with the pasted result
// (and the session) continues the same run, and the answer says that the
// user ran it.
func TestChatManualModePastedResults(t *testing.T) {
	s := serve(t, newShop(t), options{manual: true})
	d := doneOf(t, s.chat(t, `{"message":"revenue by country","as_of":"`+asOf+`"}`))
	if d.Status != event.StatusAwaitingResults || d.Error != nil || d.Answer != nil {
		t.Fatalf("done = %+v, error %+v", d, d.Error)
	}
	if d.Proposed == nil || !strings.Contains(strings.ToUpper(d.Proposed.SQL), "SELECT") || len(d.Proposed.Columns) != 2 {
		t.Fatalf("proposed = %+v", d.Proposed)
	}
	cols := d.Proposed.Columns

	// /api/run has nothing to run on.
	res, b := s.do(t, "POST", "/api/run", `{"sql":"SELECT 1"}`)
	if res.StatusCode < 400 || errorOf(t, b).Kind != "config" {
		t.Fatalf("/api/run without a connection: %d %s", res.StatusCode, b)
	}

	// Results without a session or run: refused.
	res, b = s.do(t, "POST", "/api/chat", `{"results":"a,b\n1,2\n"}`)
	if res.StatusCode != 400 {
		t.Fatalf("results without a session: %d %s", res.StatusCode, b)
	}

	// The wrong shape is refused and the run still waits.
	bad, _ := json.Marshal(map[string]string{"session_id": d.SessionID, "results": "only\n1\n"})
	d2 := doneOf(t, s.chat(t, string(bad)))
	if d2.Error == nil || d2.Error.Kind != "input" || d2.RunID != d.RunID {
		t.Fatalf("wrong shape: %+v", d2)
	}

	csv := cols[0] + "," + cols[1] + "\nFinland,1000.5\nGermany,2000.25\nSpain,1500\n"
	body, _ := json.Marshal(map[string]string{"session_id": d.SessionID, "results": csv})
	evs := s.chat(t, string(body))
	d3 := doneOf(t, evs)
	if d3.Error != nil || d3.Status != event.StatusSucceeded || d3.RunID != d.RunID || d3.SessionID != d.SessionID {
		t.Fatalf("pasted: %+v error %+v", d3, d3.Error)
	}
	if d3.Answer == nil || !strings.Contains(d3.Answer.Markdown, "run by you") || d3.Answer.RowCount != 3 {
		t.Fatalf("answer = %+v", d3.Answer)
	}
	if !contains(names(evs), string(event.ResultsPasted)) {
		t.Fatalf("no results.pasted event: %v", names(evs))
	}
	var st event.RunState
	s.getJSON(t, "/api/runs/"+d.RunID, 200, &st)
	if st.Status != event.StatusSucceeded {
		t.Fatalf("run status %s", st.Status)
	}

	// Not waiting any more.
	res, b = s.do(t, "POST", "/api/chat", string(body))
	if res.StatusCode != 404 && res.StatusCode != 400 {
		t.Fatalf("second paste: %d %s", res.StatusCode, b)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// runJSON is POST /api/run's answer as a client reads it.
type runJSON struct {
	RunID    string    `json:"run_id"`
	Status   string    `json:"status"`
	RowCount int64     `json:"row_count"`
	FixOf    string    `json:"fix_of"`
	Error    *apiError `json:"error"`
	Fix      *struct {
		Proposed bool   `json:"proposed"`
		SQL      string `json:"sql"`
		Diff     string `json:"diff"`
		Allowed  bool   `json:"allowed"`
		Reason   string `json:"reason"`
		Guard    *struct {
			Allowed bool `json:"allowed"`
		} `json:"guard"`
	} `json:"fix"`
}

func (s *testServer) run(t *testing.T, body string) (int, runJSON) {
	t.Helper()
	res, b := s.do(t, "POST", "/api/run", body)
	var r runJSON
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return res.StatusCode, r
}

func fakeModel(steps ...llmtest.Step) (*llmtest.Provider, agent.Gateway) {
	p := llmtest.NewProvider(steps...)
	return p, llm.New(llm.Config{Provider: p, Name: "fake", Models: llm.ResolveModels("anthropic", "", ""), MaxAttempts: 1})
}

// TestRunFixFlow: SQL the database refuses gets the model's fix (diff,
// fixed SQL, the guard's verdict) without running it; sending the fix back
// with fix_of runs it as a new run, guarded again.
func TestRunFixFlow(t *testing.T) {
	p, gw := fakeModel(llmtest.Reply(llmtest.Text("```sql\nSELECT country, count(*) AS n FROM orders GROUP BY country\n```")))
	s := serve(t, newShop(t), options{model: gw})
	code, r := s.run(t, `{"sql":"SELECT country, count(*) AS n FROM order GROUP BY country"}`)
	if code < 400 || r.Error == nil || r.Fix == nil || !r.Fix.Proposed || !r.Fix.Allowed || r.Fix.Guard == nil || !r.Fix.Guard.Allowed {
		t.Fatalf("%d %+v fix %+v", code, r, r.Fix)
	}
	if !strings.Contains(r.Fix.Diff, "+SELECT country, count(*) AS n FROM orders GROUP BY country") || !strings.Contains(r.Fix.Diff, "-SELECT") {
		t.Fatalf("diff:\n%s", r.Fix.Diff)
	}
	calls := p.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d model calls", len(calls))
	}
	failed := r.RunID
	// Not a proposed fix of that run: refused before anything runs.
	if code, r := s.run(t, `{"sql":"SELECT 1","fix_of":"`+failed+`"}`); code != 400 || r.Error == nil {
		t.Fatalf("foreign fix_of: %d %+v", code, r)
	}
	body, _ := json.Marshal(map[string]string{"sql": r.Fix.SQL, "fix_of": failed})
	code, r2 := s.run(t, string(body))
	if code != 200 || r2.Error != nil || r2.RowCount != 3 || r2.FixOf != failed || r2.RunID == failed || r2.Fix != nil {
		t.Fatalf("fixed run: %d %+v", code, r2)
	}
	var evs []event.Event
	s.getJSON(t, "/api/runs/"+failed+"/events", 200, &evs)
	accepted := false
	for _, e := range evs {
		if e.Type == event.FixProposed {
			var d event.FixProposedData
			_ = json.Unmarshal(e.Data, &d)
			accepted = accepted || d.Accepted
		}
	}
	if !accepted {
		t.Fatalf("the failed run does not record the accepted fix")
	}

	// A fix the guard refuses is shown, not allowed.
	_, gw2 := fakeModel(llmtest.Reply(llmtest.Text("```sql\nDELETE FROM orders\n```")))
	s2 := serve(t, newShop(t), options{model: gw2})
	_, r3 := s2.run(t, `{"sql":"SELECT * FROM nope"}`)
	if r3.Fix == nil || !r3.Fix.Proposed || r3.Fix.Allowed || r3.Fix.Reason == "" {
		t.Fatalf("refused fix: %+v", r3.Fix)
	}
}

// TestRunNoModelNoFix: with no model, a refused statement says that no
// fix is proposed and why.
func TestRunNoModelNoFix(t *testing.T) {
	s := serve(t, newShop(t), options{})
	_, r := s.run(t, `{"sql":"DELETE FROM orders"}`)
	if r.Status != event.StatusRejected || r.Fix == nil || r.Fix.Proposed || !strings.Contains(r.Fix.Reason, "no language model") {
		t.Fatalf("%+v fix %+v", r, r.Fix)
	}
}
