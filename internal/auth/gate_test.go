package auth

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/sqlite"
)

// TestWrapMCP: quarry mcp --http takes API tokens only (no cookies), of
// people who may start runs on the connection, and hands the handler who
// is asking.
func TestWrapMCP(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	tokens := map[string]string{}
	for _, u := range []store.User{{Name: "bob", Role: "analyst"}, {Name: "vic", Role: "viewer"}, {Name: "carol", Role: "analyst", Connections: []string{"other"}}} {
		u.CreatedAt = now
		if err := st.AddUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		secret, hash, err := NewToken(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateToken(ctx, store.Token{ID: "tok_" + u.Name, User: u.Name, Hash: hash, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		tokens[u.Name] = secret
	}
	if err := st.CreateSignIn(ctx, store.SignIn{Hash: Hash("cookie"), User: "bob", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	g := &Gate{People: st, Clock: func() time.Time { return now }, Rand: rand.Reader, Connection: "shop"}
	var reached string
	h := g.WrapMCP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := From(r.Context())
		reached = p.Name
	}))
	for _, tt := range []struct {
		name, header, value string
		want                int
	}{
		{"no token", "", "", 401},
		{"a browser's cookie", "Cookie", "quarry_session=cookie", 401},
		{"a viewer", "Authorization", "Bearer " + tokens["vic"], 403},
		{"another connection's analyst", "Authorization", "Bearer " + tokens["carol"], 403},
		{"an analyst", "Authorization", "Bearer " + tokens["bob"], 200},
	} {
		reached = ""
		req := httptest.NewRequest("POST", "/mcp", nil)
		if tt.header != "" {
			req.Header.Set(tt.header, tt.value)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.want || (tt.want == 200) != (reached == "bob") {
			t.Errorf("%s: %d, reached as %q; want %d: %s", tt.name, rec.Code, reached, tt.want, rec.Body)
		}
	}
	// The token's use is recorded (once a minute at most).
	tk, err := st.TokenByHash(ctx, Hash(tokens["bob"]))
	if err != nil || !tk.LastUsed.Equal(now) {
		t.Errorf("bob's token after use: %+v, %v", tk, err)
	}
	// An expired sign-in is refused and forgotten.
	if err := st.CreateSignIn(ctx, store.SignIn{Hash: Hash("old"), User: "bob", CreatedAt: now.Add(-2 * time.Hour), ExpiresAt: now}); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/api/runs", nil)
	req.Header.Set("Cookie", "quarry_session=old")
	rec := httptest.NewRecorder()
	g.Wrap(http.NotFoundHandler()).ServeHTTP(rec, req)
	if rec.Code != 401 {
		t.Errorf("an expired sign-in: %d", rec.Code)
	}
	if _, err := st.SignInByHash(ctx, Hash("old")); err == nil {
		t.Error("an expired sign-in was kept")
	}
}
