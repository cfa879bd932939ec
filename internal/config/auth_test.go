package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadOIDC(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, `version: 1
auth:
  oidc:
    issuer: https://id.example.com/realms/acme
    client_id: quarry
    client_secret: ${OIDC_SECRET}
    redirect_url: https://quarry.example.com/auth/callback
    scopes: [openid, email, groups]
    groups_claim: groups
`)
	cfg, err := Load(path, testEnv(map[string]string{"OIDC_SECRET": secretValue}))
	if err != nil {
		t.Fatal(err)
	}
	want := &OIDC{Issuer: "https://id.example.com/realms/acme", ClientID: "quarry", ClientSecret: NewSecret(secretValue),
		RedirectURL: "https://quarry.example.com/auth/callback", Scopes: []string{"email", "groups"}, GroupsClaim: "groups", Name: "id.example.com"}
	if diff := cmp.Diff(want, cfg.Auth.OIDC, cmp.Comparer(func(a, b Secret) bool { return a.Value() == b.Value() })); diff != "" {
		t.Errorf("auth.oidc (-want +got):\n%s", diff)
	}
	for _, f := range []func() ([]byte, error){cfg.Redacted, cfg.RedactedJSON} {
		out, err := f()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), secretValue) || !strings.Contains(string(out), "client_secret") || !strings.Contains(string(out), "id.example.com") {
			t.Errorf("redacted config = %s", out)
		}
	}

	// The defaults: scopes email and profile; a provider on this machine
	// may be plain http.
	writeFile(t, path, "version: 1\nauth:\n  oidc:\n    issuer: http://127.0.0.1:5556\n    client_id: q\n    client_secret: ${OIDC_SECRET}\n    redirect_url: http://localhost:8000/auth/callback\n    name: Dex\n")
	cfg, err = Load(path, testEnv(map[string]string{"OIDC_SECRET": secretValue}))
	if err != nil {
		t.Fatal(err)
	}
	if o := cfg.Auth.OIDC; o == nil || !cmp.Equal(o.Scopes, []string{"email", "profile"}) || o.Name != "Dex" || o.Claim != "" {
		t.Errorf("auth.oidc = %+v", o)
	}
}

func TestOIDCErrors(t *testing.T) {
	const good = "    issuer: https://id.example.com\n    client_id: quarry\n    client_secret: ${OIDC_SECRET}\n    redirect_url: https://quarry.example.com/auth/callback\n"
	for _, c := range []struct {
		name, oidc, want string
		env              map[string]string
	}{
		{"no issuer", "    client_id: q\n", "quarry.yaml:3: auth.oidc.issuer: missing", nil},
		{"http issuer elsewhere", strings.Replace(good, "https://id.example.com", "http://id.example.com", 1), "auth.oidc.issuer: expected an https:// URL", nil},
		{"issuer with a query", strings.Replace(good, "https://id.example.com", "https://id.example.com/?x=1", 1), "auth.oidc.issuer: expected an https:// URL", nil},
		{"no client", strings.Replace(good, "    client_id: quarry\n", "", 1), "auth.oidc.client_id: missing", nil},
		{"unset secret", good, "auth.oidc.client_secret: ${OIDC_SECRET} is not set", map[string]string{}},
		{"empty secret", good, `auth.oidc.client_secret: is empty after expansion of "${OIDC_SECRET}"`, map[string]string{"OIDC_SECRET": ""}},
		{"no secret", strings.Replace(good, "    client_secret: ${OIDC_SECRET}\n", "", 1), "auth.oidc.client_secret: missing", nil},
		{"redirect elsewhere", strings.Replace(good, "/auth/callback", "/callback", 1), "auth.oidc.redirect_url: expected quarry's callback", nil},
		{"bad scope", good + "    scopes: [\"a b\"]\n", `auth.oidc.scopes: "a b" is not a scope`, nil},
		{"unknown field", good + "    client_ids: x\n", `auth.oidc.client_ids: unknown field; did you mean "client_id"?`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "quarry.yaml")
			writeFile(t, path, "version: 1\nauth:\n  oidc:\n"+c.oidc)
			env := c.env
			if env == nil {
				env = map[string]string{"OIDC_SECRET": secretValue}
			}
			_, err := Load(path, testEnv(env))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Load = %v; want one line with %q", err, c.want)
			}
		})
	}
}
