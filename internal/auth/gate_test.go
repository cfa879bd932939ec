package auth

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/sqlite"
)

// TestWrapMCP: quarry mcp --http takes API tokens only (no cookies), of
// people who may start runs on the connection, and hands the handler who
// is asking.
func TestWrapMCP(t *testing.T) {
	ctx := context.Background()
	st, now, tokens := people(t)
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

// TestWrapRefusesWhatAnOutsiderTried: the cases an outside tester found
// open. Reading a monitor runs its query on the connection, so a person
// who may not start runs there reads none; a request with two
// credentials of one kind is ambiguous and refused; a sign-in is JSON
// only; and a run recorded under the request names the person.
func TestWrapRefusesWhatAnOutsiderTried(t *testing.T) {
	ctx := context.Background()
	st, now, tokens := people(t)
	for _, c := range []string{"one", "two"} {
		if err := st.CreateSignIn(ctx, store.SignIn{Hash: Hash(c), User: "bob", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	g := &Gate{People: st, Clock: func() time.Time { return now }, Rand: rand.Reader, Connection: "shop"}
	var owner string
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		owner = event.OwnerOf(r.Context())
	}))
	bearer := func(name string) []string { return []string{"Authorization", "Bearer " + tokens[name]} }
	for _, tt := range []struct {
		name, method, path string
		headers            []string
		body               string
		want               int
	}{
		{"a viewer reads a monitor's series", "GET", "/api/monitors/orders/series", bearer("vic"), "", 403},
		{"a viewer lists the monitors", "GET", "/api/monitors", bearer("vic"), "", 403},
		{"another connection's analyst reads the alerts", "GET", "/api/monitors/orders/alerts", bearer("carol"), "", 403},
		{"an analyst reads a monitor", "GET", "/api/monitors/orders/series", bearer("bob"), "", 200},
		{"a viewer reads runs", "GET", "/api/runs", bearer("vic"), "", 200},
		{"two Authorization headers", "GET", "/api/runs", append(bearer("vic"), bearer("bob")...), "", 401},
		{"two sign-in cookies", "GET", "/api/runs", []string{"Cookie", "quarry_session=one", "Cookie", "quarry_session=two"}, "", 401},
		{"one sign-in cookie", "GET", "/api/runs", []string{"Cookie", "quarry_session=one"}, "", 200},
		{"a sign-in as text/plain", "POST", "/api/session", []string{"Content-Type", "text/plain"}, `{"token":"` + tokens["bob"] + `"}`, 415},
	} {
		owner = ""
		req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
		for i := 0; i < len(tt.headers); i += 2 {
			req.Header.Add(tt.headers[i], tt.headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("%s: %d, want %d: %s", tt.name, rec.Code, tt.want, rec.Body)
		}
		if tt.want == 200 && tt.path != "/api/session" && owner == "" {
			t.Errorf("%s: the handler's context names no owner for the runs it records", tt.name)
		}
	}
}

// people is a state with bob (analyst), vic (viewer) and carol (analyst
// of connection "other" only), each with a token, whose secrets it
// returns by name, and the clock's time.
func people(t *testing.T) (*sqlite.Store, time.Time, map[string]string) {
	t.Helper()
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
	return st, now, tokens
}

// downPeople is a state that cannot be reached, whose errors name it.
type downPeople struct{ People }

func (downPeople) down() error {
	return quarry.Errorf(quarry.KindConnection, "state postgres://quarry:xxxxx@db.internal:5432/quarry?search_path=q cannot be reached")
}
func (d downPeople) TokenByHash(context.Context, string) (store.Token, error) {
	return store.Token{}, d.down()
}
func (d downPeople) SignInByHash(context.Context, string) (store.SignIn, error) {
	return store.SignIn{}, d.down()
}

// TestGateStateDownSaysNothingOfTheState: when the state cannot be
// reached, someone who has not signed in gets 503 and a retry, never the
// state's address.
func TestGateStateDownSaysNothingOfTheState(t *testing.T) {
	st, now, tokens := people(t)
	g := &Gate{People: downPeople{st}, Clock: func() time.Time { return now }, Rand: rand.Reader, Always: true, Connection: "shop"}
	h := g.Wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("reached the route") }))
	for _, req := range []*http.Request{
		httptest.NewRequest("GET", "/api/runs", nil),
		httptest.NewRequest("GET", "/api/session", nil),
	} {
		req.Header.Set("Authorization", "Bearer "+tokens["bob"])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || strings.Contains(rec.Body.String(), "db.internal") || strings.Contains(rec.Body.String(), "postgres") {
			t.Errorf("%s with the state down: %d %s", req.URL.Path, rec.Code, rec.Body)
		}
	}
}

// TestGateWhileTheProjectDoesNotLoad: where the policy cannot be read
// (the knowledge folder does not load), a request that starts a run gets
// the project's error as every other request does, 400 of kind config,
// not 403 (found from outside); MayStartRun gives the same error to a
// request that only reads before it starts one.
func TestGateWhileTheProjectDoesNotLoad(t *testing.T) {
	st, now, tokens := people(t)
	broken := quarry.Errorf(quarry.KindConfig, "knowledge/policy.yaml:3: no column employees.title")
	g := &Gate{People: st, Clock: func() time.Time { return now }, Rand: rand.Reader, Connection: "shop",
		MayUse: func(context.Context, Person) error { return broken }}
	var started error
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { started = g.MayStartRun(r.Context()) }))
	for method, want := range map[string]int{"POST": 400, "GET": 200} {
		started = nil
		req := httptest.NewRequest(method, "/api/run", strings.NewReader(`{"sql":"SELECT 1"}`))
		req.Header.Set("Authorization", "Bearer "+tokens["bob"])
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		said := rec.Body.String()
		if started != nil {
			said += quarry.Message(started)
		}
		if rec.Code != want || !strings.Contains(said, "no column employees.title") {
			t.Errorf("%s: %d %s, MayStartRun %v; want %d and the project's error", method, rec.Code, rec.Body, started, want)
		}
	}
}
