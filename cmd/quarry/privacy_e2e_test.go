package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// TestPrivacyTierEndToEnd: a connection's privacy in quarry.yaml reaches
// the model's requests through the whole command (config, runtime,
// agent): under schema-only the model's raw query reaches it as its shape
// (the columns' names),
// the user still gets the rows, and quarry runs show prints the tier and
// what was withheld.
func TestPrivacyTierEndToEnd(t *testing.T) {
	dir := project(t)
	yaml := "version: 1\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n    privacy: schema-only\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	const raw = "SELECT name, country, signup_date FROM customers ORDER BY id"
	srv := llmtest.NewAnthropicServer(t, "sk-privacy",
		llmtest.Answer{Thinking: "t", ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + raw + `"}`)}}},
		llmtest.Answer{Thinking: "t", ToolUses: []llm.ToolUse{{ID: "t2", Name: "submit_answer", Input: json.RawMessage(`{"answer":"These are the customers.","sql":"` + raw + `"}`)}}})
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-privacy", "ANTHROPIC_BASE_URL": srv.URL}
	r := quarryEnv(t, env, "", "-C", dir, "ask", "--json", "--model", "anthropic", "list the customers with where they live")
	if r.code != 0 || len(srv.Refused()) > 0 {
		t.Fatalf("exit %d, refused %v: %s", r.code, srv.Refused(), r.stderr)
	}
	if !strings.Contains(r.stdout, "Linus") {
		t.Errorf("the user's answer lacks the rows:\n%s", r.stdout)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests reached the model", len(reqs))
	}
	for i, req := range reqs {
		for _, v := range []string{"Linus", "Grace", "Germany", "Finland", "2025-01-03", "2025-02-11"} {
			if strings.Contains(string(req.Body), v) {
				t.Errorf("request %d carries the row value %q", i+1, v)
			}
		}
	}
	// The shape is the columns' names, without their number of rows or
	// their types (which on SQLite follow the values).
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "rows withheld") || !strings.Contains(last, `- signup_date\n`) || strings.Contains(last, "3 rows") {
		t.Error("the model was not shown the result's shape as column names only")
	}
	var j struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal([]byte(r.stdout), &j)
	r = quarryEnv(t, env, "", "-C", dir, "runs", "show", j.RunID)
	for _, want := range []string{"Privacy  schema-only: no value of a row may reach a model", "Withheld from the model  run_query: the rows of the result (schema-only)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("runs show lacks %q:\n%s", want, r.stdout)
		}
	}
}
