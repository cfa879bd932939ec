package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	mcpauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

// gate decides how a server (serve, mcp --http) checks who is asking
// (docs/auth.md): nil with --no-auth (everyone who can reach it is let
// in); otherwise a gate that requires a token or a sign-in once the state
// has any person, and always with --allow-remote, which refuses to start
// while the state has no person to sign in as. remote: the address is
// reachable from other machines, so the sign-in cookie is Secure (TLS is
// expected in front).
func (a *app) gate(ctx context.Context, srv *runtime.Server, what string, remote, allowRemote, noAuth bool) (*auth.Gate, error) {
	us, err := srv.Store.Users(ctx)
	if err != nil {
		return nil, err
	}
	if noAuth {
		if remote || allowRemote {
			fmt.Fprintf(a.stderr, "quarry: warning: --no-auth: %s asks nobody who they are; anyone who can reach it can query your database\n", what)
		} else if len(us) > 0 {
			fmt.Fprintf(a.stderr, "quarry: warning: --no-auth: %s asks nobody who they are, though %d people are set up to sign in; anyone on this machine can query your database and read every run\n", what, len(us))
		}
		return nil, nil
	}
	if allowRemote && len(us) == 0 {
		return nil, quarry.Errorf(quarry.KindUsage, "--allow-remote needs sign-in: add a person and a token first (quarry users add NAME --role admin; quarry tokens create --user NAME), or pass --no-auth to let in everyone who can reach it (dangerous)")
	}
	if remote {
		fmt.Fprintf(a.stderr, "quarry: %s is reachable from other machines; every request needs an API token or a sign-in (docs/auth.md); put TLS in front of it\n", what)
	}
	return &auth.Gate{People: srv.Store, Clock: srv.Clock, Rand: a.random, Always: allowRemote, Secure: remote, Connection: srv.Connection,
		MayUse: func(ctx context.Context, p auth.Person) error { return srv.MayUse(ctx, p.Groups) }}, nil
}

// bindMCPSessions ties each MCP session to the person who opened it,
// through the SDK's own check: a request that names a session opened by
// someone else is refused (403), so one person's session ID cannot act
// as them for another. It goes behind the gate, which put the person in
// the request's context; with sign-in off (no person) requests pass as
// they are.
func bindMCPSessions(h http.Handler) http.Handler {
	verify := func(ctx context.Context, _ string, _ *http.Request) (*mcpauth.TokenInfo, error) {
		p, ok := auth.From(ctx)
		if !ok {
			return nil, mcpauth.ErrInvalidToken
		}
		return &mcpauth.TokenInfo{UserID: p.Name}, nil
	}
	bound := mcpauth.RequireBearerToken(verify, &mcpauth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := auth.From(r.Context()); ok {
			bound.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// oidcTimeout bounds each request quarry makes of an OpenID Connect
// provider (discovery, its keys, the code exchange).
const oidcTimeout = 15 * time.Second

// oidcSignIn is the sign-in through the provider of quarry.yaml's
// auth.oidc (docs/auth.md), or nil when there is none.
func oidcSignIn(o *config.OIDC) *auth.OIDC {
	if o == nil {
		return nil
	}
	return auth.NewOIDC(auth.OIDCConfig{Name: o.Name, Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: o.ClientSecret.Value(),
		RedirectURL: o.RedirectURL, Scopes: o.Scopes, Claim: o.Claim, GroupsClaim: o.GroupsClaim,
		Client: &http.Client{Timeout: oidcTimeout}})
}
