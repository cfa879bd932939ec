package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// TestApprovalInBrowser: on a connection with approval: required, the
// statement a model proposes shows in the chat with its SQL, what it is
// read as and the guard's verdict, and runs only once the local user (no
// sign-in: they decide their own) approves it in the page.
func TestApprovalInBrowser(t *testing.T) {
	const sql = "SELECT count(*) AS customers FROM customers"
	fake := llmtest.NewAnthropicServer(t, "test-key",
		llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + sql + `"}`)}}},
		llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "t2", Name: "submit_answer", Input: json.RawMessage(`{"answer":"The shop has its customers counted.","sql":"` + sql + `"}`)}}},
	)
	bin, pristine := builtBinary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(pristine)); err != nil {
		t.Fatal(err)
	}
	requireApproval(t, filepath.Join(dir, "quarry.yaml"))
	s := &servedQuarry{bin: bin, dir: dir, log: &bytes.Buffer{},
		env: append(keylessEnv(), "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL="+fake.URL)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.host = l.Addr().String()
	s.base = "http://" + s.host
	l.Close()
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("quarry serve output:\n%s", s.log.String())
		}
	})
	s.start(t)

	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat",
		chromedp.EmulateViewport(1360, 860),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	uiDo(t, ctx, "ask a question the builtin planner does not map",
		chromedp.WaitEnabled(chromedp.CSS("#composer-input")),
		chromedp.SendKeys(chromedp.CSS("#composer-input"), "zorblat flibber customers quux\n"),
	)
	const card = "#turns > .turn:last-child .approval"
	uiWaitFor(t, ctx, "the statement waiting, with the buttons", `document.querySelector("`+card+` .approval-actions button") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector("`+card+` pre").textContent`); got != sql {
		t.Errorf("the card shows the SQL %q", got)
	}
	if got := uiEval[string](t, ctx, `document.querySelector("`+card+`").textContent`); !strings.Contains(got, "Read as:") || !strings.Contains(got, "guard allowed it") {
		t.Errorf("the card reads %q", got)
	}
	if n := uiEval[int](t, ctx, `document.querySelectorAll("#turns > .turn:last-child .data-table").length`); n != 0 {
		t.Fatal("a result is shown before the statement was approved")
	}
	uiShot(t, ctx, "approval")
	uiDo(t, ctx, "approve", chromedp.Click(chromedp.CSS(card+` .btn-primary`)))
	uiWaitFor(t, ctx, "the answer", `document.querySelector("#turns > .turn:last-child .turn-body > article") !== null`)
	uiWaitFor(t, ctx, "the card decided", `document.querySelector("`+card+`.decided") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector("`+card+` .approval-status").textContent`); !strings.Contains(got, "Approved") {
		t.Errorf("the decided card says %q", got)
	}
	if got := uiEval[string](t, ctx, `document.querySelector("#turns > .turn:last-child").dataset.status`); got != "succeeded" {
		t.Errorf("the turn's status is %q", got)
	}
	pageProblems(t, ctx)
}

// requireApproval sets approval: required on the project's connection.
func requireApproval(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, line := range lines {
		if strings.TrimSpace(line) == "driver: sqlite" {
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			lines = append(lines[:i+1], append([]string{indent + "approval: required"}, lines[i+1:]...)...)
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no sqlite connection in %s:\n%s", path, b)
}
