package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// TestRunsExportAndRerun: a run's bundle holds its log, SQL and rows; a
// rerun finds the same result, then, once the data changed, says so.
func TestRunsExportAndRerun(t *testing.T) {
	dir := project(t)
	r := quarryCmd(t, "", "-C", dir, "run", "--json", "SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status")
	if r.code != 0 {
		t.Fatalf("run: %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json")
	var runs []struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs list: %v %s", err, r.stdout)
	}
	id := runs[0].RunID

	r = quarryCmd(t, "", "-C", dir, "runs", "export", id[:12])
	var b export.Bundle
	if err := json.Unmarshal([]byte(r.stdout), &b); err != nil {
		t.Fatalf("export: exit %d: %v\n%s", r.code, err, r.stderr)
	}
	if b.Format != export.Format || b.Run.RunID != id || len(b.Events) < 5 || b.Result == nil || len(b.Result.Rows) != 2 {
		t.Fatalf("bundle = %+v", b)
	}
	body, err := quarry.EncodeTable(&quarry.Table{Columns: b.Result.Columns, Rows: [][]any{{"completed", int64(3750)}, {"refunded", int64(1250)}}})
	if err != nil || store.Hash(body) != b.Run.ResultHash {
		t.Errorf("the bundle's rows do not hash to its recorded hash %s (%v)", b.Run.ResultHash, err)
	}
	md := filepath.Join(t.TempDir(), "run.md")
	if r := quarryCmd(t, "", "-C", dir, "runs", "export", id, "--format", "md", "-o", md); r.code != 0 {
		t.Fatalf("export md: %d %s", r.code, r.stderr)
	}
	if text, _ := os.ReadFile(md); !strings.Contains(string(text), "GROUP BY status") || !strings.Contains(string(text), b.Run.ResultHash) || !strings.Contains(string(text), "| refunded | 1250 |") {
		t.Errorf("markdown bundle:\n%s", text)
	}
	if r := quarryCmd(t, "", "-C", dir, "runs", "export", id, "--format", "xml"); r.code != quarry.ExitUsage {
		t.Errorf("a bad format: exit %d", r.code)
	}

	rerun := func() export.Rerun {
		t.Helper()
		r := quarryCmd(t, "", "-C", dir, "runs", "rerun", id, "--json")
		var out export.Rerun
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("rerun: exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		return out
	}
	if got := rerun(); !got.Same || got.Hash != b.Run.ResultHash || !strings.Contains(strings.Join(got.Verdict, ";"), "same result") {
		t.Errorf("rerun of unchanged data = %+v", got)
	}
	db, err := sqlite3.Open(filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO orders VALUES (9001, 1, '2025-06-01', 10, 'refunded')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := rerun(); got.Same || !strings.Contains(strings.Join(got.Verdict, ";"), "the data changed") {
		t.Errorf("rerun of changed data = %+v", got)
	}
	// A run that executed nothing has nothing to re-execute.
	quarryCmd(t, "", "-C", dir, "run", "DELETE FROM orders")
	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json", "-n", "1")
	json.Unmarshal([]byte(r.stdout), &runs)
	if r := quarryCmd(t, "", "-C", dir, "runs", "rerun", runs[0].RunID); r.code != quarry.ExitInput || !strings.Contains(r.stderr, "nothing to re-execute") {
		t.Errorf("rerun of a rejected run: exit %d %s", r.code, r.stderr)
	}
	// A run with the policy off kept no result, on purpose: the message
	// says that, not that nothing ran.
	if r := quarryCmd(t, "", "-C", dir, "run", "--no-policy", "SELECT count(*) FROM orders"); r.code != 0 {
		t.Fatalf("run --no-policy: exit %d %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "runs", "list", "--json", "-n", "1")
	json.Unmarshal([]byte(r.stdout), &runs)
	r = quarryCmd(t, "", "-C", dir, "runs", "rerun", runs[0].RunID)
	if r.code != quarry.ExitInput || !strings.Contains(r.stderr, "--no-policy") || !strings.Contains(r.stderr, "not kept") || strings.Contains(r.stderr, "executed no SQL") {
		t.Errorf("rerun of a --no-policy run: exit %d %s", r.code, r.stderr)
	}
}
