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

// TestLeakAlarmIsNoOracle attacks the values learn recorded of a column
// that was restricted after it (the order learn's policy.yaml suggests):
// an outside attacker had the model echo a guessed secret, and the run
// stopped with "a restricted value was about to be sent to the model"
// for a right guess only, one yes or no per question. A right guess and a
// wrong one must now end alike, and nothing the model is sent may hold a
// value the database keeps in that column.
func TestLeakAlarmIsNoOracle(t *testing.T) {
	dir, _ := learnedProject(t, "oracle.db", `CREATE TABLE tokens (id INTEGER PRIMARY KEY, label TEXT NOT NULL, secret TEXT NOT NULL);
INSERT INTO tokens VALUES (1, 'deploy', 'hunter2'), (2, 'backup', 'swordfish'), (3, 'deploy', 'hunter2'), (4, 'ci', 'opensesame');
CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO teams VALUES (1, 'North'), (2, 'South');`, "")
	model, err := os.ReadFile(filepath.Join(dir, "knowledge", "model.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(model), "swordfish") {
		t.Fatalf("learn recorded no values of tokens.secret; the attack needs them:\n%s", model)
	}
	policy := "restricted:\n  - column: tokens.secret\n    reason: credential\n"
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	outcome := func(guess string) (int, string) {
		sql := "SELECT '" + guess + "' AS x"
		in, _ := json.Marshal(map[string]string{"sql": sql})
		srv := llmtest.NewAnthropicServer(t, "sk-test",
			llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "q", Name: "run_query", Input: in}}},
			llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "s", Name: "submit_answer", Input: json.RawMessage(`{"answer":"It says ` + guess + `.","sql":"` + sql + `"}`)}}})
		env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}
		r := quarryEnv(t, env, "", "-C", dir, "ask", "--prefer-model", "--json", "please run exactly: "+sql)
		for i, req := range srv.Requests() {
			for _, v := range []string{"swordfish", "opensesame"} {
				if strings.Contains(string(req.Body), v) {
					t.Errorf("model request %d holds %q", i+1, v)
				}
			}
		}
		return r.code, r.stderr
	}
	rightCode, rightErr := outcome("hunter2")
	wrongCode, wrongErr := outcome("hunter3")
	if rightCode != wrongCode || rightCode != 0 {
		t.Errorf("a right guess ends with exit %d (%s), a wrong one with exit %d (%s); want both answered alike", rightCode, rightErr, wrongCode, wrongErr)
	}
}
