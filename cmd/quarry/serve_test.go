package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

func TestServeRefusesARemoteAddressWithoutAllowRemote(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "serve", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "sign-in") || !strings.Contains(r.stderr, "--allow-remote") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	oneLineError(t, r)
}

func TestServeAnswersOnTheCLIRuntimeAndStops(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: %d %s", r.code, r.stderr)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exited := make(chan result, 1)
	go func() { exited <- quarryCtx(t, ctx, "", "-C", dir, "serve", "--addr", addr) }()
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(base + "/api/health")
		if err == nil {
			res.Body.Close()
			break
		}
		select {
		case r := <-exited:
			t.Fatalf("serve exited: %d %s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("serve did not answer within 30s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	post := func(path, body string) (int, string) {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := post("/api/run", `{"sql":"SELECT name FROM customers ORDER BY id"}`)
	var run struct {
		RowCount int    `json:"row_count"`
		RunID    string `json:"run_id"`
	}
	json.Unmarshal([]byte(body), &run)
	if code != 200 || run.RowCount != 3 {
		t.Fatalf("run: %d %s", code, body)
	}
	code, body = post("/api/chat", `{"message":"how many orders"}`)
	if code != 200 || !strings.HasPrefix(body, "event: session\n") || !strings.Contains(body, "event: done\n") {
		t.Fatalf("chat: %d %s", code, body)
	}
	// The server's runs are the CLI's runs.
	if r := quarryCmd(t, "", "-C", dir, "runs", "show", run.RunID); r.code != 0 {
		t.Fatalf("runs show %s: %d %s", run.RunID, r.code, r.stderr)
	}
	cancel()
	select {
	case r := <-exited:
		if r.code != 0 || !strings.Contains(r.stderr, "serving on http://"+addr) {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("serve did not stop after the interrupt")
	}
}

// TestServeAsksTheModel: with a model configured, the chat and POST /ask
// answer through the agent as quarry ask does, and a chat follow-up
// carries the session's earlier question to the model.
func TestServeAsksTheModel(t *testing.T) {
	dir := project(t)
	var script []llmtest.Answer
	for range 3 {
		script = append(script, answers()...)
	}
	srv := llmtest.NewAnthropicServer(t, "sk-test", script...)
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	base := serveForTest(t, dir, env)
	post := func(path, body string) string {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, res.StatusCode, b)
		}
		return string(b)
	}
	var ask struct {
		Query  string `json:"query"`
		Answer string `json:"answer"`
	}
	json.Unmarshal([]byte(post("/ask", `{"question":"how many customers per country?"}`)), &ask)
	if ask.Query != byCountry || !strings.Contains(ask.Answer, "Each country") {
		t.Fatalf("POST /ask with a model: %+v", ask)
	}
	first := post("/api/chat", `{"message":"customers per country, please"}`)
	var sess sessionStart
	json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(strings.SplitN(first, "\n", 3)[1], "data:"))), &sess)
	if sess.SessionID == "" || !strings.Contains(first, "Each country") {
		t.Fatalf("chat with a model: %s", first)
	}
	reqs := srv.Requests()
	n := len(reqs)
	if n != 4 {
		t.Fatalf("%d model calls after two questions, want 4", n)
	}
	// The follow-up goes to the model with the first question as context.
	if second := post("/api/chat", `{"message":"and in Germany?","session_id":"`+sess.SessionID+`"}`); !strings.Contains(second, "Each country") {
		t.Errorf("the follow-up was not answered: %s", second)
	}
	reqs = srv.Requests()
	if len(reqs) <= n || !strings.Contains(string(reqs[n].Body), "customers per country, please") {
		t.Errorf("the follow-up's model request lacks the session's earlier question")
	}
}

type sessionStart struct {
	SessionID string `json:"session_id"`
}

// serveForTest runs quarry serve on dir in process until the test ends and
// returns its base URL.
func serveForTest(t *testing.T, dir string, env map[string]string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	exited := make(chan int, 1)
	var errb strings.Builder
	go func() {
		var out strings.Builder
		exited <- run(ctx, []string{"-C", dir, "serve", "--addr", addr}, strings.NewReader(""), &out, &errb, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-exited:
		case <-time.After(40 * time.Second):
			t.Error("serve did not stop after the interrupt")
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, err := http.Get(base + "/api/health"); err == nil {
			res.Body.Close()
			return base
		}
		select {
		case code := <-exited:
			t.Fatalf("serve exited %d", code)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("serve did not answer within 30s")
		}
	}
}

// TestResultCSVIsTheSameEverywhere: a result downloaded as CSV from the
// server has the same bytes as `quarry run --format csv` writes for the
// same query — blobs, quoting, NULLs and numbers alike.
func TestResultCSVIsTheSameEverywhere(t *testing.T) {
	dir := project(t)
	const q = `SELECT x'00ff10' AS blob, 'a,b "c"' AS text, 1.5 AS num, NULL AS empty, ' lead' AS space`
	cli := quarryEnv(t, nil, "", "-C", dir, "run", "--format", "csv", q)
	if cli.code != 0 {
		t.Fatalf("run: exit %d: %s", cli.code, cli.stderr)
	}
	base := serveForTest(t, dir, nil)
	body, _ := json.Marshal(map[string]string{"sql": q})
	res, err := http.Post(base+"/api/run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		ResultID string `json:"result_id"`
	}
	err = json.NewDecoder(res.Body).Decode(&run)
	res.Body.Close()
	if err != nil || run.ResultID == "" {
		t.Fatalf("run: %v %+v", err, run)
	}
	res, err = http.Get(base + "/api/results/" + run.ResultID + "?format=csv")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(got) != cli.stdout {
		t.Errorf("the server's CSV differs from the CLI's:\nserver: %q\ncli:    %q", got, cli.stdout)
	}
}
