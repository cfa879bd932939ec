package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// restrictCountry adds customers.country to the project's policy.yaml.
func restrictCountry(t *testing.T, dir string) {
	t.Helper()
	pol := "restricted:\n  - column: customers.country\n    reason: where a person lives\n"
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(pol), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The project's countries: none of them may be shown once the column is
// restricted.
var countries = []string{"Germany", "Finland", "United States"}

func noCountry(t *testing.T, where, text string) {
	t.Helper()
	for _, c := range countries {
		if strings.Contains(text, c) {
			t.Errorf("%s: the restricted value %q is shown:\n%s", where, c, short(text, 600))
		}
	}
}

// TestPolicyChangeTakesEffectWithoutRestart: quarry serve and quarry mcp
// read the knowledge folder again when its files change, so a column
// restricted while they run is refused on the next request on every
// surface (POST /api/run, POST /ask, the chat, MCP's run_query, ask and
// describe), and results kept before the change come back redacted from
// every surface that reads them (GET /api/results as CSV and JSON, GET
// /api/runs/{id}/export, MCP's get_result, quarry runs export as JSON and
// Markdown), after a restart too.
func TestPolicyChangeTakesEffectWithoutRestart(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s", r.code, r.stderr)
	}
	base := serveForTest(t, dir, nil)
	post := func(path, body string) (int, string) {
		t.Helper()
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	get := func(base, path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	const sql = `{"sql":"select id, country from customers order by id"}`
	code, body := post("/api/run", sql)
	var run struct {
		RunID    string `json:"run_id"`
		ResultID string `json:"result_id"`
	}
	if err := json.Unmarshal([]byte(body), &run); err != nil || code != 200 || run.ResultID == "" || !strings.Contains(body, "Germany") {
		t.Fatalf("before the change, POST /api/run: %d %s", code, body)
	}
	code, body = post("/ask", `{"question":"customers by country"}`)
	var asked struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(body), &asked); err != nil || code != 200 || asked.RunID == "" || !strings.Contains(body, "Germany") {
		t.Fatalf("before the change, POST /ask: %d %s", code, body)
	}
	if _, run := get(base, "/api/runs/"+asked.RunID); !strings.Contains(run, "Germany") {
		t.Fatalf("before the change, the answer's run does not show its cells: %s", short(run, 600))
	}
	mcp := mcpInProcess(t, nil, "-C", dir, "mcp")
	res, out := callJSON(t, mcp.cs, "run_query", map[string]any{"sql": "select id, country from customers order by id"})
	mcpResult, _ := out["result_id"].(string)
	if res.IsError || mcpResult == "" || !strings.Contains(textOf(res)+string(must(json.Marshal(out))), "Germany") {
		t.Fatalf("before the change, MCP run_query: %s %v", textOf(res), out)
	}

	restrictCountry(t, dir)

	// New requests run under the new policy.
	code, body = post("/api/run", sql)
	noCountry(t, "POST /api/run", body)
	if !strings.Contains(body, "restricted") {
		t.Errorf("POST /api/run of a restricted column after the change: %d %s", code, body)
	}
	_, body = post("/ask", `{"question":"customers by country"}`)
	noCountry(t, "POST /ask", body)
	var ask struct {
		Success bool `json:"success"`
	}
	if err := json.Unmarshal([]byte(body), &ask); err != nil || ask.Success {
		t.Errorf("POST /ask by a restricted column was answered: %s", body)
	}
	_, body = post("/api/chat", `{"message":"customers by country"}`)
	noCountry(t, "POST /api/chat", body)
	res, _ = callJSON(t, mcp.cs, "run_query", map[string]any{"sql": "select id, country from customers order by id"})
	noCountry(t, "MCP run_query", textOf(res))
	if !res.IsError {
		t.Errorf("MCP run_query of a restricted column after the change: %s", textOf(res))
	}
	res, out = callJSON(t, mcp.cs, "ask", map[string]any{"question": "customers by country"})
	noCountry(t, "MCP ask", textOf(res)+string(must(json.Marshal(out))))
	_, desc := callJSON(t, mcp.cs, "describe", nil)
	if d := string(must(json.Marshal(desc))); !strings.Contains(d, `{"name":"country","restricted":true,"type":"text"}`) {
		t.Errorf("describe does not mark customers.country restricted after the change: %s", short(d, 2000))
	}

	// Results kept before the change come back redacted.
	check := func(where string, code int, text string) {
		t.Helper()
		noCountry(t, where, text)
		if code != 200 || !strings.Contains(text, "[restricted]") && !withheldWhole(text) {
			t.Errorf("%s: %d, the kept result is not shown redacted:\n%s", where, code, short(text, 600))
		}
	}
	for _, f := range []string{"csv", "json"} {
		code, body := get(base, "/api/results/"+run.ResultID+"?format="+f)
		check("GET /api/results ("+f+")", code, body)
	}
	code, body = get(base, "/api/runs/"+run.RunID+"/export")
	check("GET /api/runs/{id}/export", code, body)
	// An answer recorded with the result's first rows: its cells and the
	// values in its text are redacted too.
	code, body = get(base, "/api/runs/"+asked.RunID)
	check("GET /api/runs/{id} of an answer", code, body)
	code, body = get(base, "/api/runs/"+asked.RunID+"/export")
	check("GET /api/runs/{id}/export of an answer", code, body)
	r := quarryCmd(t, "", "-C", dir, "runs", "export", asked.RunID, "--format", "md")
	check("quarry runs export --format md of an answer", map[bool]int{true: 200}[r.code == 0], r.stdout+r.stderr)
	res, page := callJSON(t, mcp.cs, "get_result", map[string]any{"result_id": mcpResult})
	check("MCP get_result", 200, textOf(res)+string(must(json.Marshal(page))))
	r = quarryCmd(t, "", "-C", dir, "runs", "export", run.RunID)
	check("quarry runs export", map[bool]int{true: 200}[r.code == 0], r.stdout+r.stderr)
	r = quarryCmd(t, "", "-C", dir, "runs", "export", run.RunID, "--format", "md")
	check("quarry runs export --format md", map[bool]int{true: 200}[r.code == 0], r.stdout+r.stderr)
	// The terminal's own views of a run, too (found from outside: they
	// printed the answer and its checks in clear).
	for _, args := range [][]string{{"show", asked.RunID}, {"show", asked.RunID, "--json"}, {"events", asked.RunID}, {"events", asked.RunID, "--json"}} {
		r = quarryCmd(t, "", append([]string{"-C", dir, "runs"}, args...)...)
		check("quarry runs "+strings.Join(args, " "), map[bool]int{true: 200}[r.code == 0], r.stdout+r.stderr)
	}

	// After a restart, too.
	again := serveForTest(t, dir, nil)
	code, body = get(again, "/api/results/"+run.ResultID+"?format=csv")
	check("GET /api/results after a restart", code, body)
}

// withheldWhole reports whether text shows a result withheld whole: its
// column names and no rows (JSON, a CSV of its header alone, a Markdown
// export of 0 rows).
func withheldWhole(text string) bool {
	t := strings.TrimSpace(text)
	return strings.Contains(t, `"rows":[]`) || strings.Contains(t, `"rows": []`) ||
		!strings.Contains(t, "\n") && strings.Contains(t, ",") || strings.Contains(t, "**Rows:** 0")
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestPolicyChangeRedactsAliasedColumns: a result kept before a column was
// restricted, whose columns carry the column's values under other names
// (country AS place, upper(country)), is read back by lineage: its run's
// SQL is checked with the policy of the moment, and a result whose SQL
// reads the column comes back with every cell redacted, from every surface
// that reads it. A result whose SQL reads no restricted column is shown as
// it was kept.
func TestPolicyChangeRedactsAliasedColumns(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s", r.code, r.stderr)
	}
	base := serveForTest(t, dir, nil)
	post := func(body string) (string, string) {
		t.Helper()
		res, err := http.Post(base+"/api/run", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var run struct {
			RunID    string `json:"run_id"`
			ResultID string `json:"result_id"`
		}
		if err := json.Unmarshal(b, &run); err != nil || res.StatusCode != 200 || run.ResultID == "" {
			t.Fatalf("POST /api/run %s: %d %s", body, res.StatusCode, b)
		}
		return run.RunID, run.ResultID
	}
	get := func(base, path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	const aliased = "select id, country AS place, upper(country) AS c2, lower(country) AS country_lc from customers order by id"
	runID, resultID := post(`{"sql":"` + aliased + `"}`)
	cleanRun, cleanResult := post(`{"sql":"select id, name from customers order by id"}`)
	if _, body := get(base, "/api/results/"+resultID+"?format=csv"); !strings.Contains(body, "Germany") {
		t.Fatalf("before the change, the aliased result does not show the countries: %s", short(body, 600))
	}
	mcp := mcpInProcess(t, nil, "-C", dir, "mcp")
	res, out := callJSON(t, mcp.cs, "run_query", map[string]any{"sql": aliased})
	mcpResult, _ := out["result_id"].(string)
	if res.IsError || mcpResult == "" {
		t.Fatalf("before the change, MCP run_query: %s %v", textOf(res), out)
	}

	restrictCountry(t, dir)

	check := func(where string, code int, text string) {
		t.Helper()
		noCountry(t, where, text)
		for _, c := range []string{"GERMANY", "germany", "FINLAND"} {
			if strings.Contains(text, c) {
				t.Errorf("%s: a value derived from the restricted column (%q) is shown:\n%s", where, c, short(text, 600))
			}
		}
		if code != 200 || !strings.Contains(text, "[restricted]") && !withheldWhole(text) {
			t.Errorf("%s: %d, the kept result is not shown redacted:\n%s", where, code, short(text, 600))
		}
	}
	for _, f := range []string{"csv", "json"} {
		code, body := get(base, "/api/results/"+resultID+"?format="+f)
		check("GET /api/results ("+f+")", code, body)
	}
	code, body := get(base, "/api/runs/"+runID+"/export")
	check("GET /api/runs/{id}/export", code, body)
	res, page := callJSON(t, mcp.cs, "get_result", map[string]any{"result_id": mcpResult})
	check("MCP get_result", 200, textOf(res)+string(must(json.Marshal(page))))
	r := quarryCmd(t, "", "-C", dir, "runs", "export", runID)
	check("quarry runs export", map[bool]int{true: 200}[r.code == 0], r.stdout+r.stderr)
	r = quarryCmd(t, "", "-C", dir, "runs", "export", runID, "--format", "md")
	noCountry(t, "quarry runs export --format md", r.stdout+r.stderr)

	// A result whose SQL reads no restricted column is shown as kept.
	code, body = get(base, "/api/results/"+cleanResult+"?format=csv")
	if code != 200 || strings.Contains(body, "[restricted]") || !strings.Contains(body, "id,name") {
		t.Errorf("a clean result after the change: %d %s", code, short(body, 600))
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "export", cleanRun)
	if r.code != 0 || strings.Contains(r.stdout, "[restricted]") {
		t.Errorf("quarry runs export of a clean run: exit %d\n%s%s", r.code, short(r.stdout, 600), r.stderr)
	}
}
