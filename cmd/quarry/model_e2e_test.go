package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// These tests run `quarry ask` end to end, through the real adapters,
// against the rule-following fakes of llmtest (rules.go): a request that
// breaks a documented rule of the model's family (a dropped or altered
// thinking block, a changed prefix, a prefill, forced tool use, sampling
// parameters, thinking turned off where it cannot be) is a 400, so the run
// would fail; Refused() must also stay empty.

const bySignup = "SELECT country, count(*) AS customers FROM customers WHERE signup_date IS NOT NULL GROUP BY country ORDER BY country"

// thinkingLoop is a three-step tool loop — run_query, run_query again,
// submit_answer — with a thinking block in every reply and a
// redacted_thinking block in the first, as current Claude models send.
func thinkingLoop() []llmtest.Answer {
	return []llmtest.Answer{
		{Thinking: "THINK-ONE: count customers by country", Redacted: true,
			ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + byCountry + `"}`)}}, Usage: llm.Usage{Input: 900, Output: 140}},
		{Thinking: "THINK-TWO: check the signup dates too",
			ToolUses: []llm.ToolUse{{ID: "t2", Name: "run_query", Input: json.RawMessage(`{"sql":"` + bySignup + `"}`)}}, Usage: llm.Usage{Input: 1000, Output: 120}},
		{Thinking: "THINK-THREE: answer",
			ToolUses: []llm.ToolUse{{ID: "t3", Name: "submit_answer", Input: json.RawMessage(`{"answer":"Each country has one customer.","sql":"` + byCountry + `"}`)}}, Usage: llm.Usage{Input: 1100, Output: 60}},
	}
}

// withModelConfig adds a model: block to the project's quarry.yaml.
func withModelConfig(t *testing.T, dir, block string) {
	t.Helper()
	p := filepath.Join(dir, "quarry.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, []byte(block)...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAskThroughEachCurrentClaudeModel proves, for every current Claude
// family and with thinking at its default and turned off, that the agent's
// tool loop sends every assistant turn back exactly as received (thinking
// and redacted_thinking blocks with their signatures), never edits the
// prefix, and sends no shape the model refuses: the fake accepts every
// request and the run succeeds.
func TestAskThroughEachCurrentClaudeModel(t *testing.T) {
	for _, model := range []string{"claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-fable-5-1"} {
		for _, effort := range []string{"", "off", "max"} {
			t.Run(model+"/effort="+effort, func(t *testing.T) {
				dir := project(t)
				if effort != "" {
					withModelConfig(t, dir, "model:\n  effort: "+effort+"\n")
				}
				srv := llmtest.NewAnthropicServer(t, "sk-test", thinkingLoop()...)
				r := quarryEnv(t, map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}, "",
					"-C", dir, "ask", "--json", "--model", "anthropic:"+model, "how many customers per country?")
				if refused := srv.Refused(); len(refused) > 0 {
					t.Fatalf("the fake refused %d requests: %s", len(refused), strings.Join(refused, "\n"))
				}
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				var j map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
					t.Fatalf("%v: %s", err, r.stdout)
				}
				if j["status"] != "succeeded" || j["sql"] != byCountry {
					t.Errorf("answer: %v", j)
				}
				reqs := srv.Requests()
				if len(reqs) != 3 {
					t.Fatalf("%d requests, want 3", len(reqs))
				}
				for i, want := range [][]string{{}, {"THINK-ONE", `"redacted_thinking"`}, {"THINK-ONE", `"redacted_thinking"`, "THINK-TWO"}} {
					for _, w := range want {
						if !bytes.Contains(reqs[i].Body, []byte(w)) {
							t.Errorf("request %d does not send back %s", i+1, w)
						}
					}
				}
				if strings.Contains(r.stdout, "THINK-") || strings.Contains(r.stderr, "THINK-") {
					t.Errorf("thinking reached the user: %s %s", r.stdout, r.stderr)
				}
				st := lastRun(t, dir)
				if st.InputTokens != 3000 || st.OutputTokens != 320 || st.CostMicroUSD == 0 {
					t.Errorf("run: %d in, %d out (thinking included), %d µ$", st.InputTokens, st.OutputTokens, st.CostMicroUSD)
				}
			})
		}
	}
}

// TestAskThroughOpenAICompatibleReasoning runs the tool loop against
// OpenAI-compatible servers of each reasoning family — reasoning_content
// (DeepSeek's API, vLLM, llama.cpp), <think> in the content (Ollama), the
// official reasoning models (default gpt-6-sol) and a plain model — and
// proves that the server accepts every request (reasoning_content is never
// sent back) and that no reasoning text reaches the answer.
func TestAskThroughOpenAICompatibleReasoning(t *testing.T) {
	for _, model := range []string{"deepseek-reasoner", "qwen3:8b", "gpt-6-sol", "llama3.1"} {
		t.Run(model, func(t *testing.T) {
			dir := project(t)
			srv := llmtest.NewOpenAIServer(t, "", thinkingLoop()...)
			r := quarryEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL}, "",
				"-C", dir, "ask", "--json", "--model", "openai:"+model, "how many customers per country?")
			if refused := srv.Refused(); len(refused) > 0 {
				t.Fatalf("the server refused %d requests: %s", len(refused), strings.Join(refused, "\n"))
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var j map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
				t.Fatalf("%v: %s", err, r.stdout)
			}
			answer, _ := j["answer"].(string)
			if j["status"] != "succeeded" || !strings.Contains(answer, "Each country has one customer") {
				t.Errorf("answer: %v", j)
			}
			for _, s := range []string{r.stdout, r.stderr, lastRun(t, dir).Answer} {
				if strings.Contains(s, "THINK-") || strings.Contains(s, "<think>") {
					t.Errorf("reasoning reached the answer: %s", s)
				}
			}
			if n := len(srv.Requests()); n != 3 {
				t.Errorf("%d requests, want 3", n)
			}
		})
	}
}

// TestDoctorPreflight runs `quarry doctor`'s pre-flight round trip against
// the fake of the default Claude model: with a model that calls the tool
// every check is ok, for under a cent; with one that answers in text the
// tools line fails and names the fix, and doctor exits 1; with no key the
// model is not called and doctor says how to set one.
func TestDoctorPreflight(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewAnthropicServer(t, "sk-test")
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "doctor")
	if r.code != 0 || len(srv.Refused()) > 0 {
		t.Fatalf("exit %d, refused %v: %s %s", r.code, srv.Refused(), r.stdout, r.stderr)
	}
	for _, want := range []string{"ok    model      tools: the model called a tool", "ok    model      thinking round trip: ", "ok    model      structured output: ", "ok    model      context size: ", "the pre-flight check used 2 calls"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
	// The fake refuses a second request without the signed thinking block.
	if srv.Preflights() != 2 || len(srv.Refused()) != 0 {
		t.Errorf("pre-flight requests %d, refused %v", srv.Preflights(), srv.Refused())
	}

	srv = llmtest.NewAnthropicServer(t, "sk-test")
	srv.Preflight = llmtest.PreflightNoTools
	env["ANTHROPIC_BASE_URL"] = srv.URL
	r = quarryEnv(t, env, "", "-C", dir, "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "fail  model      tools: the model answered without calling the tool") || !strings.Contains(r.stdout, "→ use a model with tool use") {
		t.Errorf("a model without tools: exit %d:\n%s", r.code, r.stdout)
	}

	// No key: a project that names the provider, and nothing in the
	// environment.
	withModelConfig(t, dir, "model:\n  provider: anthropic\n")
	r = quarryEnv(t, map[string]string{"ANTHROPIC_BASE_URL": ""}, "", "-C", dir, "doctor")
	if !strings.Contains(r.stdout, "no API key is set, so the model was not called") || strings.Contains(r.stdout, "tools:") {
		t.Errorf("no key: exit %d:\n%s %s", r.code, r.stdout, r.stderr)
	}
}

// TestDemoRunCost asks the demo a question through the fake of the
// default Claude model (Sonnet 5.5: a thinking block in every reply) and
// shows that `quarry runs show` puts the run's cost, computed from
// prices.go, next to its token counts. The usage the fake reports is sized
// from the requests quarry actually sends on the demo (about 4 bytes a
// token): the cached prefix (system prompt, schema context, tools) is about
// 13.1 kB, written to the cache by the first call and read by the second;
// the messages are about 0.2 and 0.8 kB; output is thinking plus the tool
// call at the default effort.
func TestDemoRunCost(t *testing.T) {
	dir := demoProject(t)
	const q = "SELECT category, count(*) AS discontinued FROM products WHERE discontinued = 1 GROUP BY category ORDER BY discontinued DESC"
	srv := llmtest.NewAnthropicServer(t, "sk-test",
		llmtest.Answer{Thinking: "t", ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + q + `"}`)}}, Usage: demoUsage[0]},
		llmtest.Answer{Thinking: "t", ToolUses: []llm.ToolUse{{ID: "t2", Name: "submit_answer", Input: json.RawMessage(`{"answer":"Discontinued products by category.","sql":"` + q + `"}`)}}, Usage: demoUsage[1]})
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "ask", "--json", "--model", "anthropic", "which categories have the most discontinued products?")
	if r.code != 0 || len(srv.Refused()) > 0 {
		t.Fatalf("exit %d, refused %v: %s", r.code, srv.Refused(), r.stderr)
	}
	for i, req := range srv.Requests() {
		var b struct{ System, Tools, Messages json.RawMessage }
		json.Unmarshal(req.Body, &b)
		t.Logf("request %d: %d bytes: system %d, tools %d, messages %d", i+1, len(req.Body), len(b.System), len(b.Tools), len(b.Messages))
	}
	var j struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal([]byte(r.stdout), &j)
	price, ok := llm.PriceOf("claude-sonnet-5-5")
	if !ok {
		t.Fatal("no price for claude-sonnet-5-5")
	}
	want := price.Cost(demoUsage[0]) + price.Cost(demoUsage[1])
	r = quarryEnv(t, env, "", "-C", dir, "runs", "show", j.RunID)
	line := "Model  anthropic:claude-sonnet-5-5: 235 input, 3277 cache write, 3277 cache read, 400 output tokens (thinking included); cost " + llm.USD(want)
	if r.code != 0 || !strings.Contains(r.stdout, line) {
		t.Errorf("runs show has no %q:\n%s", line, r.stdout)
	}
	t.Logf("demo run: %s", line)
}

var demoUsage = []llm.Usage{{Input: 45, CacheWrite: 3277, Output: 250}, {Input: 190, CacheRead: 3277, Output: 150}}

// TestFirstUseChecksTheModel: the first question to a newly configured
// model runs the pre-flight round trip once (none of the scripted answers
// is spent on it) and remembers the model without its key; a model that
// cannot call tools, or a local server whose window cuts quarry's schema
// context off, is refused before the question with the fix, and nothing
// is remembered.
func TestFirstUseChecksTheModel(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewAnthropicServer(t, "sk-first-use", append(thinkingLoop(), thinkingLoop()...)...)
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-first-use", "ANTHROPIC_BASE_URL": srv.URL}
	for i := range 2 {
		r := quarryEnv(t, env, "", "-C", dir, "ask", "--json", "--model", "anthropic", "how many customers per country?")
		if r.code != 0 || len(srv.Refused()) > 0 {
			t.Fatalf("ask %d: exit %d, refused %v: %s", i+1, r.code, srv.Refused(), r.stderr)
		}
		if srv.Preflights() != 2 || len(srv.Requests()) != 3*(i+1) {
			t.Fatalf("ask %d: %d pre-flight requests (want 2, once), %d scripted", i+1, srv.Preflights(), len(srv.Requests()))
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".quarry", "models-checked.json"))
	if err != nil || !strings.Contains(string(data), "claude-sonnet-5-5") || strings.Contains(string(data), "sk-first-use") {
		t.Errorf("models-checked.json: %v %s", err, data)
	}

	for _, tc := range []struct {
		name  string
		setup func(*llmtest.Server)
		want  []string
	}{
		{"no tools", func(s *llmtest.Server) { s.Preflight = llmtest.PreflightNoTools }, []string{"cannot do what quarry needs", "use a model with tool use"}},
		{"small window", func(s *llmtest.Server) { s.Window, s.Truncate = 100, true }, []string{"context size", "OLLAMA_CONTEXT_LENGTH"}},
		{"refused window", func(s *llmtest.Server) { s.Window = 300 }, []string{"maximum context length", "--max-model-len"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := project(t)
			srv := llmtest.NewOpenAIServer(t, "", thinkingLoop()...)
			tc.setup(srv)
			r := quarryEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL}, "", "-C", dir, "ask", "--model", "openai:llama3.1", "how many customers per country?")
			if r.code != 3 || len(srv.Requests()) != 0 {
				t.Fatalf("exit %d (want 3), %d scripted requests: %s", r.code, len(srv.Requests()), r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not say %q: %s", w, r.stderr)
				}
			}
			if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("not one line: %s", r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, ".quarry", "models-checked.json")); err == nil {
				t.Error("a model that failed was remembered")
			}
		})
	}
}

// TestLocalServerFromBaseURLAlone: OPENAI_BASE_URL with no key chooses
// the OpenAI-compatible provider (a local server needs no key), and with
// no model named quarry says to name one instead of sending OpenAI's
// default model to a server that does not serve it.
func TestLocalServerFromBaseURLAlone(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewOpenAIServer(t, "", thinkingLoop()...)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "config")
	if r.code != 0 || !strings.Contains(r.stdout, "provider: openai") {
		t.Fatalf("config: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	r = quarryEnv(t, env, "", "-C", dir, "ask", "--prefer-model", "how many customers per country?")
	if r.code != 3 || !strings.Contains(r.stderr, "no model is named") || !strings.Contains(r.stderr, "--model openai:NAME") || len(srv.Requests())+srv.Preflights() != 0 {
		t.Fatalf("exit %d, %d requests: %s", r.code, len(srv.Requests()), r.stderr)
	}
	r = quarryEnv(t, env, "", "-C", dir, "ask", "--json", "--model", "openai:qwen3:8b", "how many customers per country?")
	if r.code != 0 {
		t.Fatalf("with a model named: exit %d: %s", r.code, r.stderr)
	}
}

// TestCheckedModelsKeepNoCredentials: a base URL that carries a user and
// password (a proxy) is remembered as scheme://host only.
func TestCheckedModelsKeepNoCredentials(t *testing.T) {
	dir := project(t)
	srv := llmtest.NewOpenAIServer(t, "", thinkingLoop()...)
	u := strings.Replace(srv.URL, "http://", "http://proxyuser:s3cret-pass@", 1)
	r := quarryEnv(t, map[string]string{"OPENAI_BASE_URL": u}, "", "-C", dir, "ask", "--json", "--model", "openai:qwen3:8b", "how many customers per country?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".quarry", "models-checked.json"))
	if err != nil || strings.Contains(string(data), "s3cret") || !strings.Contains(string(data), "qwen3:8b") {
		t.Errorf("models-checked.json: %v %s", err, data)
	}
}
