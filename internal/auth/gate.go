package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/fresh"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// People is what the gate reads and writes in the state.
type People interface {
	Users(ctx context.Context) ([]store.User, error)
	User(ctx context.Context, name string) (store.User, error)
	TokenByHash(ctx context.Context, hash string) (store.Token, error)
	TouchToken(ctx context.Context, id string, at time.Time) error
	CreateSignIn(ctx context.Context, s store.SignIn) error
	SignInByHash(ctx context.Context, hash string) (store.SignIn, error)
	DeleteSignIn(ctx context.Context, hash string) error
}

// DefaultSignIn is how long a browser stays signed in.
const DefaultSignIn = 12 * time.Hour

// touchEvery is how stale a token's last use may get before a request
// records it again (a write per request would be a write per request).
const touchEvery = time.Minute

// SessionPath is the route of signing in (POST), out (DELETE), and of
// who is signed in (GET).
const SessionPath = "/api/session"

// Gate checks who is asking before a request reaches quarry's routes, and
// what their role lets them do. Sign-in is required when the state has
// any person, or always with Always; otherwise every request passes, as
// on a single-user machine. People, Clock and Rand are required.
type Gate struct {
	People People
	Clock  func() time.Time
	Rand   io.Reader
	// Always requires sign-in even while the state has no people (a
	// server reachable from other machines: --allow-remote).
	Always bool
	// Secure marks the sign-in cookie Secure: the server is reached over
	// TLS, or from other machines (through a proxy that terminates TLS).
	Secure bool
	// Connection is the connection the runs started through the gate
	// use, checked against the connections each person may use.
	Connection string
	// SignInFor is how long a sign-in lasts; 0: DefaultSignIn.
	SignInFor time.Duration
	// OIDC, when set, signs browsers in through an OpenID Connect
	// provider too (LoginPath, CallbackPath).
	OIDC *OIDC
	// MayUse, when set, says whether the person may start runs on
	// Connection beyond what their role and connections allow (the
	// project's groups limit their members to some connections); the
	// error says why not.
	MayUse func(ctx context.Context, p Person) error

	people fresh.Check[bool] // whether the state has people (required)
}

// Wrap guards quarry serve's routes. It goes behind the server's own
// Host and cross-origin checks (httpapi.Config.Wrap), which keep a page
// of another site from using a signed-in browser's cookie; the cookie is
// SameSite=Strict as well. The web UI's files are served to everyone
// (it shows a sign-in form when the API answers 401); GET /api/health
// answers everyone; every other API route needs a token or a sign-in.
func (g *Gate) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == SessionPath {
			g.session(w, r)
			return
		}
		if g.OIDC != nil && (r.URL.Path == LoginPath || r.URL.Path == CallbackPath) {
			g.oidcRoute(w, r)
			return
		}
		api := strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/ask"
		if !api || r.URL.Path == "/api/health" {
			next.ServeHTTP(w, r)
			return
		}
		g.guard(w, r, next, true)
	})
}

// WrapMCP guards quarry mcp --http: every request needs an API token
// (MCP clients send one; there are no cookies), and, since every tool
// reads or runs on the connection, a person who may start runs on it.
func (g *Gate) WrapMCP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.guard(w, r, next, false)
	})
}

// guard lets r through to next as the person it comes from, when sign-in
// is off or the person may do what r asks.
func (g *Gate) guard(w http.ResponseWriter, r *http.Request, next http.Handler, cookies bool) {
	ctx := r.Context()
	on, err := g.required(ctx)
	if err != nil {
		stateFailed(w, err)
		return
	}
	if !on {
		next.ServeHTTP(w, r)
		return
	}
	p, _, err := g.authenticate(r, cookies)
	if err != nil {
		unauthorized(w, err)
		return
	}
	if !reads(r) || !cookies {
		if err := g.mayStart(ctx, p); err != nil {
			status := http.StatusForbidden
			if quarry.KindOf(err) == quarry.KindConfig {
				// The knowledge folder does not load: the project's
				// error, as every other request gets it (400).
				status = http.StatusBadRequest
			}
			writeError(w, status, err)
			return
		}
	}
	next.ServeHTTP(w, r.WithContext(NewContext(ctx, p)))
}

// mayStart is nil when p may start runs on the gate's connection: their
// role and connections (Person.MayStart), and the groups they are in
// (MayUse).
func (g *Gate) mayStart(ctx context.Context, p Person) error {
	if ok, why := p.MayStart(g.Connection); !ok {
		return quarry.Errorf(quarry.KindForbidden, "%s", why)
	}
	if g.MayUse != nil {
		return g.MayUse(ctx, p)
	}
	return nil
}

// MayStartRun is nil when the person a request is made for (in ctx) may
// start a run on the gate's connection, or when nobody signed in (sign-in
// is off). A request that only reads, and so passed the gate without that
// check, asks it before it starts one (a result read again from its run's
// SQL).
func (g *Gate) MayStartRun(ctx context.Context) error {
	p, ok := From(ctx)
	if !ok {
		return nil
	}
	return g.mayStart(ctx, p)
}

// reads reports whether r only reads: GET and HEAD, and the check of a
// workflow's text, which runs nothing. Everything else starts work or
// writes (asks, runs, reruns, workflow runs, feedback files), and any
// route added later is held to that too until it is listed here.
//
// Reading a monitor (/api/monitors and below, GET included) runs its
// query on the connection, so it is held to the same rule as a run.
func reads(r *http.Request) bool {
	if r.URL.Path == "/api/monitors" || strings.HasPrefix(r.URL.Path, "/api/monitors/") {
		return false
	}
	return r.Method == http.MethodGet || r.Method == http.MethodHead ||
		(r.Method == http.MethodPost && r.URL.Path == "/api/workflows/check")
}

// required reports whether sign-in is on.
func (g *Gate) required(ctx context.Context) (bool, error) {
	if g.Always {
		return true, nil
	}
	// Asked before every request: one answer for the requests that wait
	// on the same query (fresh.Check), read after each of them arrived.
	return g.people.Do(ctx, func(ctx context.Context) (bool, error) {
		us, err := g.People.Users(ctx)
		return len(us) > 0, err
	})
}

// errNoCredentials is the refusal of a request that carries neither a
// token nor a sign-in.
func errNoCredentials() error {
	return quarry.Errorf(quarry.KindUnauthenticated, "sign in first: send an API token (Authorization: Bearer qry_…, made with `quarry tokens create`) or sign in at /")
}

// errBadToken is the refusal of a token that is not (or no longer) good,
// whichever the reason, so that a guess learns nothing.
func errBadToken() error {
	return quarry.Errorf(quarry.KindUnauthenticated, "this API token is not valid (unknown, revoked, or its person was removed); ask an admin for a new one with `quarry tokens create`")
}

// authenticate returns the person r comes from: by its bearer token, or
// (with cookies) by its sign-in cookie, and the sign-in's hash.
func (g *Gate) authenticate(r *http.Request, cookies bool) (Person, string, error) {
	ctx := r.Context()
	if hs := r.Header.Values("Authorization"); len(hs) > 0 {
		if len(hs) > 1 {
			return Person{}, "", quarry.Errorf(quarry.KindUnauthenticated, "send one Authorization header, not %d", len(hs))
		}
		scheme, secret, _ := strings.Cut(hs[0], " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return Person{}, "", quarry.Errorf(quarry.KindUnauthenticated, "the Authorization header must be `Bearer qry_…`")
		}
		p, _, err := g.token(ctx, strings.TrimSpace(secret))
		return p, "", err
	}
	if !cookies {
		return Person{}, "", errNoCredentials()
	}
	cs := r.CookiesNamed(cookieName(g.Secure))
	if len(cs) > 1 {
		return Person{}, "", quarry.Errorf(quarry.KindUnauthenticated, "the request has %d sign-in cookies; sign out and sign in again", len(cs))
	}
	if len(cs) == 0 || cs[0].Value == "" {
		return Person{}, "", errNoCredentials()
	}
	c := cs[0]
	hash := Hash(c.Value)
	si, err := g.People.SignInByHash(ctx, hash)
	if err != nil || !sameHash(si.Hash, hash) {
		if quarry.KindOf(err) != quarry.KindNotFound && err != nil {
			return Person{}, "", err
		}
		return Person{}, "", quarry.Errorf(quarry.KindUnauthenticated, "this sign-in has ended; sign in again")
	}
	if !g.Clock().Before(si.ExpiresAt) {
		_ = g.People.DeleteSignIn(ctx, hash)
		return Person{}, "", quarry.Errorf(quarry.KindUnauthenticated, "this sign-in expired; sign in again")
	}
	p, err := g.person(ctx, si.User)
	// The groups quarry users gave them, and those the provider named.
	for _, gr := range si.Groups {
		if !slices.ContainsFunc(p.Groups, func(h string) bool { return strings.EqualFold(h, gr) }) {
			p.Groups = append(p.Groups, gr)
		}
	}
	return p, hash, err
}

// token returns the person a token's secret belongs to, when the token
// is well formed, known, not revoked, and its person still exists.
func (g *Gate) token(ctx context.Context, secret string) (Person, store.Token, error) {
	if !wellFormed(secret) {
		return Person{}, store.Token{}, errBadToken()
	}
	hash := Hash(secret)
	t, err := g.People.TokenByHash(ctx, hash)
	switch {
	case quarry.KindOf(err) == quarry.KindNotFound:
		return Person{}, store.Token{}, errBadToken()
	case err != nil:
		return Person{}, store.Token{}, err
	case !sameHash(t.Hash, hash) || !t.RevokedAt.IsZero():
		return Person{}, store.Token{}, errBadToken()
	}
	p, err := g.person(ctx, t.User)
	if err != nil {
		return Person{}, store.Token{}, err
	}
	if now := g.Clock(); now.Sub(t.LastUsed) >= touchEvery {
		if err := g.People.TouchToken(ctx, t.ID, now); err != nil {
			return Person{}, store.Token{}, err
		}
	}
	return p, t, nil
}

// person reads a person as they are now (their role may have changed).
func (g *Gate) person(ctx context.Context, name string) (Person, error) {
	u, err := g.People.User(ctx, name)
	if quarry.KindOf(err) == quarry.KindNotFound {
		return Person{}, errBadToken()
	}
	if err != nil {
		return Person{}, err
	}
	return PersonOf(u), nil
}

// cookieName is the sign-in cookie's name: with the __Host- prefix when
// it is Secure, so that the browser keeps it to this host and path /.
func cookieName(secure bool) string {
	if secure {
		return "__Host-quarry_session"
	}
	return "quarry_session"
}

// whoami is the body of GET and POST /api/session.
type whoami struct {
	Required    bool     `json:"required"`
	User        string   `json:"user,omitempty"`
	Role        Role     `json:"role,omitempty"`
	Connections []string `json:"connections,omitempty"`
	Groups      []string `json:"groups,omitempty"`
}

// signInOffer is what a browser that is not signed in may sign in with,
// beside a token: the body of GET /api/session's 401 carries it.
type signInOffer struct {
	Provider string `json:"provider"` // the OpenID Connect provider's name
	URL      string `json:"url"`      // LoginPath
}

// session answers /api/session: GET says whether sign-in is on and who
// is signed in, POST {"token"} signs a browser in, DELETE signs it out.
func (g *Gate) session(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	on, err := g.required(ctx)
	if err != nil {
		stateFailed(w, err)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if !on {
			writeJSON(w, http.StatusOK, whoami{})
			return
		}
		p, _, err := g.authenticate(r, true)
		if err != nil {
			g.unauthorizedSession(w, err)
			return
		}
		writeJSON(w, http.StatusOK, whoami{Required: true, User: p.Name, Role: p.Role, Connections: p.Connections, Groups: p.Groups})
	case http.MethodPost:
		g.signIn(w, r, on)
	case http.MethodDelete:
		if c, err := r.Cookie(cookieName(g.Secure)); err == nil && c.Value != "" {
			if err := g.People.DeleteSignIn(ctx, Hash(c.Value)); err != nil {
				stateFailed(w, err)
				return
			}
		}
		http.SetCookie(w, g.cookie("", -1))
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeError(w, http.StatusMethodNotAllowed, quarry.Errorf(quarry.KindUsage, "%s %s: sign in with POST, out with DELETE", r.Method, SessionPath))
	}
}

// signIn checks the token of a POST /api/session and, when it is good,
// stores a new sign-in and sets its cookie.
func (g *Gate) signIn(w http.ResponseWriter, r *http.Request, on bool) {
	ctx := r.Context()
	var req struct {
		Token string `json:"token"`
	}
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, quarry.Errorf(quarry.KindInput, "send {\"token\": \"qry_…\"} with Content-Type: application/json"))
		return
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, quarry.Errorf(quarry.KindInput, "send {\"token\": \"qry_…\"} as JSON"))
		return
	}
	if !on {
		writeError(w, http.StatusBadRequest, quarry.Errorf(quarry.KindUsage, "sign-in is off: this server has no people; add one with `quarry users add`"))
		return
	}
	p, t, err := g.token(ctx, strings.TrimSpace(req.Token))
	if err != nil {
		unauthorized(w, err)
		return
	}
	if err := g.newSignIn(ctx, w, store.SignIn{User: p.Name, TokenID: t.ID}); err != nil {
		stateFailed(w, err)
		return
	}
	writeJSON(w, http.StatusOK, whoami{Required: true, User: p.Name, Role: p.Role, Connections: p.Connections})
}

// newSignIn stores si (its user, token and groups) with a new secret,
// made now and lasting SignInFor, and sets the cookie holding the secret.
func (g *Gate) newSignIn(ctx context.Context, w http.ResponseWriter, si store.SignIn) error {
	secret, err := newSecret(g.Rand)
	if err != nil {
		return err
	}
	life := g.SignInFor
	if life <= 0 {
		life = DefaultSignIn
	}
	si.Hash, si.CreatedAt = Hash(secret), g.Clock()
	si.ExpiresAt = si.CreatedAt.Add(life)
	if err := g.People.CreateSignIn(ctx, si); err != nil {
		return err
	}
	http.SetCookie(w, g.cookie(secret, int(life/time.Second)))
	return nil
}

// cookie is the sign-in cookie holding secret for maxAge seconds (-1:
// delete it): HttpOnly, SameSite=Strict, Secure when the gate is.
func (g *Gate) cookie(secret string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: cookieName(g.Secure), Value: secret, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: g.Secure}
}

// unauthorized answers 401 with err, or 500 when err is not a refusal.
func unauthorized(w http.ResponseWriter, err error) {
	if quarry.KindOf(err) != quarry.KindUnauthenticated {
		stateFailed(w, err)
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="quarry"`)
	writeError(w, http.StatusUnauthorized, err)
}

// unauthorizedSession answers GET /api/session's 401: as unauthorized
// does, with what else the browser may sign in with.
func (g *Gate) unauthorizedSession(w http.ResponseWriter, err error) {
	if g.OIDC == nil || quarry.KindOf(err) != quarry.KindUnauthenticated {
		unauthorized(w, err)
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="quarry"`)
	writeJSON(w, http.StatusUnauthorized, map[string]any{
		"error":   map[string]string{"kind": string(quarry.KindOf(err)), "message": quarry.Message(err)},
		"sign_in": signInOffer{Provider: g.OIDC.Name(), URL: LoginPath},
	})
}

// writeError writes err as quarry's API writes errors:
// {"error": {"kind", "message"}}, never with the internal cause.
// stateFailed answers a request the gate could not decide because the
// state failed under it: 503 (with Retry-After) when the state cannot be
// reached, else 500, and never the state's address or the cause's text:
// the one asking may not have signed in.
func stateFailed(w http.ResponseWriter, err error) {
	status, kind := http.StatusInternalServerError, quarry.KindOf(err)
	if kind == quarry.KindConnection || kind == quarry.KindTimeout {
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "5")
	}
	writeJSON(w, status, map[string]any{"error": map[string]string{"kind": string(kind),
		"message": "quarry cannot check who is asking: its state database did not answer; try again shortly"}})
}

func writeError(w http.ResponseWriter, status int, err error) {
	kind := quarry.KindOf(err)
	msg := quarry.Message(err)
	var qe *quarry.Error
	if !errors.As(err, &qe) {
		msg = "internal error"
	}
	writeJSON(w, status, map[string]any{"error": map[string]string{"kind": string(kind), "message": msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"kind":"internal","message":"cannot encode the response"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
