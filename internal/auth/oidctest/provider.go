// Package oidctest is an OpenID Connect provider and a browser for tests.
//
// The Provider follows the specs a real one does (OpenID Connect Core 1.0
// and Discovery 1.0, RFC 6749, RFC 7636): a discovery document, its signing
// key as a JWKS, an authorization endpoint that checks the client and the
// exact redirect URI and requires PKCE with S256, a login form, and a token
// endpoint that authenticates the client, takes each code once, within a
// minute, for the redirect URI and verifier it was issued with, and
// returns an RS256-signed ID token with the nonce it was asked for. Tamper
// makes it misbehave as an attacker or a broken provider would.
//
// The Browser keeps cookies per host and sends them as a browser does
// under SameSite (Strict only on same-site requests, Lax also on
// top-level GET navigations from another site), follows redirects of a
// navigation, and sends Sec-Fetch-Site and Origin, so that a test sees
// what a real browser would carry across sites.
package oidctest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// User is a person who can log in at the provider.
type User struct {
	Password string
	// Claims go into the person's ID tokens besides iss, aud, exp, iat
	// and nonce; sub among them.
	Claims map[string]any
}

// Tamper makes the provider misbehave.
type Tamper struct {
	// Claims changes an ID token's claims before it is signed.
	Claims func(claims map[string]any)
	// Key signs ID tokens with a key the provider does not publish.
	Key *rsa.PrivateKey
	// AlgNone issues unsigned ID tokens (alg "none").
	AlgNone bool
}

// Provider is an OpenID Connect provider on a loopback address.
type Provider struct {
	// Issuer is the provider's issuer URL (http://127.0.0.1:port).
	Issuer                 string
	clientID, secret, back string
	key                    *rsa.PrivateKey
	srv                    *httptest.Server

	mu       sync.Mutex
	users    map[string]User
	tamper   Tamper
	requests map[string]authRequest
	codes    map[string]*grant
}

// authRequest is an authorization request waiting for its login.
type authRequest struct {
	redirect, state, nonce, challenge string
}

// grant is a code and what it was issued for.
type grant struct {
	authRequest
	user   string
	issued time.Time
	used   bool
}

// codeLife is how long a code may wait for its exchange.
const codeLife = time.Minute

// New starts a provider with one client, clientID with secret, whose one
// registered redirect URI is redirectURL. It stops when t ends.
func New(t testing.TB, clientID, secret, redirectURL string) *Provider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &Provider{clientID: clientID, secret: secret, back: redirectURL, key: key,
		users: map[string]User{}, requests: map[string]authRequest{}, codes: map[string]*grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("GET /login", p.loginForm)
	mux.HandleFunc("POST /login", p.login)
	mux.HandleFunc("POST /token", p.token)
	p.srv = httptest.NewServer(mux)
	p.Issuer = p.srv.URL
	t.Cleanup(p.srv.Close)
	return p
}

// AddUser lets a person log in at the provider.
func (p *Provider) AddUser(name string, u User) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users[name] = u
}

// SetTamper makes the provider misbehave from now on; Tamper{} stops it.
func (p *Provider) SetTamper(t Tamper) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tamper = t
}

func (p *Provider) discovery(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                p.Issuer,
		"authorization_endpoint":                p.Issuer + "/authorize",
		"token_endpoint":                        p.Issuer + "/token",
		"jwks_uri":                              p.Issuer + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"scopes_supported":                      []string{"openid", "email", "profile", "groups"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
		"code_challenge_methods_supported":      []string{"S256"},
		"grant_types_supported":                 []string{"authorization_code"},
	})
}

func (p *Provider) jwks(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &p.key.PublicKey, KeyID: "k1", Algorithm: string(jose.RS256), Use: "sig"},
	}})
}

// authorize checks an authorization request. A bad client or redirect
// URI is answered here (never redirected to an unregistered address);
// anything else wrong is sent back to the client as an error.
func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != p.clientID || q.Get("redirect_uri") != p.back {
		http.Error(w, "unknown client or redirect_uri not registered", http.StatusBadRequest)
		return
	}
	back := func(code string) {
		v := url.Values{"error": {code}, "state": {q.Get("state")}}
		http.Redirect(w, r, p.back+"?"+v.Encode(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		back("unsupported_response_type")
		return
	case !slices.Contains(strings.Fields(q.Get("scope")), "openid"):
		back("invalid_scope")
		return
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		back("invalid_request")
		return
	}
	id := random()
	p.mu.Lock()
	p.requests[id] = authRequest{redirect: q.Get("redirect_uri"), state: q.Get("state"), nonce: q.Get("nonce"), challenge: q.Get("code_challenge")}
	p.mu.Unlock()
	http.Redirect(w, r, "/login?"+url.Values{"req": {id}}.Encode(), http.StatusFound)
}

// loginPage is the provider's login form.
var loginPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("login").Parse(`<!doctype html>
<title>Log in</title>{{if .Error}}<p>{{.Error}}</p>{{end}}
<form method="post" action="/login">
<input type="hidden" name="req" value="{{.Req}}">
<input name="username"><input name="password" type="password">
<button>Log in</button></form>
`))
})

func (p *Provider) loginForm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = loginPage().Execute(w, map[string]string{"Req": r.URL.Query().Get("req")})
}

// login checks a person's password and sends the browser back to the
// client with a new code.
func (p *Provider) login(w http.ResponseWriter, r *http.Request) {
	id, name := r.PostFormValue("req"), r.PostFormValue("username")
	p.mu.Lock()
	req, ok := p.requests[id]
	u, known := p.users[name]
	good := known && subtle.ConstantTimeCompare([]byte(u.Password), []byte(r.PostFormValue("password"))) == 1
	var code string
	if ok && good {
		delete(p.requests, id)
		code = random()
		p.codes[code] = &grant{authRequest: req, user: name, issued: time.Now()}
	}
	p.mu.Unlock()
	switch {
	case !ok:
		http.Error(w, "no such authorization request", http.StatusBadRequest)
	case !good:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_ = loginPage().Execute(w, map[string]string{"Req": id, "Error": "wrong username or password"})
	default:
		v := url.Values{"code": {code}}
		if req.state != "" {
			v.Set("state", req.state)
		}
		http.Redirect(w, r, req.redirect+"?"+v.Encode(), http.StatusFound)
	}
}

// token exchanges a code for tokens (RFC 6749 4.1.3, RFC 7636 4.6).
func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostFormValue("client_id"), r.PostFormValue("client_secret")
	}
	if id != p.clientID || subtle.ConstantTimeCompare([]byte(secret), []byte(p.secret)) != 1 {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	if r.PostFormValue("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	p.mu.Lock()
	g, ok := p.codes[r.PostFormValue("code")]
	fresh := ok && !g.used && time.Since(g.issued) < codeLife
	if ok {
		g.used = true
	}
	var u User
	var t Tamper
	if fresh {
		u, t = p.users[g.user], p.tamper
	}
	p.mu.Unlock()
	if !fresh || g.redirect != r.PostFormValue("redirect_uri") || !pkce(r.PostFormValue("code_verifier"), g.challenge) {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	claims := map[string]any{}
	for k, v := range u.Claims {
		claims[k] = v
	}
	now := time.Now()
	claims["iss"], claims["aud"], claims["iat"], claims["exp"] = p.Issuer, p.clientID, now.Unix(), now.Add(5*time.Minute).Unix()
	if g.nonce != "" {
		claims["nonce"] = g.nonce
	}
	if t.Claims != nil {
		t.Claims(claims)
	}
	idToken, err := p.sign(claims, t)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": random(), "token_type": "Bearer", "expires_in": 300, "id_token": idToken})
}

// sign writes claims as a compact JWS: RS256 with the published key,
// unless t says otherwise.
func (p *Provider) sign(claims map[string]any, t Tamper) (string, error) {
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	if t.AlgNone {
		enc := base64.RawURLEncoding
		return enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc.EncodeToString(payload) + ".", nil
	}
	key := p.key
	if t.Key != nil {
		key = t.Key
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// pkce reports whether verifier is the one whose S256 challenge is
// challenge.
func pkce(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// random is 32 random bytes, base64url.
func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
