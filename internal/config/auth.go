package config

import (
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// Auth is how people sign in to quarry serve besides API tokens
// (docs/auth.md).
type Auth struct {
	// OIDC signs browsers in through an OpenID Connect provider; nil: not
	// configured.
	OIDC *OIDC
}

// OIDC is an OpenID Connect provider that browsers sign in with
// (auth.oidc in quarry.yaml).
type OIDC struct {
	// Issuer is the provider's issuer URL, exactly as its discovery
	// document and ID tokens write it.
	Issuer       string
	ClientID     string
	ClientSecret Secret
	// RedirectURL is quarry's callback as registered with the provider:
	// https://quarry.example/auth/callback.
	RedirectURL string
	// Scopes are asked for besides openid; DefaultOIDCScopes when not
	// given.
	Scopes []string
	// Claim names the ID token claim whose value is a quarry person's
	// name; "" means email (when the provider has not said it is
	// unverified), else preferred_username.
	Claim string
	// GroupsClaim names the claim listing the person's groups, recorded
	// on the sign-in; "" records none.
	GroupsClaim string
	// Name is the provider's name on the sign-in button; the issuer's
	// host when not given.
	Name string
}

// DefaultOIDCScopes are the scopes asked for besides openid.
func DefaultOIDCScopes() []string { return []string{"email", "profile"} }

// oidcDraft is auth.oidc as written, before it is checked.
type oidcDraft struct {
	o         OIDC
	line      int
	secretRaw string
}

// auth decodes the auth: section.
func (d *decoder) auth(n ast.Node, path string, dst **oidcDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	return d.fields(m, path, []field{
		{"oidc", func(n ast.Node, p string) error {
			m, err := d.mapping(n, p)
			if err != nil || m == nil {
				return err
			}
			od := &oidcDraft{line: lineOf(n)}
			*dst = od
			o := &od.o
			return d.fields(m, p, []field{
				{"issuer", d.str(&o.Issuer)},
				{"client_id", d.str(&o.ClientID)},
				{"client_secret", func(n ast.Node, p string) error {
					raw, err := d.secretText(n, p, &o.ClientSecret)
					od.secretRaw = raw
					return err
				}},
				{"redirect_url", d.str(&o.RedirectURL)},
				{"scopes", d.list(&o.Scopes)},
				{"claim", d.str(&o.Claim)},
				{"groups_claim", d.str(&o.GroupsClaim)},
				{"name", d.str(&o.Name)},
			})
		}},
	})
}

// validateOIDC checks auth.oidc and sets cfg.Auth.OIDC.
func (d *decoder) validateOIDC(cfg *Config, od *oidcDraft) error {
	if od == nil {
		return nil
	}
	const p = "auth.oidc"
	o := od.o
	at := func(f string) int {
		if line := d.lines[p+"."+f]; line != 0 {
			return line
		}
		return d.lines[p]
	}
	o.Issuer = strings.TrimSpace(o.Issuer)
	if o.Issuer == "" {
		return d.errAt(at("issuer"), p+".issuer", "missing; write the provider's issuer URL, like https://accounts.example.com")
	}
	if !webURL(o.Issuer) {
		return d.errAt(at("issuer"), p+".issuer", "expected an https:// URL without a query or fragment (http:// only on this machine), like https://accounts.example.com")
	}
	if o.ClientID = strings.TrimSpace(o.ClientID); o.ClientID == "" {
		return d.errAt(at("client_id"), p+".client_id", "missing; write the client ID the provider gave quarry")
	}
	if !o.ClientSecret.IsSet() {
		if od.secretRaw != "" {
			return d.errAt(at("client_secret"), p+".client_secret", "is empty after expansion of %q; set the variable in the environment or in .env beside quarry.yaml", shorten(od.secretRaw))
		}
		return d.errAt(at("client_secret"), p+".client_secret", "missing; write client_secret: ${QUARRY_OIDC_CLIENT_SECRET} and set the variable in .env")
	}
	o.RedirectURL = strings.TrimSpace(o.RedirectURL)
	if u, err := url.Parse(o.RedirectURL); err != nil || !webURL(o.RedirectURL) || u.Path != "/auth/callback" {
		return d.errAt(at("redirect_url"), p+".redirect_url", "expected quarry's callback as registered with the provider, like https://quarry.example.com/auth/callback (http:// only on this machine)")
	}
	var scopes []string
	for _, s := range o.Scopes {
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, " \t\"\\") {
			return d.errAt(at("scopes"), p+".scopes", "%q is not a scope; write scopes as a list like [email, profile, groups]", s)
		}
		if s != "openid" && !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	if o.Scopes == nil {
		scopes = DefaultOIDCScopes()
	}
	o.Scopes = scopes
	o.Claim, o.GroupsClaim, o.Name = strings.TrimSpace(o.Claim), strings.TrimSpace(o.GroupsClaim), strings.TrimSpace(o.Name)
	if o.Name == "" {
		u, _ := url.Parse(o.Issuer)
		o.Name = u.Hostname()
	}
	cfg.Auth.OIDC = &o
	return nil
}

// webURL reports whether s is an absolute https URL without a user,
// query or fragment, or such an http URL to this machine.
func webURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		h := u.Hostname()
		ip := net.ParseIP(h)
		return h == "localhost" || (ip != nil && ip.IsLoopback())
	}
	return false
}
