package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestServeAllowRemoteWithTokens runs quarry serve --allow-remote as a real
// process on 127.0.0.1, with people and tokens made by the quarry users
// and quarry tokens commands: it refuses to start with nobody to sign in
// as, then answers only requests with a good token, as the token's person
// and role allow, and no secret ends up in the state database or the log.
func TestServeAllowRemoteWithTokens(t *testing.T) {
	bin, pristine := builtBinary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(pristine)); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := l.Addr().String()
	l.Close()

	r := quarryProc(t, bin, dir, "serve", "--allow-remote", "--addr", host)
	if r.code != quarry.ExitUsage || !strings.Contains(r.stderr, "quarry users add") || !strings.Contains(r.stderr, "--no-auth") {
		t.Fatalf("serve --allow-remote with nobody: exit %d\n%s", r.code, r.stderr)
	}
	oneLineError(t, result{stderr: r.stderr})

	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"users", "add", "ann", "--role", "admin"}, 0},
		{[]string{"users", "add", "vic", "--role", "viewer"}, 0},
		{[]string{"users", "add", "ann", "--role", "viewer"}, quarry.ExitUsage},
		{[]string{"users", "add", "eve", "--role", "owner"}, quarry.ExitUsage},
		{[]string{"users", "add", "eve", "--role", "analyst", "--connection", "nope"}, quarry.ExitUsage},
		{[]string{"users", "set-role", "nobody", "viewer"}, quarry.ExitInput},
		{[]string{"tokens", "create", "--user", "nobody"}, quarry.ExitInput},
		{[]string{"tokens", "revoke", "tok_nope"}, quarry.ExitInput},
	} {
		r := quarryProc(t, bin, dir, c.args...)
		if r.code != c.code {
			t.Errorf("quarry %s: exit %d, want %d\n%s", strings.Join(c.args, " "), r.code, c.code, r.stderr)
		}
		if c.code != 0 {
			oneLineError(t, result{stderr: r.stderr})
		}
	}
	token := func(user string) string {
		r := quarryProc(t, bin, dir, "tokens", "create", "--user", user, "--label", "e2e")
		secret := strings.TrimSpace(r.stdout)
		if r.code != 0 || !strings.HasPrefix(secret, "qry_") || !strings.Contains(r.stderr, "only time it is shown") {
			t.Fatalf("tokens create --user %s: exit %d\n%s\n%s", user, r.code, r.stdout, r.stderr)
		}
		return secret
	}
	ann, vic := token("ann"), token("vic")
	r = quarryProc(t, bin, dir, "tokens", "list", "--json")
	var toks []struct{ ID, User string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &toks) != nil || len(toks) != 2 || strings.Contains(r.stdout, ann) || strings.Contains(r.stdout, "sha256") {
		t.Fatalf("tokens list --json: exit %d\n%s", r.code, r.stdout)
	}

	s := &servedQuarry{base: "http://" + host, host: host, bin: bin, dir: dir, log: &bytes.Buffer{}, args: []string{"--allow-remote"}}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("quarry serve output:\n%s", s.log.String())
		}
	})
	s.start(t)
	call := func(method, path, body, secret string) (int, string) {
		t.Helper()
		return s.call(t, method, path, body, secret)
	}
	const sql = `{"sql":"SELECT count(*) AS n FROM orders"}`
	if code, b := call("POST", "/api/run", sql, ""); code != 401 {
		t.Errorf("POST /api/run without a token: %d %s", code, b)
	}
	if code, b := call("POST", "/api/run", sql, vic); code != 403 || !strings.Contains(b, "viewer") {
		t.Errorf("POST /api/run as a viewer: %d %s", code, b)
	}
	code, b := call("POST", "/api/run", sql, ann)
	var run struct {
		RunID string `json:"run_id"`
	}
	if code != 200 || json.Unmarshal([]byte(b), &run) != nil {
		t.Fatalf("POST /api/run as the admin: %d %s", code, b)
	}
	if code, b := call("GET", "/api/runs/"+run.RunID, "", ann); code != 200 || !strings.Contains(b, `"owner":"ann"`) {
		t.Errorf("the admin's run: %d %s; want it owned by ann", code, b)
	}
	if code, b := call("GET", "/api/runs/"+run.RunID, "", vic); code != 404 {
		t.Errorf("the viewer reads the admin's run: %d %s; want 404", code, b)
	}
	t.Run("the web UI signs in with a token and out", func(t *testing.T) {
		browserSignIn(t, s, ann)
	})
	// Revoking a token works at once, on the running server.
	var annID string
	for _, tk := range toks {
		if tk.User == "ann" {
			annID = tk.ID
		}
	}
	if r := quarryProc(t, bin, dir, "tokens", "revoke", annID); r.code != 0 {
		t.Fatalf("tokens revoke: exit %d\n%s", r.code, r.stderr)
	}
	if code, b := call("GET", "/api/runs", "", ann); code != 401 {
		t.Errorf("a revoked token: %d %s", code, b)
	}
	s.stop()

	var state []byte
	for _, suffix := range []string{"", "-wal"} {
		b, _ := os.ReadFile(filepath.Join(dir, ".quarry", "state.db"+suffix))
		state = append(state, b...)
	}
	if len(state) == 0 {
		t.Fatal("no state database at .quarry/state.db")
	}
	for _, secret := range []string{ann, vic} {
		if bytes.Contains(state, []byte(secret)) || strings.Contains(s.log.String(), secret) {
			t.Errorf("a token's secret is in the state database or the server's log")
		}
	}
}

// browserSignIn: the web UI of a server with sign-in on shows the sign-in
// form, refuses a wrong token, signs in with a good one into a cookie that
// page scripts cannot read, and signs out.
func browserSignIn(t *testing.T, s *servedQuarry, token string) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat", chromedp.Navigate(s.base+"/"))
	uiWaitFor(t, ctx, "the sign-in form", `document.querySelector("#signin-token") !== null`)
	uiDo(t, ctx, "send a wrong token", chromedp.SendKeys(chromedp.CSS("#signin-token"), "qry_wrong"+kb.Enter))
	uiWaitFor(t, ctx, "the refusal", `document.querySelector("#signin-error").textContent.includes("not valid")`)
	uiDo(t, ctx, "send the token",
		chromedp.Clear(chromedp.CSS("#signin-token")),
		chromedp.SendKeys(chromedp.CSS("#signin-token"), token+kb.Enter))
	uiAfterReload(t, ctx, "signed in", `document.querySelector("#signout") !== null && document.querySelector("#signin") === null`)
	if got := uiEval[string](t, ctx, `document.querySelector("#signout").textContent`); !strings.Contains(got, "ann (admin)") {
		t.Errorf("the sign-out button says %q", got)
	}
	if c := uiEval[string](t, ctx, `document.cookie`); c != "" {
		t.Errorf("page scripts can read the cookies %q", c)
	}
	watchPage(t, ctx)
	uiAsk(t, ctx, "number of orders")
	// Share the answer's run with a person, and with someone who is not.
	uiDo(t, ctx, "open sharing", chromedp.Click(chromedp.CSS(".share-toggle")))
	uiWaitFor(t, ctx, "not shared yet", `document.querySelector(".share-status").textContent === "Not shared."`)
	uiDo(t, ctx, "share with nobody", chromedp.SendKeys(chromedp.CSS(".share-with"), "nobody"+kb.Enter))
	uiWaitFor(t, ctx, "the refusal", `document.querySelector(".share-status").textContent.includes("no person")`)
	uiDo(t, ctx, "share with vic and a group",
		chromedp.Evaluate[chromedp.Void](`document.querySelector(".share-with").value = ""`),
		chromedp.SendKeys(chromedp.CSS(".share-with"), "vic, group:Support"+kb.Enter))
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`document.querySelector(".share-status").textContent === "Shared with group:support, vic."`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("sharing says %q, with the field holding %q", uiEval[string](t, ctx, `document.querySelector(".share-status").textContent`), uiEval[string](t, ctx, `document.querySelector(".share-with").value`))
	}
	pageProblems(t, ctx)
	uiDo(t, ctx, "sign out", chromedp.Click(chromedp.CSS("#signout")))
	uiAfterReload(t, ctx, "the sign-in form again", `document.querySelector("#signin-token") !== null`)
}

// uiAfterReload waits for a predicate across the page reloading itself
// (signing in and out reload the page), which interrupts a poll.
func uiAfterReload(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	var err error
	for range 20 {
		if _, err = chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(10*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waiting for %s (%s): %v", what, predicate, err)
}
