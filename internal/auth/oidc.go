package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// The routes of signing in with OpenID Connect.
const (
	// LoginPath starts a sign-in: it redirects the browser to the
	// provider. ?return_to=/path says where to land afterwards.
	LoginPath = "/auth/login"
	// CallbackPath is where the provider sends the browser back.
	CallbackPath = "/auth/callback"
)

// loginFor is how long a browser may take at the provider.
const loginFor = 10 * time.Minute

// maxGroups bounds the groups kept of one sign-in, and maxGroupLen each
// group's name: the claim is the provider's, not quarry's, to size.
const (
	maxGroups   = 256
	maxGroupLen = 256
)

// OIDCConfig is an OpenID Connect provider browsers sign in with
// (quarry.yaml's auth.oidc).
type OIDCConfig struct {
	// Name is the provider's name on the sign-in button.
	Name         string
	Issuer       string
	ClientID     string
	ClientSecret string
	// RedirectURL is CallbackPath on the address people reach quarry at,
	// as registered with the provider.
	RedirectURL string
	// Scopes are asked for besides openid.
	Scopes []string
	// Claim names the claim whose value is a person's name; "": email
	// (unless the provider says it is unverified), else
	// preferred_username.
	Claim string
	// GroupsClaim names the claim listing the person's groups; "": none.
	GroupsClaim string
	// Client talks to the provider (discovery, keys, the code exchange);
	// it should have a timeout.
	Client *http.Client
}

// OIDC signs browsers in through an OpenID Connect provider: the
// authorization code flow with PKCE (S256), state and nonce, the ID
// token's signature, issuer, audience, expiry and nonce checked by
// go-oidc. The provider is discovered on first use, so that quarry
// starts while it is down.
type OIDC struct {
	cfg OIDCConfig

	mu       sync.Mutex
	provider *oidc.Provider
}

// NewOIDC returns the sign-in through the provider c describes.
func NewOIDC(c OIDCConfig) *OIDC { return &OIDC{cfg: c} }

// Name is the provider's name, for the sign-in button.
func (o *OIDC) Name() string { return o.cfg.Name }

// discover returns the provider, fetching its discovery document once.
func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, nil
	}
	p, err := oidc.NewProvider(o.clientContext(ctx), o.cfg.Issuer)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConnection, err, "cannot reach the sign-in provider %s (%v); try again, or check auth.oidc.issuer", o.cfg.Issuer, err)
	}
	o.provider = p
	return p, nil
}

func (o *OIDC) clientContext(ctx context.Context) context.Context {
	if o.cfg.Client != nil {
		return oidc.ClientContext(ctx, o.cfg.Client)
	}
	return ctx
}

func (o *OIDC) oauth2(p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret, RedirectURL: o.cfg.RedirectURL,
		Endpoint: p.Endpoint(), Scopes: append([]string{oidc.ScopeOpenID}, o.cfg.Scopes...)}
}

// loginState is what a browser carries from LoginPath to CallbackPath,
// in a cookie only this server reads: the state and nonce it sent the
// provider, the PKCE verifier, and where to land.
type loginState struct {
	state, nonce, verifier, returnTo string
}

func (s loginState) encode() string {
	return strings.Join([]string{s.state, s.nonce, s.verifier, base64.RawURLEncoding.EncodeToString([]byte(s.returnTo))}, ".")
}

func decodeLoginState(v string) (loginState, bool) {
	parts := strings.Split(v, ".")
	if len(parts) != 4 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return loginState{}, false
	}
	rt, err := base64.RawURLEncoding.DecodeString(parts[3])
	if err != nil || !localPath(string(rt)) {
		return loginState{}, false
	}
	return loginState{state: parts[0], nonce: parts[1], verifier: parts[2], returnTo: string(rt)}, true
}

// localPath reports whether p is a path on this server: it begins with
// one / (not //, which a browser reads as another host, nor /\), and
// holds no control characters. Anything else could send a browser that
// just signed in to another site.
func localPath(p string) bool {
	if p == "" || p[0] != '/' || len(p) > 2048 {
		return false
	}
	if len(p) > 1 && (p[1] == '/' || p[1] == '\\') {
		return false
	}
	if strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return false
	}
	u, err := url.Parse(p)
	return err == nil && u.Scheme == "" && u.Host == "" && u.User == nil
}

// loginCookieName is the name of the cookie holding a loginState.
func loginCookieName(secure bool) string {
	if secure {
		return "__Host-quarry_oidc"
	}
	return "quarry_oidc"
}

// loginCookie holds a login's state for maxAge seconds (-1: delete it).
// It is SameSite=Lax, not Strict like the sign-in cookie: the provider
// sends the browser back with a top-level GET from its own site, which
// carries Lax cookies and never Strict ones.
func (g *Gate) loginCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: loginCookieName(g.Secure), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: g.Secure}
}

// oidcRoute answers LoginPath and CallbackPath.
func (g *Gate) oidcRoute(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		refuse(w, http.StatusMethodNotAllowed, "open "+r.URL.Path+" in the browser (GET)")
		return
	}
	on, err := g.required(r.Context())
	if err != nil {
		refuse(w, http.StatusInternalServerError, "cannot read the people of this quarry; try again")
		return
	}
	if !on {
		refuse(w, http.StatusBadRequest, "sign-in is off: this server has no people; add one with `quarry users add`")
		return
	}
	if r.URL.Path == LoginPath {
		g.oidcLogin(w, r)
		return
	}
	g.oidcCallback(w, r)
}

// oidcLogin starts a sign-in: new state, nonce and PKCE verifier, kept
// in the login cookie, and a redirect to the provider.
func (g *Gate) oidcLogin(w http.ResponseWriter, r *http.Request) {
	returnTo := r.URL.Query().Get("return_to")
	if returnTo == "" {
		returnTo = "/"
	}
	if !localPath(returnTo) {
		refuse(w, http.StatusBadRequest, "return_to must be a path on this server, like /runs")
		return
	}
	p, err := g.OIDC.discover(r.Context())
	if err != nil {
		refuse(w, http.StatusBadGateway, quarry.Message(err))
		return
	}
	var s loginState
	for _, dst := range []*string{&s.state, &s.nonce, &s.verifier} {
		if *dst, err = newSecret(g.Rand); err != nil {
			refuse(w, http.StatusInternalServerError, "cannot start a sign-in; try again")
			return
		}
	}
	s.returnTo = returnTo
	http.SetCookie(w, g.loginCookie(s.encode(), int(loginFor/time.Second)))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, g.OIDC.oauth2(p).AuthCodeURL(s.state, oidc.Nonce(s.nonce), oauth2.S256ChallengeOption(s.verifier)), http.StatusFound)
}

// oidcCallback finishes a sign-in: the state must be the login cookie's,
// the code is exchanged with the PKCE verifier, the ID token must be
// good and carry the cookie's nonce, and its claim must name a person of
// the state. Then it signs the browser in as a token sign-in does.
func (g *Gate) oidcCallback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	// The login cookie is good for one callback, whatever comes of it.
	http.SetCookie(w, g.loginCookie("", -1))
	q := r.URL.Query()
	cs := r.CookiesNamed(loginCookieName(g.Secure))
	if len(cs) != 1 {
		refuse(w, http.StatusBadRequest, "this sign-in did not start here, or took longer than 10 minutes; sign in again")
		return
	}
	s, ok := decodeLoginState(cs[0].Value)
	if !ok || !sameHash(q.Get("state"), s.state) {
		refuse(w, http.StatusBadRequest, "this sign-in's state does not match the one this browser started; sign in again")
		return
	}
	if e := q.Get("error"); e != "" {
		refuse(w, http.StatusUnauthorized, "the sign-in provider refused: "+errorCode(e))
		return
	}
	code := q.Get("code")
	if code == "" {
		refuse(w, http.StatusBadRequest, "the sign-in provider sent no code; sign in again")
		return
	}
	p, err := g.OIDC.discover(ctx)
	if err != nil {
		refuse(w, http.StatusBadGateway, quarry.Message(err))
		return
	}
	cctx := g.OIDC.clientContext(ctx)
	tok, err := g.OIDC.oauth2(p).Exchange(cctx, code, oauth2.VerifierOption(s.verifier))
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re) && (re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized_client"):
		refuse(w, http.StatusBadGateway, "the sign-in provider does not accept quarry's client ID and secret; ask an admin to check auth.oidc in quarry.yaml")
		return
	case err != nil:
		refuse(w, http.StatusUnauthorized, "the sign-in provider did not accept the code (used already, expired, or not for this sign-in); sign in again")
		return
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		refuse(w, http.StatusUnauthorized, "the sign-in provider sent no ID token; check that auth.oidc.scopes allow openid")
		return
	}
	verifier := p.Verifier(&oidc.Config{ClientID: g.OIDC.cfg.ClientID, Now: g.Clock})
	idt, err := verifier.Verify(cctx, raw)
	if err != nil {
		refuse(w, http.StatusUnauthorized, "the ID token is not good (its signature, issuer, audience or expiry); sign in again")
		return
	}
	if !sameHash(idt.Nonce, s.nonce) {
		refuse(w, http.StatusUnauthorized, "the ID token is not for this sign-in (its nonce does not match); sign in again")
		return
	}
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		refuse(w, http.StatusUnauthorized, "the ID token's claims cannot be read; sign in again")
		return
	}
	name, err := g.OIDC.personName(claims)
	if err != nil {
		refuse(w, http.StatusForbidden, quarry.Message(err))
		return
	}
	u, err := g.People.User(ctx, name)
	if quarry.KindOf(err) == quarry.KindNotFound {
		refuse(w, http.StatusForbidden, name+" is not a person of this quarry; ask an admin to add them with `quarry users add "+name+"`")
		return
	}
	if err != nil {
		refuse(w, http.StatusInternalServerError, "cannot read the people of this quarry; try again")
		return
	}
	if err := g.newSignIn(ctx, w, store.SignIn{User: u.Name, Groups: g.OIDC.groups(claims)}); err != nil {
		refuse(w, http.StatusInternalServerError, "cannot record the sign-in; try again")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, s.returnTo, http.StatusSeeOther)
}

// personName reads the name of the person an ID token's claims are about.
func (o *OIDC) personName(claims map[string]any) (string, error) {
	if c := o.cfg.Claim; c != "" {
		v, _ := claims[c].(string)
		if strings.TrimSpace(v) == "" {
			return "", quarry.Errorf(quarry.KindForbidden, "the ID token has no %q claim to name you by; ask an admin to set auth.oidc.claim to one the provider sends", c)
		}
		if c == "email" && unverified(claims) {
			return "", quarry.Errorf(quarry.KindForbidden, "the sign-in provider has not verified your email address; verify it there and sign in again")
		}
		return strings.TrimSpace(v), nil
	}
	if v, _ := claims["email"].(string); strings.TrimSpace(v) != "" && !unverified(claims) {
		return strings.TrimSpace(v), nil
	}
	if v, _ := claims["preferred_username"].(string); strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v), nil
	}
	if v, _ := claims["email"].(string); strings.TrimSpace(v) != "" {
		return "", quarry.Errorf(quarry.KindForbidden, "the sign-in provider has not verified your email address; verify it there and sign in again")
	}
	return "", quarry.Errorf(quarry.KindForbidden, "the ID token names you by neither a verified email nor preferred_username; ask an admin to set auth.oidc.claim")
}

// unverified reports whether the provider says the email is unverified
// (email_verified false, or "false" as some providers write it).
func unverified(claims map[string]any) bool {
	switch v := claims["email_verified"].(type) {
	case bool:
		return !v
	case string:
		return strings.EqualFold(v, "false")
	}
	return false
}

// groups reads the groups claim: a list of names, or one name.
func (o *OIDC) groups(claims map[string]any) []string {
	if o.cfg.GroupsClaim == "" {
		return nil
	}
	var raw []any
	switch v := claims[o.cfg.GroupsClaim].(type) {
	case []any:
		raw = v
	case string:
		raw = []any{v}
	}
	var out []string
	for _, x := range raw {
		s, _ := x.(string)
		if s = strings.TrimSpace(s); s == "" || len(s) > maxGroupLen || slices.Contains(out, s) {
			continue
		}
		if out = append(out, s); len(out) == maxGroups {
			break
		}
	}
	return out
}

// errorCode is the provider's error code as it may be shown: an OAuth
// error code is a few words of ASCII letters and underscores.
func errorCode(e string) string {
	if len(e) > 64 || strings.ContainsFunc(e, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) {
		return "an error it did not name"
	}
	return e
}

// refusedPage is the page of a refused or failed sign-in: one line, and
// the way back.
var refusedPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("refused").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in refused · quarry</title></head>
<body><p>Sign-in refused: {{.}}</p><p><a href="/">Back to quarry</a></p></body></html>
`))
})

// refuse answers a sign-in's browser with status and the one-line msg.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = refusedPage().Execute(w, msg)
}
