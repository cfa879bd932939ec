package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/auth/oidctest"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/sqlite"
)

// oidcFixture is a gate with OpenID Connect in front of a handler that
// echoes who is asking, served at http://localhost:port, and a provider
// at http://127.0.0.1:port, another site, where ann@example.com (a person
// of the state, analyst) and eve@example.com (not one) can log in.
type oidcFixture struct {
	st   *sqlite.Store
	idp  *oidctest.Provider
	base string
}

func newOIDCFixture(t *testing.T) *oidcFixture {
	t.Helper()
	return newOIDCFixtureWith(t, func(*OIDCConfig) {})
}

// newOIDCFixtureWith is newOIDCFixture with quarry's side of the
// configuration changed by change.
func newOIDCFixtureWith(t *testing.T, change func(*OIDCConfig)) *oidcFixture {
	t.Helper()
	st, now, _ := people(t)
	if err := st.AddUser(context.Background(), store.User{Name: "ann@example.com", Role: "analyst", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	base := "http://localhost:" + port
	idp := oidctest.New(t, "quarry", "s3cret", base+CallbackPath)
	idp.AddUser("ann", oidctest.User{Password: "pw", Claims: map[string]any{
		"sub": "u-ann", "email": "ann@example.com", "email_verified": true, "groups": []any{"analysts", "eu", "analysts"}}})
	idp.AddUser("eve", oidctest.User{Password: "pw", Claims: map[string]any{"sub": "u-eve", "email": "eve@example.com", "email_verified": true}})
	idp.AddUser("una", oidctest.User{Password: "pw", Claims: map[string]any{"sub": "u-una", "email": "ann@example.com", "email_verified": false}})
	oc := OIDCConfig{Name: "Acme ID", Issuer: idp.Issuer, ClientID: "quarry", ClientSecret: "s3cret",
		RedirectURL: base + CallbackPath, Scopes: []string{"email", "groups"}, GroupsClaim: "groups",
		Client: &http.Client{Timeout: 10 * time.Second}}
	change(&oc)
	g := &Gate{People: st, Clock: time.Now, Rand: rand.Reader, Connection: "shop", OIDC: NewOIDC(oc)}
	srv.Config.Handler = g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := From(r.Context())
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"path": r.URL.RequestURI(), "user": p.Name, "groups": p.Groups})
	}))
	srv.Start()
	t.Cleanup(srv.Close)
	return &oidcFixture{st: st, idp: idp, base: base}
}

// login starts a sign-in from quarry's page and logs in at the provider
// as user; the browser stops where the provider sends it back to quarry.
func (f *oidcFixture) login(t *testing.T, b *oidctest.Browser, user, returnTo string) oidctest.Page {
	t.Helper()
	b.StopAt = f.base + CallbackPath
	home := b.Open(f.base + "/")
	form := b.Follow(home, LoginPath+"?"+url.Values{"return_to": {returnTo}}.Encode())
	if form.Status != 200 || !strings.HasPrefix(form.URL.String(), f.idp.Issuer+"/login") {
		t.Fatalf("the login went to %s (%d), not the provider's login form:\n%s", form.URL, form.Status, form.Body)
	}
	back := b.Submit(form, url.Values{"username": {user}, "password": {"pw"}})
	if back.Status != http.StatusFound || !strings.HasPrefix(back.Header.Get("Location"), f.base+CallbackPath+"?") {
		t.Fatalf("the provider answered %d, Location %q", back.Status, back.Header.Get("Location"))
	}
	return back
}

// whoami asks GET /api/session as quarry's page would.
func (f *oidcFixture) whoami(t *testing.T, b *oidctest.Browser) (int, map[string]any) {
	t.Helper()
	page := oidctest.Page{URL: mustURL(t, f.base+"/")}
	res := b.Fetch(page, httptest.NewRequest("GET", SessionPath, nil))
	var body map[string]any
	if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
		t.Fatalf("GET %s: %d %s", SessionPath, res.Status, res.Body)
	}
	return res.Status, body
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestOIDCSignIn: the whole flow in a browser that keeps SameSite. The
// login cookie is Lax, so the provider's cross-site redirect back
// carries it; the sign-in cookie is Strict, set by the callback, and
// sent by the page's own requests; the browser lands where it started,
// signed in as the person the email names, with the groups.
func TestOIDCSignIn(t *testing.T) {
	f := newOIDCFixture(t)
	b := oidctest.NewBrowser(t)
	if code, body := f.whoami(t, b); code != 401 || !cmp.Equal(body["sign_in"], map[string]any{"provider": "Acme ID", "url": LoginPath}) {
		t.Fatalf("GET /api/session before sign-in: %d %v; want 401 offering Acme ID", code, body)
	}
	back := f.login(t, b, "ann", "/runs?x=1")
	lc := b.Cookie("localhost", "quarry_oidc")
	b.StopAt = ""
	landed := b.Follow(back, back.Header.Get("Location"))
	if landed.Status != 200 || landed.URL.String() != f.base+"/runs?x=1" {
		t.Fatalf("landed on %s (%d): %s", landed.URL, landed.Status, landed.Body)
	}
	if lc == nil || lc.SameSite != http.SameSiteLaxMode || !lc.HttpOnly || lc.Path != "/" || lc.MaxAge != 600 || lc.Secure {
		t.Errorf("the login cookie = %+v; want HttpOnly, SameSite=Lax, Path=/, 10 minutes", lc)
	}
	sent := b.CookiesSentTo(f.base + CallbackPath)
	if len(sent) != 1 || !cmp.Equal(sent[0], []string{"quarry_oidc"}) {
		t.Errorf("cookies sent to the callback = %v; want the login cookie", sent)
	}
	// The landing page is reached through the provider's site: a browser
	// sends no Strict cookie with it (the page is served to everyone).
	if sent := b.CookiesSentTo(f.base + "/runs"); len(sent) != 1 || len(sent[0]) != 0 {
		t.Errorf("cookies sent to the landing page = %v; want none", sent)
	}
	if b.Cookie("localhost", "quarry_oidc") != nil {
		t.Error("the login cookie outlived the callback")
	}
	sc := b.Cookie("localhost", "quarry_session")
	if sc == nil || sc.SameSite != http.SameSiteStrictMode || !sc.HttpOnly || sc.Path != "/" || sc.MaxAge != int(DefaultSignIn/time.Second) {
		t.Fatalf("the sign-in cookie = %+v; want HttpOnly, SameSite=Strict, Path=/, 12 hours", sc)
	}
	code, body := f.whoami(t, b)
	want := map[string]any{"required": true, "user": "ann@example.com", "role": "analyst", "groups": []any{"analysts", "eu"}}
	if diff := cmp.Diff(want, body); code != 200 || diff != "" {
		t.Errorf("GET /api/session signed in: %d (-want +got):\n%s", code, diff)
	}
	page := oidctest.Page{URL: mustURL(t, f.base+"/")}
	res := b.Fetch(page, httptest.NewRequest("GET", "/api/runs", nil))
	if res.Status != 200 || !strings.Contains(res.Body, `"user":"ann@example.com"`) || !strings.Contains(res.Body, `"groups":["analysts","eu"]`) {
		t.Errorf("GET /api/runs signed in: %d %s", res.Status, res.Body)
	}
	// A page of another site cannot use the sign-in: its requests carry
	// no Strict cookie.
	evil := oidctest.Page{URL: mustURL(t, "http://evil.example/")}
	req := httptest.NewRequest("GET", f.base+"/api/runs", nil)
	if res := b.Fetch(evil, req); res.Status != 401 {
		t.Errorf("GET /api/runs from another site: %d %s", res.Status, res.Body)
	}
	// Signing out ends it.
	del := httptest.NewRequest("DELETE", SessionPath, nil)
	if res := b.Fetch(page, del); res.Status != 204 {
		t.Errorf("DELETE /api/session: %d", res.Status)
	}
	if code, _ := f.whoami(t, b); code != 401 {
		t.Errorf("GET /api/session after sign-out: %d", code)
	}
}

// TestOIDCRefusals: each way an attacker or a broken provider could get a
// browser signed in is refused with a one-line message, and no sign-in
// is made.
func TestOIDCRefusals(t *testing.T) {
	f := newOIDCFixture(t)
	otherKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	withState := func(loc, state string) string {
		u, _ := url.Parse(loc)
		q := u.Query()
		q.Set("state", state)
		u.RawQuery = q.Encode()
		return u.String()
	}
	for _, c := range []struct {
		name   string
		user   string
		tamper oidctest.Tamper
		// callback changes the browser or the URL the provider sent it
		// back to; nil follows it as it is.
		callback func(t *testing.T, b *oidctest.Browser, loc string) string
		status   int
		want     string
	}{
		{name: "wrong state", user: "ann", callback: func(t *testing.T, b *oidctest.Browser, loc string) string {
			return withState(loc, "not-the-state")
		}, status: 400, want: "state does not match"},
		{name: "no login cookie (the code and state of someone else's login)", user: "ann", callback: func(t *testing.T, b *oidctest.Browser, loc string) string {
			b.SetCookie("localhost", &http.Cookie{Name: "quarry_oidc", MaxAge: -1})
			return loc
		}, status: 400, want: "did not start here"},
		{name: "code without its PKCE verifier", user: "ann", callback: func(t *testing.T, b *oidctest.Browser, loc string) string {
			c := b.Cookie("localhost", "quarry_oidc")
			parts := strings.Split(c.Value, ".")
			parts[2] = strings.Repeat("a", 52)
			b.SetCookie("localhost", &http.Cookie{Name: c.Name, Value: strings.Join(parts, "."), SameSite: http.SameSiteLaxMode})
			return loc
		}, status: 401, want: "did not accept the code"},
		{name: "an error from the provider", user: "ann", callback: func(t *testing.T, b *oidctest.Browser, loc string) string {
			u, _ := url.Parse(loc)
			q := u.Query()
			q.Del("code")
			q.Set("error", "access_denied")
			q.Set("error_description", "<script>alert(1)</script>")
			u.RawQuery = q.Encode()
			return u.String()
		}, status: 401, want: "the sign-in provider refused: access_denied"},
		{name: "wrong nonce", user: "ann", tamper: oidctest.Tamper{Claims: func(c map[string]any) { c["nonce"] = "another" }}, status: 401, want: "nonce does not match"},
		{name: "no nonce", user: "ann", tamper: oidctest.Tamper{Claims: func(c map[string]any) { delete(c, "nonce") }}, status: 401, want: "nonce does not match"},
		{name: "token for another audience", user: "ann", tamper: oidctest.Tamper{Claims: func(c map[string]any) { c["aud"] = "another-client" }}, status: 401, want: "ID token is not good"},
		{name: "token of another issuer", user: "ann", tamper: oidctest.Tamper{Claims: func(c map[string]any) { c["iss"] = "https://evil.example" }}, status: 401, want: "ID token is not good"},
		{name: "expired token", user: "ann", tamper: oidctest.Tamper{Claims: func(c map[string]any) {
			c["iat"], c["exp"] = time.Now().Add(-2*time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
		}}, status: 401, want: "ID token is not good"},
		{name: "signed by another key", user: "ann", tamper: oidctest.Tamper{Key: otherKey}, status: 401, want: "ID token is not good"},
		{name: "alg none", user: "ann", tamper: oidctest.Tamper{AlgNone: true}, status: 401, want: "ID token is not good"},
		{name: "unknown person", user: "eve", status: 403, want: "eve@example.com is not a person of this quarry; ask an admin to add them with `quarry users add eve@example.com`"},
		{name: "unverified email", user: "una", status: 403, want: "has not verified your email address"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.idp.SetTamper(c.tamper)
			defer f.idp.SetTamper(oidctest.Tamper{})
			b := oidctest.NewBrowser(t)
			back := f.login(t, b, c.user, "/")
			loc := back.Header.Get("Location")
			if c.callback != nil {
				loc = c.callback(t, b, loc)
			}
			b.StopAt = ""
			got := b.Follow(back, loc)
			f.refused(t, b, got, c.status, c.want)
		})
	}
}

// refused checks that page is a refused sign-in and the browser is not
// signed in.
func (f *oidcFixture) refused(t *testing.T, b *oidctest.Browser, page oidctest.Page, status int, want string) {
	t.Helper()
	line := ""
	if _, rest, ok := strings.Cut(page.Body, "<p>Sign-in refused: "); ok {
		line, _, _ = strings.Cut(rest, "</p>")
		line = html.UnescapeString(line)
	}
	if page.Status != status || !strings.Contains(line, want) || strings.Contains(line, "\n") || strings.Contains(page.Body, "<script>") {
		t.Errorf("%s: %d, %q; want %d with %q on one line\n%s", page.URL, page.Status, line, status, want, page.Body)
	}
	if b.Cookie("localhost", "quarry_session") != nil {
		t.Error("the browser got a sign-in cookie")
	}
	if code, _ := f.whoami(t, b); code != 401 {
		t.Errorf("GET /api/session after a refused sign-in: %d", code)
	}
}

// TestOIDCReplayedCode: a code the provider already exchanged, sent
// again with the very cookie of its login, is refused by the provider
// and so by quarry.
func TestOIDCReplayedCode(t *testing.T) {
	f := newOIDCFixture(t)
	b := oidctest.NewBrowser(t)
	back := f.login(t, b, "ann", "/")
	cookie := *b.Cookie("localhost", "quarry_oidc")
	loc := back.Header.Get("Location")
	b.StopAt = ""
	if got := b.Follow(back, loc); got.Status != 200 {
		t.Fatalf("the first callback: %d %s", got.Status, got.Body)
	}
	thief := oidctest.NewBrowser(t)
	thief.SetCookie("localhost", &cookie)
	f.refused(t, thief, thief.Follow(back, loc), 401, "did not accept the code")
}

// TestOIDCOpenRedirect: return_to is a path on this server or nothing;
// anything a browser could read as another site is refused before the
// browser is sent anywhere.
func TestOIDCOpenRedirect(t *testing.T) {
	f := newOIDCFixture(t)
	for _, rt := range []string{"https://evil.example/", "//evil.example/", "/\\evil.example", "\\\\evil.example", "javascript:alert(1)",
		"evil.example", "/\r\nSet-Cookie: x=1", "http:evil.example"} {
		b := oidctest.NewBrowser(t)
		home := b.Open(f.base + "/")
		got := b.Follow(home, LoginPath+"?"+url.Values{"return_to": {rt}}.Encode())
		if got.Status != 400 || got.URL.Host != mustURL(t, f.base).Host || !strings.Contains(got.Body, "return_to must be a path on this server") {
			t.Errorf("return_to %q: %s %d\n%s", rt, got.URL, got.Status, got.Body)
		}
		if b.Cookie("localhost", "quarry_oidc") != nil {
			t.Errorf("return_to %q: a login cookie was set", rt)
		}
	}
	// A path, query and all, is kept.
	for _, rt := range []string{"/", "/runs/r_1?tab=sql"} {
		if !localPath(rt) {
			t.Errorf("localPath(%q) = false", rt)
		}
	}
}

// TestOIDCLoginCookieWhenSecure: on a server reached over TLS the login
// cookie is Secure and __Host- prefixed, as the sign-in cookie is.
func TestOIDCLoginCookieWhenSecure(t *testing.T) {
	g := &Gate{Secure: true}
	c := g.loginCookie("v", 600)
	if c.Name != "__Host-quarry_oidc" || !c.Secure || c.Path != "/" || c.Domain != "" || c.SameSite != http.SameSiteLaxMode || !c.HttpOnly {
		t.Errorf("login cookie = %+v", c)
	}
}

// TestOIDCMisconfigured: a wrong client secret, a provider that cannot be
// reached, a server with nobody to sign in as, and a POST each get one
// line saying so.
func TestOIDCMisconfigured(t *testing.T) {
	t.Run("wrong client secret", func(t *testing.T) {
		f := newOIDCFixtureWith(t, func(c *OIDCConfig) { c.ClientSecret = "not-it" })
		b := oidctest.NewBrowser(t)
		back := f.login(t, b, "ann", "/")
		b.StopAt = ""
		f.refused(t, b, b.Follow(back, back.Header.Get("Location")), 502, "does not accept quarry's client ID and secret; ask an admin to check auth.oidc")
	})
	t.Run("provider down", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		down := "http://" + l.Addr().String()
		// Held while the fixture starts its own provider and server, so
		// that neither is given this port; closed before the login.
		f := newOIDCFixtureWith(t, func(c *OIDCConfig) { c.Issuer = down })
		l.Close()
		b := oidctest.NewBrowser(t)
		home := b.Open(f.base + "/")
		f.refused(t, b, b.Follow(home, LoginPath), 502, "cannot reach the sign-in provider "+down)
	})
	t.Run("nobody to sign in as", func(t *testing.T) {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		g := &Gate{People: st, Clock: time.Now, Rand: rand.Reader, OIDC: NewOIDC(OIDCConfig{Name: "Acme ID"})}
		for _, m := range []string{"GET", "POST"} {
			rec := httptest.NewRecorder()
			g.Wrap(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest(m, LoginPath, nil))
			want := map[string]int{"GET": 400, "POST": 405}[m]
			if rec.Code != want || !strings.Contains(rec.Body.String(), "Sign-in refused: ") {
				t.Errorf("%s %s with nobody: %d %s", m, LoginPath, rec.Code, rec.Body)
			}
		}
	})
}
