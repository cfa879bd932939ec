package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWithheldRunReadBack: a run made before its column was restricted is
// read back under the policy of the moment by every command that shows
// it (found from outside): runs list showed its row count, which answers
// a guess ("how many have a country like '%many'"); runs rerun printed
// the recorded result's hash and rows, which confirm a guessed value
// hashed from a SELECT of a literal; runs events and runs export kept the
// SQL's quoted value in run.started.
func TestWithheldRunReadBack(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s", r.code, r.stderr)
	}
	const guess = "%rmany"
	if r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT id, upper(country) AS u FROM customers WHERE country LIKE '"+guess+"'"); r.code != 0 || !strings.Contains(r.stdout, "GERMANY") {
		t.Fatalf("run before the change: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct {
		RunID string `json:"run_id"`
		Rows  int64  `json:"rows"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) == 0 || runs[0].Rows != 1 {
		t.Fatalf("runs list before the change: %v %s", err, r.stdout)
	}
	id := runs[0].RunID

	restrictCountry(t, dir)

	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	runs = nil
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) == 0 || runs[0].RunID != id || runs[0].Rows != 0 {
		t.Errorf("runs list after the change: %v; want the run with no row count:\n%s", err, r.stdout)
	}
	if r := quarryCmd(t, "", "-C", dir, "runs", "list"); strings.Contains(r.stdout, guess) {
		t.Errorf("runs list shows the quoted value:\n%s", r.stdout)
	}
	for _, args := range [][]string{{"runs", "events", id}, {"runs", "export", id}, {"runs", "show", id}} {
		r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
		if strings.Contains(r.stdout+r.stderr, guess) {
			t.Errorf("%s: the quoted value of a withheld run is shown:\n%s", strings.Join(args, " "), short(r.stdout, 2000))
		}
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "rerun", id, "--json")
	var judged struct {
		RecordedHash string `json:"recorded_hash"`
		RecordedRows int64  `json:"recorded_rows"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &judged); err != nil && r.code == 0 {
		t.Fatalf("runs rerun --json: %v\n%s", err, r.stdout)
	}
	if judged.RecordedHash != "" || judged.RecordedRows != 0 || strings.Contains(r.stdout, "sha256:") {
		t.Errorf("runs rerun shows the withheld result's hash or rows:\n%s%s", r.stdout, r.stderr)
	}
}
