package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/store"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// team is a server with sign-in on: people of every role, each with a
// token, as quarry serve runs it when the state has people.
type team struct {
	*testServer
	tokens  map[string]string // person → their token's secret
	secrets []string          // every secret handed out: tokens and cookies
}

// people: ann (admin), bob and dan (analysts), vic (viewer), and carol, an
// analyst who may use only the connection "other", not the server's.
func newTeam(t *testing.T) *team {
	t.Helper()
	tm := &team{tokens: map[string]string{}}
	var g *auth.Gate
	tm.testServer = serve(t, newShop(t), options{around: func(st *sqlitestate.Store) (Store, func(http.Handler) http.Handler) {
		g = &auth.Gate{People: st, Clock: time.Now, Rand: rand.Reader, Connection: "shop"}
		return auth.Scope(st), g.Wrap
	}, mayStart: func(ctx context.Context) error { return g.MayStartRun(ctx) }})
	ctx := context.Background()
	now := time.Now()
	for _, u := range []store.User{
		{Name: "ann", Role: "admin"}, {Name: "bob", Role: "analyst"}, {Name: "dan", Role: "analyst", Connections: []string{"shop"}},
		{Name: "vic", Role: "viewer"}, {Name: "carol", Role: "analyst", Connections: []string{"other"}},
	} {
		u.CreatedAt = now
		if err := tm.st.AddUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		tm.tokens[u.Name] = tm.newToken(t, u.Name)
	}
	return tm
}

func (tm *team) newToken(t *testing.T, user string) string {
	t.Helper()
	secret, hash, err := auth.NewToken(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if err := tm.st.CreateToken(context.Background(), store.Token{ID: "tok_" + user + "_" + hash[7:15], User: user, Hash: hash, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	tm.secrets = append(tm.secrets, secret)
	return secret
}

func bearer(secret string) []string { return []string{"Authorization", "Bearer " + secret} }

// runs returns every run in the state, whoever owns it.
func (tm *team) runs(t *testing.T) []event.RunState {
	t.Helper()
	rs, err := tm.st.Runs(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// run runs SQL as a person and returns the run's and the result's IDs.
func (tm *team) run(t *testing.T, who string) (runID, resultID string) {
	t.Helper()
	res, b := tm.do(t, "POST", "/api/run", `{"sql":"SELECT country, count(*) AS n FROM orders GROUP BY country"}`, bearer(tm.tokens[who])...)
	if res.StatusCode != 200 {
		t.Fatalf("%s runs SQL: %d %s", who, res.StatusCode, b)
	}
	var out runResponse
	if err := json.Unmarshal(b, &out); err != nil || out.RunID == "" || out.ResultID == "" {
		t.Fatalf("%s runs SQL: %v %s", who, err, b)
	}
	return out.RunID, out.ResultID
}

func wantError(t *testing.T, res *http.Response, b []byte, status int, kind string) {
	t.Helper()
	var body struct{ Error apiError }
	if res.StatusCode != status || json.Unmarshal(b, &body) != nil || body.Error.Kind != kind {
		t.Fatalf("status %d %s; want %d with kind %s", res.StatusCode, b, status, kind)
	}
}

func TestSignInRefusesWhoIsNotKnown(t *testing.T) {
	tm := newTeam(t)
	ctx := context.Background()
	revoked := tm.newToken(t, "bob")
	var revokedID string
	toks, _ := tm.st.Tokens(ctx)
	for _, tk := range toks {
		if tk.Hash == auth.Hash(revoked) {
			revokedID = tk.ID
		}
	}
	if err := tm.st.RevokeToken(ctx, revokedID, time.Now()); err != nil {
		t.Fatal(err)
	}
	gone := tm.newToken(t, "dan")
	if err := tm.st.RemoveUser(ctx, "dan", time.Now()); err != nil {
		t.Fatal(err)
	}
	wrong, _, _ := auth.NewToken(rand.Reader)
	tests := []struct {
		name   string
		header []string
	}{
		{"no token", nil},
		{"a token quarry never made", bearer(wrong)},
		{"not a token", bearer("hunter2")},
		{"another person's token's hash", bearer(auth.Hash(tm.tokens["ann"]))},
		{"a revoked token", bearer(revoked)},
		{"the token of a removed person", bearer(gone)},
		{"not Bearer", []string{"Authorization", "Basic " + tm.tokens["ann"]}},
		{"a made-up cookie", []string{"Cookie", "quarry_session=" + strings.TrimPrefix(wrong, auth.TokenPrefix)}},
		{"the token as the cookie", []string{"Cookie", "quarry_session=" + tm.tokens["ann"]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct{ method, path, body string }{
				{"POST", "/api/run", `{"sql":"SELECT 1"}`},
				{"POST", "/ask", `{"question":"number of orders"}`},
				{"POST", "/api/chat", `{"message":"number of orders"}`},
				{"GET", "/api/runs", ""},
				{"GET", "/api/sessions", ""},
				{"GET", "/api/session", ""},
			} {
				res, b := tm.do(t, r.method, r.path, r.body, tt.header...)
				wantError(t, res, b, 401, "unauthenticated")
				if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s %s: no WWW-Authenticate: Bearer", r.method, r.path)
				}
			}
			// The same token cannot sign a browser in either.
			token := ""
			if len(tt.header) == 2 && tt.header[0] == "Authorization" {
				_, token, _ = strings.Cut(tt.header[1], " ")
			}
			if token == tm.tokens["ann"] {
				return
			}
			body, _ := json.Marshal(map[string]string{"token": token})
			res, b := tm.do(t, "POST", "/api/session", string(body))
			wantError(t, res, b, 401, "unauthenticated")
			if len(res.Cookies()) != 0 {
				t.Errorf("a refused sign-in set cookies %v", res.Cookies())
			}
		})
	}
	if rs := tm.runs(t); len(rs) != 0 {
		t.Errorf("refused requests ran %d runs", len(rs))
	}
	// The UI and the health check answer everyone.
	res, _ := tm.do(t, "GET", "/", "")
	if res.StatusCode != 200 {
		t.Errorf("GET / without a token: %d", res.StatusCode)
	}
	res, _ = tm.do(t, "GET", "/api/health", "")
	if res.StatusCode != 200 {
		t.Errorf("GET /api/health without a token: %d", res.StatusCode)
	}
}

func TestRolesDecideWhoStartsRuns(t *testing.T) {
	tm := newTeam(t)
	for _, who := range []string{"vic", "carol"} {
		for _, r := range []struct{ path, body string }{
			{"/api/run", `{"sql":"SELECT 1"}`},
			{"/ask", `{"question":"number of orders"}`},
			{"/api/chat", `{"message":"number of orders"}`},
			{"/api/feedback", `{"run_id":"r_x","up":true}`},
			{"/api/workflows/run", `{"name":"x"}`},
		} {
			res, b := tm.do(t, "POST", r.path, r.body, bearer(tm.tokens[who])...)
			wantError(t, res, b, 403, "forbidden")
			want := map[string]string{"vic": "viewer", "carol": "may not use connection shop"}[who]
			if !strings.Contains(string(b), want) {
				t.Errorf("%s POST %s: %s; want it to say %q", who, r.path, b, want)
			}
		}
	}
	if rs := tm.runs(t); len(rs) != 0 {
		t.Fatalf("refused requests ran %d runs", len(rs))
	}
	// A viewer still reads, an analyst on the connection runs.
	res, b := tm.do(t, "GET", "/api/runs", "", bearer(tm.tokens["vic"])...)
	if res.StatusCode != 200 {
		t.Errorf("viewer GET /api/runs: %d %s", res.StatusCode, b)
	}
	res, b = tm.do(t, "POST", "/ask", `{"question":"number of orders"}`, bearer(tm.tokens["dan"])...)
	if res.StatusCode != 200 {
		t.Errorf("analyst dan asks: %d %s", res.StatusCode, b)
	}
	rs := tm.runs(t)
	if len(rs) != 1 || rs[0].Owner != "dan" {
		t.Errorf("runs after dan asked: %+v; want one, owned by dan", rs)
	}
}

func TestEveryoneSeesOnlyTheirOwn(t *testing.T) {
	tm := newTeam(t)
	t.Run("runs", func(t *testing.T) { ownRuns(t, tm) })
	t.Run("sessions", func(t *testing.T) { ownSessions(t, tm) })
}

func ownRuns(t *testing.T, tm *team) {
	annRun, annResult := tm.run(t, "ann")
	bobRun, bobResult := tm.run(t, "bob")
	for _, rs := range tm.runs(t) {
		want := map[string]string{annRun: "ann", bobRun: "bob"}[rs.RunID]
		if rs.Owner != want {
			t.Errorf("run %s has owner %q, want %q", rs.RunID, rs.Owner, want)
		}
	}
	list := func(who string) []string {
		var out []struct {
			RunID string `json:"run_id"`
		}
		res, b := tm.do(t, "GET", "/api/runs", "", bearer(tm.tokens[who])...)
		if res.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
			t.Fatalf("%s GET /api/runs: %d %s", who, res.StatusCode, b)
		}
		var ids []string
		for _, r := range out {
			ids = append(ids, r.RunID)
		}
		return ids
	}
	if got := list("bob"); len(got) != 1 || got[0] != bobRun {
		t.Errorf("bob lists %v; want only %s", got, bobRun)
	}
	if got := list("vic"); len(got) != 0 {
		t.Errorf("vic lists %v; want none", got)
	}
	if got := list("ann"); len(got) != 2 {
		t.Errorf("the admin lists %v; want both runs", got)
	}
	// Someone else's run is not found, exactly like a run that does not
	// exist: the answer does not confirm the ID.
	for _, who := range []string{"bob", "vic"} {
		for _, path := range []string{
			"/api/runs/" + annRun, "/api/runs/" + annRun + "/events", "/api/runs/" + annRun + "/export?format=json",
			"/api/results/" + annResult, "/api/runs/" + annRun[:len(annRun)-1],
		} {
			res, b := tm.do(t, "GET", path, "", bearer(tm.tokens[who])...)
			wantError(t, res, b, 404, "not_found")
			if strings.Contains(string(b), "ann") {
				t.Errorf("%s GET %s names the owner: %s", who, path, b)
			}
		}
		res, b := tm.do(t, "POST", "/api/runs/"+annRun+"/rerun", "", bearer(tm.tokens[who])...)
		if who == "bob" {
			wantError(t, res, b, 404, "not_found")
		}
		// A prefix of both runs is read among the person's own runs: an
		// ambiguity never lists someone else's IDs.
		res, b = tm.do(t, "GET", "/api/runs/"+commonPrefix(annRun, bobRun), "", bearer(tm.tokens[who])...)
		if strings.Contains(string(b), annRun) {
			t.Errorf("%s GET a prefix of ann's run: %s", who, b)
		}
		if want := map[string]int{"bob": 200, "vic": 404}[who]; res.StatusCode != want {
			t.Errorf("%s GET a prefix of both runs: %d %s; want %d", who, res.StatusCode, b, want)
		}
	}
	res, b := tm.do(t, "GET", "/api/runs/"+bobRun, "", bearer(tm.tokens["bob"])...)
	if res.StatusCode != 200 {
		t.Errorf("bob reads his own run: %d %s", res.StatusCode, b)
	}
	res, b = tm.do(t, "GET", "/api/results/"+bobResult, "", bearer(tm.tokens["ann"])...)
	if res.StatusCode != 200 {
		t.Errorf("the admin reads bob's result: %d %s", res.StatusCode, b)
	}
}

func ownSessions(t *testing.T, tm *team) {
	res, b := tm.do(t, "POST", "/api/chat", `{"message":"number of orders"}`, bearer(tm.tokens["bob"])...)
	if res.StatusCode != 200 {
		t.Fatalf("bob chats: %d %s", res.StatusCode, b)
	}
	sess, err := tm.st.Sessions(context.Background(), 0)
	if err != nil || len(sess) != 1 || sess[0].Owner != "bob" {
		t.Fatalf("sessions after bob chatted: %+v, %v; want one of bob's", sess, err)
	}
	res, b = tm.do(t, "GET", "/api/sessions/"+sess[0].ID, "", bearer(tm.tokens["vic"])...)
	wantError(t, res, b, 404, "not_found")
	res, b = tm.do(t, "POST", "/api/chat", `{"message":"number of orders","session_id":"`+sess[0].ID+`"}`, bearer(tm.tokens["ann"])...)
	if res.StatusCode != 200 {
		t.Fatalf("the admin continues bob's chat: %d %s", res.StatusCode, b)
	}
	var list []store.Session
	res, b = tm.do(t, "GET", "/api/sessions", "", bearer(tm.tokens["bob"])...)
	if res.StatusCode != 200 || json.Unmarshal(b, &list) != nil || len(list) != 1 {
		t.Errorf("bob lists sessions: %d %s; want his one", res.StatusCode, b)
	}
	res, b = tm.do(t, "GET", "/api/sessions", "", bearer(tm.tokens["vic"])...)
	if res.StatusCode != 200 || json.Unmarshal(b, &list) != nil || len(list) != 0 {
		t.Errorf("vic lists sessions: %d %s; want none", res.StatusCode, b)
	}
}

// signIn signs a browser in with a token and returns its cookie.
func (tm *team) signIn(t *testing.T, who string) *http.Cookie {
	t.Helper()
	res, b := tm.do(t, "POST", "/api/session", `{"token":"`+tm.tokens[who]+`"}`)
	if res.StatusCode != 200 {
		t.Fatalf("%s signs in: %d %s", who, res.StatusCode, b)
	}
	cs := res.Cookies()
	if len(cs) != 1 {
		t.Fatalf("sign-in set cookies %v", cs)
	}
	c := cs[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Value == "" || strings.Contains(c.Value, tm.tokens[who]) {
		t.Fatalf("sign-in cookie %+v: want HttpOnly, SameSite=Strict, Path=/, a secret of its own", c)
	}
	tm.secrets = append(tm.secrets, c.Value)
	return c
}

func TestBrowserSignInAndOut(t *testing.T) {
	tm := newTeam(t)
	c := tm.signIn(t, "bob")
	cookie := []string{"Cookie", c.Name + "=" + c.Value}
	var who struct{ User, Role string }
	res, b := tm.do(t, "GET", "/api/session", "", cookie...)
	if res.StatusCode != 200 || json.Unmarshal(b, &who) != nil || who.User != "bob" || who.Role != "analyst" {
		t.Fatalf("GET /api/session signed in: %d %s", res.StatusCode, b)
	}
	res, b = tm.do(t, "POST", "/api/run", `{"sql":"SELECT 1 AS one"}`, cookie...)
	if res.StatusCode != 200 {
		t.Fatalf("bob runs with his cookie: %d %s", res.StatusCode, b)
	}
	before := len(tm.runs(t))
	// A page of another site cannot use the cookie (the browser would
	// send it along; quarry refuses the origin).
	for _, h := range [][]string{
		{"Origin", "http://evil.example"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"},
	} {
		res, b := tm.do(t, "POST", "/api/run", `{"sql":"SELECT 1"}`, append(h, cookie...)...)
		wantError(t, res, b, 403, "forbidden")
		res, b = tm.do(t, "GET", "/api/runs", "", append(h, cookie...)...)
		wantError(t, res, b, 403, "forbidden")
		res, b = tm.do(t, "POST", "/api/session", `{"token":"`+tm.tokens["ann"]+`"}`, h...)
		wantError(t, res, b, 403, "forbidden")
	}
	if n := len(tm.runs(t)); n != before {
		t.Errorf("cross-origin requests ran %d runs", n-before)
	}
	res, _ = tm.do(t, "DELETE", "/api/session", "", cookie...)
	if res.StatusCode != 204 || len(res.Cookies()) != 1 || res.Cookies()[0].MaxAge >= 0 {
		t.Errorf("sign-out: %d, cookies %v; want 204 and the cookie deleted", res.StatusCode, res.Cookies())
	}
	res, b = tm.do(t, "GET", "/api/runs", "", cookie...)
	wantError(t, res, b, 401, "unauthenticated")

	// Revoking the token ends the sign-ins made with it.
	c = tm.signIn(t, "vic")
	toks, _ := tm.st.Tokens(context.Background())
	for _, tk := range toks {
		if tk.User == "vic" {
			if err := tm.st.RevokeToken(context.Background(), tk.ID, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, b = tm.do(t, "GET", "/api/runs", "", "Cookie", c.Name+"="+c.Value)
	wantError(t, res, b, 401, "unauthenticated")

	// No token or cookie secret handed out above is anywhere in the state
	// database's files; the tokens' hashes are (the sign-ins above were
	// deleted, but for ann's).
	annCookie := tm.signIn(t, "ann")
	tm.close()
	var files []byte
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(tm.state + suffix)
		if err == nil {
			files = append(files, b...)
		}
	}
	if len(files) == 0 {
		t.Fatal("no state database")
	}
	for _, s := range tm.secrets {
		if bytes.Contains(files, []byte(s)) {
			t.Errorf("secret %s… is in the state database", s[:8])
		}
	}
	for _, s := range append(slices.Collect(maps.Values(tm.tokens)), annCookie.Value) {
		if !bytes.Contains(files, []byte(auth.Hash(s))) {
			t.Errorf("the hash of secret %s… is not in the state database", s[:8])
		}
	}
}

// TestSignInOnlyWithPeople: without people and without --allow-remote the
// server is open as on a single-user machine; with Always (--allow-remote)
// nothing passes without a token even then.
func TestSignInOnlyWithPeople(t *testing.T) {
	for _, always := range []bool{false, true} {
		s := serve(t, newShop(t), options{around: func(st *sqlitestate.Store) (Store, func(http.Handler) http.Handler) {
			g := &auth.Gate{People: st, Clock: time.Now, Rand: rand.Reader, Connection: "shop", Always: always}
			return auth.Scope(st), g.Wrap
		}})
		res, b := s.do(t, "POST", "/api/run", `{"sql":"SELECT 1 AS one"}`)
		if always {
			wantError(t, res, b, 401, "unauthenticated")
			continue
		}
		if res.StatusCode != 200 {
			t.Errorf("no people, loopback: %d %s", res.StatusCode, b)
		}
		res, b = s.do(t, "GET", "/api/session", "")
		if res.StatusCode != 200 || !strings.Contains(string(b), `"required":false`) {
			t.Errorf("GET /api/session with sign-in off: %d %s", res.StatusCode, b)
		}
	}
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// TestReadingAResultAgainIsARun: a result stored cut short is read again
// from its run's SQL, which is a run: someone it was shared with reads it
// only if they may start runs on the connection (found from outside: a
// viewer, and an analyst given another connection, read the 50,000 rows
// of a shared result, as runs of their own).
func TestReadingAResultAgainIsARun(t *testing.T) {
	tm := newTeam(t)
	res, b := tm.do(t, "POST", "/api/run", `{"sql":"SELECT id, amount, status FROM orders"}`, bearer(tm.tokens["bob"])...)
	var run runResponse
	if res.StatusCode != 200 || json.Unmarshal(b, &run) != nil || run.ResultID == "" {
		t.Fatalf("bob runs SQL: %d %s", res.StatusCode, b)
	}
	res, b = tm.do(t, "POST", "/api/runs/"+run.RunID+"/shares", `{"with":["vic","carol","dan"]}`, bearer(tm.tokens["bob"])...)
	if res.StatusCode != 200 {
		t.Fatalf("bob shares the run: %d %s", res.StatusCode, b)
	}
	before := len(tm.runs(t))
	for who, want := range map[string]string{"vic": "viewer", "carol": "may not use connection shop"} {
		res, b := tm.do(t, "GET", "/api/results/"+run.ResultID+"?format=csv", "", bearer(tm.tokens[who])...)
		wantError(t, res, b, 403, "forbidden")
		if !strings.Contains(string(b), want) {
			t.Errorf("%s reads the result again: %s; want it to say %q", who, b, want)
		}
		// The run itself, and its stored rows, are still theirs to read.
		if res, b := tm.do(t, "GET", "/api/runs/"+run.RunID, "", bearer(tm.tokens[who])...); res.StatusCode != 200 {
			t.Errorf("%s reads the shared run: %d %s", who, res.StatusCode, b)
		}
	}
	if after := len(tm.runs(t)); after != before {
		t.Errorf("the refused reads started %d runs", after-before)
	}
	res, b = tm.do(t, "GET", "/api/results/"+run.ResultID+"?format=csv", "", bearer(tm.tokens["dan"])...)
	if res.StatusCode != 200 || strings.Count(string(b), "\n") != 50001 {
		t.Errorf("dan, an analyst on the connection, reads the result again: %d, %d lines", res.StatusCode, strings.Count(string(b), "\n"))
	}
}
