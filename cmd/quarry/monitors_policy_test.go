package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// deviceProject is a project over a copy of the demo database with a view
// of web_sessions' device (v_dev), a verified query that reads it and a
// monitor of that query (dev2), before any policy restricts the device.
func deviceProject(t *testing.T) string {
	t.Helper()
	demo := demoProject(t)
	dir := workflowProject(t, demo, nil)
	if err := os.MkdirAll(filepath.Join(dir, "knowledge", "monitors"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "monitors", "dev2.yaml"), []byte("name: dev2\nquery: Monthly sessions by device\ngrain: month\nschedule: daily\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(demo, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "demo.db")
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	conn, err := sqlite3.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Exec(`CREATE VIEW v_dev AS SELECT started_at, device, converted FROM web_sessions`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	yaml := "version: 1\nconnection: demo\nconnections:\n  demo:\n    driver: sqlite\n    path: demo.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(dir, "knowledge", "examples", "verified.yaml"), `
- question: Monthly sessions by device
  sql: |
    SELECT date(started_at,'start of month') AS period, device, COUNT(*) AS sessions FROM v_dev GROUP BY 1,2 ORDER BY 1
  verified_by: test
  verified_at: 2026-06-30
`)
	return dir
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// restrictDevice restricts web_sessions.device, and takes out of the
// knowledge what reads it in the clear (the device dimension, the
// verified example by device), as a person would.
func restrictDevice(t *testing.T, dir string) {
	t.Helper()
	k := filepath.Join(dir, "knowledge")
	appendFile(t, filepath.Join(k, "policy.yaml"), "  - column: web_sessions.device\n    reason: test\n")
	cut := func(file, from, to string) {
		t.Helper()
		p := filepath.Join(k, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.Index(s, from)
		j := strings.Index(s[i+1:], to)
		if i < 0 || j < 0 {
			t.Fatalf("%s has no %q … %q", file, from, to)
		}
		if err := os.WriteFile(p, []byte(s[:i]+s[i+1+j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cut("metrics.yaml", "  - name: device\n", "\n  # support")
	cut(filepath.Join("examples", "verified.yaml"), "- question: Sessions and conversion rate by device\n", "\n- question:")
}

// TestMonitorsFollowPolicyChange: the Monitors page's endpoints of a
// running quarry serve take the column policy of the moment each request
// starts, as POST /api/run does: once web_sessions.device is restricted,
// a monitor whose verified query reads it through a view is refused by
// the list, the series and "test now", as quarry watch test refuses it,
// without a restart.
func TestMonitorsFollowPolicyChange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	dir := deviceProject(t)
	base := serveForTest(t, dir, nil)
	call := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	devices := []string{"desktop", "mobile", "tablet"}
	if code, body := call("GET", "/api/monitors/dev2/series?as_of=2026-06-30", ""); code != 200 || !strings.Contains(body, "mobile") {
		t.Fatalf("before the change, the series: %d %s", code, short(body, 600))
	}

	restrictDevice(t, dir)
	if r := quarryCmd(t, "", "-C", dir, "watch", "test", "dev2", "--as-of", "2026-06-30"); r.code == 0 || !strings.Contains(r.stderr, "web_sessions.device") {
		t.Errorf("watch test after the change: %d %s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/monitors/dev2/series?as_of=2026-06-30", ""},
		{"POST", "/api/monitors/dev2/test", `{"as_of":"2026-06-30"}`},
		{"GET", "/api/monitors?as_of=2026-06-30", ""},
	} {
		code, body := call(c.method, c.path, c.body)
		for _, d := range devices {
			if strings.Contains(body, d) {
				t.Errorf("%s %s after the change shows %q: %d %s", c.method, c.path, d, code, short(body, 600))
			}
		}
		if c.path == "/api/monitors?as_of=2026-06-30" {
			if code != 200 || !strings.Contains(body, `"status":"failing"`) {
				t.Errorf("the list after the change: %d %s", code, short(body, 600))
			}
		} else if code != 422 {
			t.Errorf("%s %s after the change: %d %s", c.method, c.path, code, short(body, 600))
		}
	}
}

// TestRedeliverWithholdsUnderPolicyOfNow: quarry watch redeliver tells a
// kept alert under the column policy of now, as GET
// /api/monitors/{name}/alerts shows it: an alert of a monitor whose query
// reads a column restricted since it was kept reaches its webhook with no
// segment, figure or message of the data, saying why, and is not sent
// again after.
func TestRedeliverWithholdsUnderPolicyOfNow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	dir := deviceProject(t)
	hook := startHook(t, http.StatusOK)
	appendFile(t, filepath.Join(dir, "quarry.yaml"), "channels:\n  hook:\n    kind: webhook\n    url: "+hook.URL+"/quarry\n")
	appendFile(t, filepath.Join(dir, "knowledge", "monitors", "dev2.yaml"), "notify: [hook]\n")
	kept := `{"at":"2026-06-01T09:00:00Z","to":["hook"],"monitor":"dev2","kind":"alert","segment":"device=mobile","period_start":"2026-05-01","period_end":"2026-05-31","value":5620.5,"baseline":4321.5,"message":"dev2 for device=mobile rose to 5620.5","investigation":{"baseline_start":"2026-02-01","baseline_end":"2026-04-30","contributors":[{"dimension":"device","value":"tablet","current":777.5,"baseline":555.5}]}}` + "\n"
	if err := os.MkdirAll(filepath.Join(dir, ".quarry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".quarry", "alerts.jsonl"), []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	restrictDevice(t, dir)
	secrets := []string{"mobile", "tablet", "5620", "4321", "777", "555"}
	r := quarryCmd(t, "", "-C", dir, "watch", "redeliver", "--dry-run", "--json")
	for _, s := range secrets {
		if strings.Contains(r.stdout, s) {
			t.Errorf("redeliver --dry-run --json shows %q:\n%s", s, r.stdout)
		}
	}
	r = quarryCmd(t, "", "-C", dir, "watch", "redeliver")
	if r.code != 0 || !strings.Contains(r.stdout, "→ hook: delivered") {
		t.Fatalf("redeliver: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	bodies, _ := hook.got()
	if len(bodies) != 1 {
		t.Fatalf("the webhook got %d posts", len(bodies))
	}
	b, _ := json.Marshal(bodies[0])
	for _, s := range secrets {
		if strings.Contains(string(b)+r.stdout, s) {
			t.Errorf("the redelivered alert tells %q:\n%s\n%s", s, b, r.stdout)
		}
	}
	if !strings.Contains(string(b), "withheld") {
		t.Errorf("the redelivered alert does not say its figures are withheld:\n%s", b)
	}
	if r := quarryCmd(t, "", "-C", dir, "watch", "redeliver"); r.code != 0 || !strings.Contains(r.stdout, "nothing to send") {
		t.Errorf("a second redeliver: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchSaysTheShapeExpected: a verified-query monitor whose result
// has the wrong shape says which column and row failed and what shape a
// monitor's query returns.
func TestWatchSaysTheShapeExpected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo database")
	}
	dir := workflowProject(t, demoProject(t), nil)
	appendFile(t, filepath.Join(dir, "knowledge", "examples", "verified.yaml"), `
- question: Sessions per device
  sql: |
    SELECT device, COUNT(*) AS sessions FROM web_sessions GROUP BY 1
  verified_by: test
  verified_at: 2026-06-30
`)
	if err := os.MkdirAll(filepath.Join(dir, "knowledge", "monitors"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "monitors", "b1.yaml"), []byte("name: b1\nquery: Sessions per device\ngrain: month\nschedule: daily\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "-C", dir, "watch", "test", "b1", "--as-of", "2026-06-30")
	for _, want := range []string{"the first column device must hold dates; row 1", "first day (YYYY-MM-DD) in its first column", "a number in its last", "name a segment", "monitors/b1.yaml"} {
		if r.code == 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("watch test of a query with the wrong shape: exit %d, stderr %q; want %q", r.code, r.stderr, want)
		}
	}
}
