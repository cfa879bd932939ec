package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// quarryEnv runs the CLI with the given environment variables.
func quarryEnv(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb, func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	})
	return result{code, out.String(), errb.String()}
}

// lastRun folds the project's newest run.
func lastRun(t *testing.T, dir string) event.RunState {
	t.Helper()
	st, err := sqlitestate.Open(context.Background(), filepath.Join(dir, ".quarry", "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background(), store.RunFilter{Limit: 1})
	if err != nil || len(runs) == 0 {
		t.Fatalf("no runs: %v", err)
	}
	return runs[0]
}

const byCountry = "SELECT country, count(*) AS customers FROM customers GROUP BY country ORDER BY country"

func answers() []llmtest.Answer {
	return []llmtest.Answer{
		{ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + byCountry + `"}`)}}, Usage: llm.Usage{Input: 900, Output: 40}},
		{ToolUses: []llm.ToolUse{{ID: "t2", Name: "submit_answer", Input: json.RawMessage(`{"answer":"Each country has one customer.","sql":"` + byCountry + `"}`)}}, Usage: llm.Usage{Input: 1000, Output: 30}},
	}
}

func TestAskWithAModelFromTheEnvironment(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewAnthropicServer(t, "sk-test", answers()...)
	r := quarryEnv(t, map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}, "", "-C", dir, "ask", "--json", "how many customers per country?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("%v: %s / %s", err, r.stdout, r.stderr)
	}
	if j["sql"] != byCountry || j["status"] != "succeeded" || !strings.Contains(j["answer"].(string), "Each country") {
		t.Errorf("answer: %v", j)
	}
	st := lastRun(t, dir)
	if !strings.HasPrefix(st.Planner, "anthropic:") || st.ToolCalls != 2 || st.InputTokens != 1900 {
		t.Errorf("run: planner %q, tools %d, tokens %d", st.Planner, st.ToolCalls, st.InputTokens)
	}
	for _, req := range srv.Requests() {
		if !bytes.Contains(req.Body, []byte("not instructions")) {
			t.Error("a request without the system prompt")
		}
	}
}

func TestAskModelFlagChoosesTheProvider(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewOpenAIServer(t, "", answers()...)
	r := quarryEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL}, "", "-C", dir, "ask", "--model", "openai:llama-local", "how many customers per country?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "Each country has one customer") || !strings.Contains(r.stdout, "Germany") {
		t.Errorf("stdout: %s", r.stdout)
	}
	if st := lastRun(t, dir); st.Planner != "openai:llama-local" {
		t.Errorf("planner %q", st.Planner)
	}
	// --model builtin keeps the builtin path (which needs a knowledge folder here).
	r = quarryEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL}, "", "-C", dir, "ask", "--model", "builtin", "how many customers?")
	if r.code == quarry.ExitModel || len(srv.Requests()) != 2 {
		t.Errorf("--model builtin called the model: exit %d, %d requests", r.code, len(srv.Requests()))
	}
	r = quarryEnv(t, nil, "", "-C", dir, "ask", "--model", "gemini:x", "q")
	if r.code != quarry.ExitUsage {
		t.Errorf("--model gemini:x: exit %d", r.code)
	}
}

func TestModelFailuresEndTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  string
		a    llmtest.Answer
		want string
	}{
		{"wrong key", "sk-wrong", llmtest.Answer{}, "refused the key"},
		{"unknown model", "sk-test", llmtest.Answer{Status: 404, Body: `{"type":"error","error":{"type":"not_found_error","message":"model: nope"}}`}, "does not know model"},
		{"garbage", "sk-test", llmtest.Answer{Status: 200, Body: `<html>hello</html>`}, "could not read"},
		{"no key", "", llmtest.Answer{}, "no Anthropic API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := project(t)
			srv := llmtest.NewAnthropicServer(t, "sk-test", tc.a)
			env := map[string]string{"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": tc.key}
			if tc.key == "" {
				env = map[string]string{}
			}
			r := quarryEnv(t, env, "", "-C", dir, "ask", "--model", "anthropic", "how many customers per country?")
			if r.code != quarry.ExitModel {
				t.Fatalf("exit %d, want %d: %s", r.code, quarry.ExitModel, r.stderr)
			}
			oneLineError(t, r)
			if !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
				t.Errorf("stderr %q, stdout %q", r.stderr, r.stdout)
			}
			st := lastRun(t, dir)
			if st.Status != event.StatusFailed || st.FailureReason == "" || st.ErrorKind != string(quarry.KindModel) {
				t.Errorf("run: status %s, reason %q, kind %s", st.Status, st.FailureReason, st.ErrorKind)
			}
		})
	}
}

// manualProject is a project with the demo's knowledge folder and no
// connection: quarry proposes queries and the user runs them.
func manualProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "knowledge"), demo.Knowledge()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestManualModeWithTheBuiltinPlanner(t *testing.T) {
	dir := manualProject(t)
	r := quarryEnv(t, nil, "", "-C", dir, "ask", "--json", "--as-of", "2026-06-30", "revenue by country last year")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var j struct {
		RunID   string   `json:"run_id"`
		Status  string   `json:"status"`
		SQL     string   `json:"sql"`
		Columns []string `json:"columns"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatal(err, r.stdout)
	}
	if j.Status != event.StatusAwaitingResults || j.SQL == "" || len(j.Columns) != 2 {
		t.Fatalf("proposal: %+v", j)
	}
	psql := " " + j.Columns[0] + " | " + j.Columns[1] + "\n---------+--------\n Germany | 1200.5\n France  | 800\n(2 rows)\n"
	r = quarryEnv(t, nil, "a,b,c\n1,2,3\n", "-C", dir, "ask", "--results", "-")
	if r.code != quarry.ExitInput || !strings.Contains(r.stderr, "has 3 columns") {
		t.Errorf("a paste of the wrong shape: exit %d, %s", r.code, r.stderr)
	}
	r = quarryEnv(t, nil, psql, "-C", dir, "ask", "--results", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "Germany") || !strings.Contains(r.stdout, "run by you") {
		t.Errorf("answer: %s", r.stdout)
	}
	st := lastRun(t, dir)
	if st.RunID != j.RunID || st.Status != event.StatusSucceeded || !st.RunByUser || st.Rows != 2 {
		t.Errorf("run %s: %s, by user %v, rows %d", st.RunID, st.Status, st.RunByUser, st.Rows)
	}
	r = quarryEnv(t, nil, psql, "-C", dir, "ask", "--results", "-")
	if r.code == 0 {
		t.Errorf("a second paste with nothing waiting: exit %d", r.code)
	}
}

func TestManualModeWithAModel(t *testing.T) {
	dir := manualProject(t)
	srv := llmtest.NewAnthropicServer(t, "sk-test", llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "p", Name: "propose_query",
		Input: json.RawMessage(`{"sql":"SELECT segment, count(*) AS customers FROM customers GROUP BY segment","columns":["segment","customers"]}`)}}})
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "ask", "--prefer-model", "how many customers per segment?")
	if r.code != 0 || !strings.Contains(r.stdout, "GROUP BY segment") || !strings.Contains(r.stdout, "--results") {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	md := "| segment | customers |\n|---|---|\n| consumer | 10 |\n| business | 4 |\n"
	r = quarryEnv(t, env, md, "-C", dir, "ask", "--results", "-")
	if r.code != 0 || !strings.Contains(r.stdout, "consumer") || !strings.Contains(r.stdout, "run by you") {
		t.Errorf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}

func TestRunFixesARefusedQuery(t *testing.T) {
	dir := project(t)
	fixed := llmtest.Answer{Text: "```sql\nSELECT country\nFROM customers\nORDER BY country\n```"}
	srv := llmtest.NewAnthropicServer(t, "sk-test", fixed, fixed)
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	bad := "SELECT contry\nFROM customers\nORDER BY country"

	r := quarryEnv(t, env, "", "-C", dir, "run", "--no-fix", bad)
	if r.code != quarry.ExitQuery || len(srv.Requests()) != 0 {
		t.Fatalf("--no-fix: exit %d, %d requests", r.code, len(srv.Requests()))
	}
	r = quarryEnv(t, env, "", "-C", dir, "run", bad)
	if r.code != quarry.ExitQuery || !strings.Contains(r.stderr, "+SELECT country") || !strings.Contains(r.stderr, "--fix") || r.stdout != "" {
		t.Fatalf("no terminal, no --fix: exit %d, %s", r.code, r.stderr)
	}
	r = quarryEnv(t, env, "", "-C", dir, "run", "--fix", "--format", "csv", bad)
	if r.code != 0 || r.stdout != "country\nFinland\nGermany\nUnited States\n" {
		t.Fatalf("--fix: exit %d, %q, %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "-SELECT contry") {
		t.Errorf("no diff: %s", r.stderr)
	}
	for _, req := range srv.Requests() {
		for _, v := range []string{"Ada", "Germany", "Linus"} {
			if bytes.Contains(req.Body, []byte(v)) {
				t.Errorf("the fixer was shown a value of the data (%s)", v)
			}
		}
		if !bytes.Contains(req.Body, []byte("contry")) {
			t.Error("the fixer was not shown the SQL and its error")
		}
	}
	if st := lastRun(t, dir); st.Status != event.StatusSucceeded || st.SQL != "SELECT country\nFROM customers\nORDER BY country" {
		t.Errorf("the fixed run: %s %q", st.Status, st.SQL)
	}
	// A fix that writes is refused by the guard and never runs.
	srv = llmtest.NewAnthropicServer(t, "sk-test", llmtest.Answer{Text: "```sql\nDELETE FROM customers\n```"})
	env["ANTHROPIC_BASE_URL"] = srv.URL
	r = quarryEnv(t, env, "", "-C", dir, "run", "--fix", bad)
	if r.code != quarry.ExitQuery || !strings.Contains(r.stderr, "refuses the fix") {
		t.Errorf("a writing fix: exit %d, %s", r.code, r.stderr)
	}
}

func TestSessionsKeepTheContext(t *testing.T) {
	dir := project(t)
	two := append(answers(), answers()...)
	srv := llmtest.NewAnthropicServer(t, "sk-test", append(two, answers()...)...)
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "ask", "--session", "s_demo", "how many customers per country?")
	if r.code != 0 || !strings.Contains(r.stderr, "session s_demo") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = quarryEnv(t, env, "", "-C", dir, "ask", "--continue", "and only in Germany?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	third := srv.Requests()[2].Body
	if !bytes.Contains(third, []byte("conversation")) || !bytes.Contains(third, []byte("how many customers per country?")) {
		t.Errorf("the follow-up lost the context: %s", third)
	}
	if st := lastRun(t, dir); st.SessionID != "s_demo" || st.Question != "and only in Germany?" {
		t.Errorf("run: session %q, question %q", st.SessionID, st.Question)
	}
	// A conversation on standard input: each line a turn of one session.
	r = quarryEnv(t, env, "customers by country\n\n", "-C", dir, "ask", "--loop")
	if r.code != 0 || !strings.Contains(r.stdout, "Each country has one customer") {
		t.Errorf("--loop: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}

func TestBuiltinFollowUps(t *testing.T) {
	dir := demoProject(t)
	r := quarryEnv(t, nil, "", "-C", dir, "ask", "--as-of", "2026-06-30", "revenue last year")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = quarryEnv(t, nil, "", "-C", dir, "ask", "--as-of", "2026-06-30", "--json", "--continue", "and by month?")
	if r.code != 0 || !strings.Contains(r.stderr, `"revenue last year by month"`) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var j struct {
		RowCount int `json:"row_count"`
	}
	json.Unmarshal([]byte(r.stdout), &j)
	if j.RowCount != 12 {
		t.Errorf("revenue by month of last year: %d rows", j.RowCount)
	}
	if st := lastRun(t, dir); st.SessionID == "" || st.Question != "revenue last year by month" {
		t.Errorf("run: session %q, question %q", st.SessionID, st.Question)
	}
}
