package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestServeGroupPolicy runs quarry serve as a real process with people in
// groups (quarry users add --group, set-groups) and a policy.yaml whose
// groups restrict a column: a member's statements that read it are
// refused by the server, everyone else's run, and a change of someone's
// groups holds from their next request, without a restart.
func TestServeGroupPolicy(t *testing.T) {
	s := serveDemoProcess(t)
	s.stop()
	policy := filepath.Join(s.dir, "knowledge", "policy.yaml")
	orig, err := os.ReadFile(policy)
	if err != nil {
		t.Fatal(err)
	}
	groups := "\ngroups:\n  support:\n    restricted:\n      - column: customers.city\n        reason: support reads no addresses\n  contractors:\n    connections: [warehouse]\n"
	if err := os.WriteFile(policy, append(orig, groups...), 0o644); err != nil {
		t.Fatal(err)
	}
	monitor := "metric: orders\ndimensions: [city]\ngrain: week\nschedule: every Monday at 9\n"
	if err := os.MkdirAll(filepath.Join(s.dir, "knowledge", "monitors"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "knowledge", "monitors", "orders_by_city.yaml"), []byte(monitor), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"users", "add", "ann", "--role", "admin"}, 0, ""},
		{[]string{"users", "add", "bob", "--role", "analyst", "--group", "support"}, 0, "groups support"},
		{[]string{"users", "add", "eve", "--role", "analyst", "--group", "no good"}, quarry.ExitUsage, ""},
		{[]string{"users", "set-groups", "nobody", "support"}, quarry.ExitInput, ""},
		{[]string{"users", "set-groups"}, quarry.ExitUsage, ""},
		{[]string{"users", "list"}, 0, "support"},
		{[]string{"users", "set-connections", "bob", "nope"}, quarry.ExitUsage, ""},
		{[]string{"users", "set-connections", "bob", "demo"}, 0, "bob may use demo"},
		{[]string{"users", "set-connections", "bob"}, 0, "every connection"},
	} {
		r := quarryProc(t, s.bin, s.dir, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout, c.out) {
			t.Errorf("quarry %s: exit %d, want %d\n%s%s", strings.Join(c.args, " "), r.code, c.code, r.stdout, r.stderr)
		}
		if c.code != 0 {
			oneLineError(t, result{stderr: r.stderr})
		}
	}
	if r := quarryProc(t, s.bin, s.dir, "users", "add", "cat", "--role", "analyst", "--group", "finance"); r.code != 0 || !strings.Contains(r.stderr, `no group "finance"`) {
		t.Errorf("a group policy.yaml does not name: exit %d\n%s", r.code, r.stderr)
	}
	token := func(user string) string {
		r := quarryProc(t, s.bin, s.dir, "tokens", "create", "--user", user)
		if r.code != 0 {
			t.Fatalf("tokens create: %s", r.stderr)
		}
		return strings.TrimSpace(r.stdout)
	}
	if r := quarryProc(t, s.bin, s.dir, "users", "add", "carl", "--role", "analyst", "--group", "contractors"); r.code != 0 {
		t.Fatalf("users add carl: %s", r.stderr)
	}
	ann, bob, carl := token("ann"), token("bob"), token("carl")
	if r := quarryProc(t, s.bin, s.dir, "doctor"); r.code == 0 || !strings.Contains(r.stdout, `group contractors of policy.yaml may use connection "warehouse"`) {
		t.Errorf("doctor on a group limited to a connection quarry.yaml lacks: exit %d\n%s", r.code, r.stdout)
	}
	if r := quarryProc(t, s.bin, s.dir, "users", "set-groups", "nobody", "finance"); r.code != quarry.ExitInput || strings.Contains(r.stderr, "finance") {
		t.Errorf("set-groups for nobody: exit %d\n%s", r.code, r.stderr)
	}
	s.start(t)
	call := func(method, path, body, secret string) (int, string) {
		t.Helper()
		return s.call(t, method, path, body, secret)
	}
	run := func(secret, sql string) (int, string) {
		t.Helper()
		return call("POST", "/api/run", `{"sql":"`+sql+`"}`, secret)
	}
	const city = "SELECT city, count(*) AS n FROM customers GROUP BY city"
	code, b := run(ann, city)
	var annRun struct {
		RunID    string `json:"run_id"`
		ResultID string `json:"result_id"`
	}
	if code != 200 || json.Unmarshal([]byte(b), &annRun) != nil || annRun.ResultID == "" {
		t.Fatalf("ann reads cities: %d %s", code, b)
	}
	if code, b := run(bob, city); code == 200 || !strings.Contains(b, "city") || strings.Contains(b, "Berlin") {
		t.Errorf("bob (support) reads cities: %d %s", code, b)
	}
	if code, b := run(bob, "SELECT count(*) AS n FROM customers"); code != 200 {
		t.Errorf("bob counts customers: %d %s", code, b)
	}
	// A group limited to other connections starts nothing here, on any
	// route, and still reads.
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/run", `{"sql":"SELECT 1"}`},
		{"POST", "/ask", `{"question":"number of orders"}`},
		{"GET", "/api/monitors", ""},
	} {
		if code, b := call(c.method, c.path, c.body, carl); code != 403 || !strings.Contains(b, "contractors") || !strings.Contains(b, "warehouse") {
			t.Errorf("carl (contractors) %s %s: %d %s", c.method, c.path, code, b)
		}
	}
	if code, b := call("GET", "/api/runs", "", carl); code != 200 {
		t.Errorf("carl lists his runs: %d %s", code, b)
	}
	// A monitor by a column bob's group may not read: withheld from him,
	// not an error of the monitor's file.
	if code, b := call("GET", "/api/monitors/orders_by_city/alerts", "", bob); code >= 500 || code == 400 || strings.Contains(b, "does not compile") {
		t.Errorf("bob reads the alerts of a monitor by city: %d %s", code, b)
	}
	if code, b := call("GET", "/api/monitors/orders_by_city/alerts", "", ann); code != 200 {
		t.Errorf("ann reads its alerts: %d %s", code, b)
	}
	// A workflow's steps run under the policy of the person who runs it.
	for _, node := range []string{
		`{"id":"q","kind":"query","sql":"SELECT city AS town, count(*) AS n FROM customers GROUP BY city ORDER BY n DESC LIMIT 5","next":"done"}`,
		`{"id":"q","kind":"ask","question":"number of customers by city","next":"done"}`,
	} {
		wf := `{"workflow":{"name":"t","nodes":[` + node + `,{"id":"done","kind":"end","message":"ok"}]}}`
		code, b := call("POST", "/api/workflows/run", wf, bob)
		if strings.Contains(b, "Denver") || strings.Contains(b, "Chicago") || strings.Contains(b, `"status":"completed"`) {
			t.Errorf("bob's workflow read cities: %d %.400s", code, b)
		}
		if code, b := call("POST", "/api/workflows/run", wf, ann); code != 200 || !strings.Contains(b, "Denver") {
			t.Errorf("ann's workflow: %d %.300s", code, b)
		}
	}

	// Sharing: ann's run is bob's to read once shared with his group, its
	// result redacted as his group's policy says; only ann (or an admin)
	// shares it, with people who exist.
	runPath, resultPath := "/api/runs/"+annRun.RunID, "/api/results/"+annRun.ResultID
	if code, b := call("GET", runPath, "", bob); code != 404 {
		t.Errorf("bob reads ann's run before it is shared: %d %s", code, b)
	}
	if code, b := call("POST", runPath+"/shares", `{"with":["group:Support"]}`, ann); code != 200 || !strings.Contains(b, `"with":"group:support"`) || !strings.Contains(b, `"by":"ann"`) {
		t.Errorf("ann shares with support: %d %s", code, b)
	}
	if code, b := call("POST", runPath+"/shares", `{"with":["nobody"]}`, ann); code != 400 || !strings.Contains(b, "nobody") {
		t.Errorf("sharing with nobody: %d %s", code, b)
	}
	if code, b := call("GET", runPath, "", bob); code != 200 {
		t.Errorf("bob reads the run shared with his group: %d %s", code, b)
	}
	if code, b := call("GET", "/api/runs", "", bob); code != 200 || !strings.Contains(b, annRun.RunID) {
		t.Errorf("bob's list lacks the run shared with him: %d %s", code, b)
	}
	if code, b := call("GET", resultPath, "", bob); code != 200 || !strings.Contains(b, `"rows":[]`) || strings.Contains(b, "Berlin") {
		t.Errorf("bob reads the shared result: %d %.300s", code, b)
	}
	if code, b := call("GET", resultPath, "", ann); code != 200 || strings.Contains(b, "[restricted]") {
		t.Errorf("ann reads her result: %d %.300s", code, b)
	}
	// A run that filters on a column bob's group restricts, shared with
	// him: neither its cells nor how many rows it found, which he may not
	// count himself (found from outside: the row count of "… WHERE
	// amount > 100" in the run, its result, its events and its export).
	code, b = run(ann, "SELECT id FROM customers WHERE city = 'Denver' ORDER BY id")
	var denver struct {
		RunID    string `json:"run_id"`
		ResultID string `json:"result_id"`
		RowCount int    `json:"row_count"`
	}
	if code != 200 || json.Unmarshal([]byte(b), &denver) != nil || denver.RowCount < 2 {
		t.Fatalf("ann lists Denver's customers: %d %.300s", code, b)
	}
	if code, b := call("POST", "/api/runs/"+denver.RunID+"/shares", `{"with":["bob"]}`, ann); code != 200 {
		t.Fatalf("ann shares with bob: %d %s", code, b)
	}
	count := fmt.Sprintf(`"rows":%d`, denver.RowCount)
	for _, path := range []string{"/api/runs/" + denver.RunID, "/api/runs/" + denver.RunID + "/events", "/api/results/" + denver.ResultID, "/api/runs/" + denver.RunID + "/export?format=md"} {
		code, b := call("GET", path, "", bob)
		if code != 200 && code != 404 || strings.Contains(b, count) || strings.Contains(b, fmt.Sprintf(`"row_count":%d`, denver.RowCount)) || strings.Contains(b, fmt.Sprintf("%d rows", denver.RowCount)) {
			t.Errorf("bob reads %s: %d %.400s; want no count of %d", path, code, b, denver.RowCount)
		}
		var res struct {
			Rows []json.RawMessage `json:"rows"`
		}
		if strings.HasPrefix(path, "/api/results/") && (json.Unmarshal([]byte(b), &res) != nil || len(res.Rows) != 0) {
			t.Errorf("bob reads the result: %d rows of [restricted], want none: %.300s", len(res.Rows), b)
		}
	}
	// An answer filtered by city, shared with him: not how many
	// segments it listed, by its cells, nor what kind of chart it drew
	// (found from outside: cells of [restricted] counted the rows).
	code, b = call("POST", "/ask", `{"question":"number of customers in New York by segment"}`, ann)
	var byCity struct {
		RunID string `json:"run_id"`
	}
	if code != 200 || json.Unmarshal([]byte(b), &byCity) != nil || byCity.RunID == "" {
		t.Fatalf("ann asks for New York's customers by segment: %d %.300s", code, b)
	}
	if code, b := call("GET", "/api/runs/"+byCity.RunID, "", ann); code != 200 || !strings.Contains(b, `"cells"`) || !strings.Contains(b, `"chart":"`) {
		t.Fatalf("ann reads her answer: %d %.400s; want its cells and chart", code, b)
	}
	if code, b := call("POST", "/api/runs/"+byCity.RunID+"/shares", `{"with":["bob"]}`, ann); code != 200 {
		t.Fatalf("ann shares the answer with bob: %d %s", code, b)
	}
	for _, path := range []string{"/api/runs/" + byCity.RunID, "/api/runs/" + byCity.RunID + "/events", "/api/runs/" + byCity.RunID + "/export"} {
		code, b := call("GET", path, "", bob)
		if code != 200 && code != 404 || strings.Contains(b, `"cells"`) || strings.Contains(b, `"chart":"`) || strings.Contains(b, "Denver") {
			t.Errorf("bob reads %s: %d %.400s; want no cells and no chart", path, code, b)
		}
	}
	// Questions that name a city loosely, or misspell one, shared with
	// him: neither the stored spelling in the SQL and the reading nor a
	// city suggested comes back (found from outside: 'SUMMER10' in the
	// SQL, "closest known terms: holiday15" in the message).
	for _, c := range []struct{ q, city string }{
		{"number of customers in denver", "Denver"}, // the stored spelling
		{"number of customers in Denvr", "denver"},  // the suggestion
	} {
		code, b := call("POST", "/ask", `{"question":"`+c.q+`"}`, ann)
		var asked struct {
			RunID string `json:"run_id"`
		}
		if code != 200 && code != 422 || json.Unmarshal([]byte(b), &asked) != nil || asked.RunID == "" || !strings.Contains(b, c.city) {
			t.Fatalf("ann asks %q: %d %.400s; want %s read or suggested", c.q, code, b, c.city)
		}
		if code, b := call("POST", "/api/runs/"+asked.RunID+"/shares", `{"with":["bob"]}`, ann); code != 200 {
			t.Fatalf("ann shares %q with bob: %d %s", c.q, code, b)
		}
		for _, path := range []string{"/api/runs/" + asked.RunID, "/api/runs/" + asked.RunID + "/events", "/api/runs/" + asked.RunID + "/export"} {
			if code, b := call("GET", path, "", bob); code != 200 || strings.Contains(b, c.city) {
				at := max(0, strings.Index(b, c.city)-200)
				t.Errorf("bob reads %s of %q: %d …%.400s; want no %s", path, c.q, code, b[at:], c.city)
			}
		}
	}
	// A workflow whose query node counts cities, shared with him: what
	// its nodes gave (outputs, the end's message) is withheld in its
	// events, its stream and its export, as in its folded state (found
	// from outside: the cities and counts in clear in the log).
	wf := `{"workflow":{"name":"cities","nodes":[{"id":"q","kind":"query","sql":"SELECT city AS label, count(*) AS n FROM customers GROUP BY city ORDER BY n DESC LIMIT 3","next":"done"},{"id":"done","kind":"end","message":"Top city {{ q.labels[0] }}"}]}}`
	code, b = call("POST", "/api/workflows/run", wf, ann)
	wid := regexp.MustCompile(`"run_id":"(w_[0-9A-Z]+)"`).FindStringSubmatch(b)
	top := regexp.MustCompile(`Top city ([A-Z][a-z]+)`).FindStringSubmatch(b)
	if code != 200 || wid == nil || top == nil {
		t.Fatalf("ann runs a workflow over cities: %d %.400s", code, b)
	}
	if code, b := call("POST", "/api/runs/"+wid[1]+"/shares", `{"with":["bob"]}`, ann); code != 200 {
		t.Fatalf("ann shares the workflow run with bob: %d %s", code, b)
	}
	for _, path := range []string{"/api/runs/" + wid[1], "/api/runs/" + wid[1] + "/events", "/api/runs/" + wid[1] + "/export?format=json", "/api/runs/" + wid[1] + "/stream?after=0"} {
		code, b := call("GET", path, "", bob)
		if at := strings.Index(b, top[1]); code != 200 && code != 404 || at >= 0 {
			t.Errorf("bob reads %s: %d …%.300s; want the cities withheld", path, code, b[max(0, at-200):])
		}
	}
	if code, b := call("POST", "/api/feedback", `{"run_id":"`+annRun.RunID+`","vote":"down","comment":"mine now"}`, bob); code != 422 || !strings.Contains(b, `"kind":"forbidden"`) {
		t.Errorf("bob votes on ann's run: %d %s", code, b)
	}
	if code, b := call("POST", runPath+"/shares", `{"with":["cat"]}`, bob); code != 422 || !strings.Contains(b, `"kind":"forbidden"`) {
		t.Errorf("bob shares ann's run: %d %s", code, b)
	}
	if code, b := call("DELETE", runPath+"/shares/group:support", "", ann); code != 200 || b != "[]\n" {
		t.Errorf("ann takes the share back: %d %q", code, b)
	}
	if code, b := call("GET", resultPath, "", bob); code != 404 {
		t.Errorf("bob reads the result after the share was taken back: %d %.200s", code, b)
	}

	if r := quarryProc(t, s.bin, s.dir, "users", "set-groups", "bob"); r.code != 0 || !strings.Contains(r.stdout, "no group") {
		t.Fatalf("set-groups bob: exit %d\n%s", r.code, r.stderr)
	}
	if code, b := run(bob, city); code != 200 {
		t.Errorf("bob, in no group now, reads cities: %d %s", code, b)
	}
}
