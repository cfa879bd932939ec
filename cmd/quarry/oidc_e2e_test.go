package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/auth/oidctest"
)

// TestServeOIDCSignIn runs quarry serve as a real process with auth.oidc
// naming a provider on this machine, and a browser that keeps cookies as
// browsers do under SameSite: from the web UI it follows the redirects to
// the provider's login, logs in, comes back through the callback (a
// cross-site navigation, past the server's Host and origin checks) and
// lands signed in; its page's requests then run SQL and list runs as that
// person, who owns the run. A person the provider knows but quarry does
// not is refused with one line. The client secret is in no output.
func TestServeOIDCSignIn(t *testing.T) {
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
	_, port, _ := net.SplitHostPort(host)
	// The browser reaches quarry as localhost, the provider as 127.0.0.1:
	// two sites, as a real provider is another site.
	base := "http://localhost:" + port
	const secret = "e2e-client-s3cret"
	idp := oidctest.New(t, "quarry-e2e", secret, base+"/auth/callback")
	idp.AddUser("ann", oidctest.User{Password: "pw", Claims: map[string]any{
		"sub": "u-ann", "email": "ann@example.com", "email_verified": true, "groups": []any{"finance"}}})
	idp.AddUser("eve", oidctest.User{Password: "pw", Claims: map[string]any{"sub": "u-eve", "email": "eve@example.com", "email_verified": true}})

	if r := quarryProc(t, bin, dir, "users", "add", "ann@example.com", "--role", "analyst"); r.code != 0 {
		t.Fatalf("users add: exit %d\n%s", r.code, r.stderr)
	}
	yaml, err := os.ReadFile(filepath.Join(dir, "quarry.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	yaml = append(yaml, []byte("\nauth:\n  oidc:\n    name: Acme ID\n    issuer: "+idp.Issuer+"\n    client_id: quarry-e2e\n"+
		"    client_secret: ${QUARRY_TEST_OIDC_SECRET}\n    redirect_url: "+base+"/auth/callback\n    groups_claim: groups\n")...)
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), yaml, 0o644); err != nil {
		t.Fatal(err)
	}
	s := &servedQuarry{base: "http://" + host, host: host, bin: bin, dir: dir, log: &bytes.Buffer{},
		env: append(keylessEnv(), "QUARRY_TEST_OIDC_SECRET="+secret)}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("quarry serve output:\n%s", s.log.String())
		}
	})
	s.start(t)

	b := oidctest.NewBrowser(t)
	home := b.Open(base + "/")
	if home.Status != 200 || !strings.Contains(home.Body, "/assets/app.js") {
		t.Fatalf("GET /: %d\n%s", home.Status, home.Body)
	}
	fetch := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res := b.Fetch(home, req)
		return res.Status, res.Body
	}
	code, body := fetch("GET", "/api/session", "")
	if code != 401 || !strings.Contains(body, `"sign_in":{"provider":"Acme ID","url":"/auth/login"}`) {
		t.Fatalf("GET /api/session before sign-in: %d %s", code, body)
	}
	form := b.Follow(home, "/auth/login?return_to=%2F")
	if form.Status != 200 || !strings.HasPrefix(form.URL.String(), idp.Issuer+"/login") {
		t.Fatalf("the sign-in went to %s (%d):\n%s", form.URL, form.Status, form.Body)
	}
	landed := b.Submit(form, url.Values{"username": {"ann"}, "password": {"pw"}})
	if landed.Status != 200 || landed.URL.String() != base+"/" {
		t.Fatalf("landed on %s (%d):\n%s", landed.URL, landed.Status, landed.Body)
	}
	code, body = fetch("GET", "/api/session", "")
	var who map[string]any
	_ = json.Unmarshal([]byte(body), &who)
	want := map[string]any{"required": true, "user": "ann@example.com", "role": "analyst", "groups": []any{"finance"}}
	if diff := cmp.Diff(want, who); code != 200 || diff != "" {
		t.Fatalf("GET /api/session signed in: %d (-want +got):\n%s", code, diff)
	}
	code, body = fetch("POST", "/api/run", `{"sql":"SELECT count(*) AS n FROM orders"}`)
	var run struct {
		RunID string `json:"run_id"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &run) != nil || run.RunID == "" {
		t.Fatalf("POST /api/run signed in: %d %s", code, body)
	}
	code, body = fetch("GET", "/api/runs", "")
	if code != 200 || !strings.Contains(body, run.RunID) {
		t.Fatalf("GET /api/runs signed in: %d %s", code, body)
	}
	if code, body := fetch("GET", "/api/runs/"+run.RunID, ""); code != 200 || !strings.Contains(body, `"owner":"ann@example.com"`) {
		t.Errorf("the run: %d %s; want it owned by ann@example.com", code, body)
	}
	// Another site's page reads nothing with the sign-in.
	evil := oidctest.Page{URL: &url.URL{Scheme: "http", Host: "evil.example", Path: "/"}}
	req, _ := http.NewRequest("GET", base+"/api/runs", nil)
	if res := b.Fetch(evil, req); res.Status != 403 && res.Status != 401 {
		t.Errorf("GET /api/runs from another site: %d %s", res.Status, res.Body)
	}

	t.Run("in Chromium", func(t *testing.T) {
		chromiumOIDCSignIn(t, base)
	})

	// Someone the provider knows and quarry does not.
	b2 := oidctest.NewBrowser(t)
	home2 := b2.Open(base + "/")
	refused := b2.Submit(b2.Follow(home2, "/auth/login"), url.Values{"username": {"eve"}, "password": {"pw"}})
	if refused.Status != 403 || !strings.Contains(refused.Body, "Sign-in refused: eve@example.com is not a person of this quarry") {
		t.Errorf("eve's sign-in: %s %d\n%s", refused.URL, refused.Status, refused.Body)
	}
	s.stop()
	if strings.Contains(s.log.String(), secret) {
		t.Errorf("the client secret is in quarry serve's output:\n%s", s.log.String())
	}
}

// chromiumOIDCSignIn signs in through the provider in a real browser, so
// that its own SameSite rules judge the cookies: the web UI offers the
// provider, the provider's login form sends the browser back, and the
// page is signed in and answers a question.
func chromiumOIDCSignIn(t *testing.T, base string) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat", chromedp.Navigate(base+"/"))
	uiWaitFor(t, ctx, "the provider's button", `document.querySelector(".signin-provider") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector(".signin-provider").textContent`); got != "Sign in with Acme ID" {
		t.Errorf("the button says %q", got)
	}
	uiDo(t, ctx, "click it", chromedp.Click(chromedp.CSS(".signin-provider")))
	uiAfterReload(t, ctx, "the provider's login form", `document.querySelector("input[name=username]") !== null`)
	uiDo(t, ctx, "log in at the provider",
		chromedp.SendKeys(chromedp.CSS("input[name=username]"), "ann"),
		chromedp.SendKeys(chromedp.CSS("input[name=password]"), "pw"),
		chromedp.Click(chromedp.CSS("form button")))
	uiAfterReload(t, ctx, "signed in", `document.querySelector("#signout") !== null && document.querySelector("#signin") === null`)
	if got := uiEval[string](t, ctx, `location.href`); got != base+"/" {
		t.Errorf("landed on %s", got)
	}
	if got := uiEval[string](t, ctx, `document.querySelector("#signout").textContent`); !strings.Contains(got, "ann@example.com (analyst)") {
		t.Errorf("the sign-out button says %q", got)
	}
	if c := uiEval[string](t, ctx, `document.cookie`); c != "" {
		t.Errorf("page scripts can read the cookies %q", c)
	}
	watchPage(t, ctx)
	uiAsk(t, ctx, "number of orders")
	pageProblems(t, ctx)
}
