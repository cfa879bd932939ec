package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestKnowledgeMigrate: learn, split the folder, and the project answers
// the same; learn refreshes the split folder; a second migrate is a no-op.
func TestKnowledgeMigrate(t *testing.T) {
	dir := project(t)
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 {
		t.Fatalf("learn: exit %d %s", r.code, r.stderr)
	}
	r := quarryCmd(t, "", "-C", dir, "knowledge", "migrate")
	if r.code != 0 || !strings.Contains(r.stdout, "moved 2 entities and 1 relationship from model.yaml to entities/") || !strings.Contains(r.stdout, "model.yaml held nothing else and was removed") {
		t.Fatalf("migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	k := filepath.Join(dir, "knowledge")
	for _, f := range []string{"entities/customers.yaml", "entities/orders.yaml"} {
		if _, err := os.Stat(filepath.Join(k, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(k, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("model.yaml: %v", err)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "how many orders")
	var got struct {
		Rows [][]any `json:"rows"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got.Rows) != 1 || got.Rows[0][0] != float64(5000) {
		t.Fatalf("ask after migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--quiet"); r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("learn after migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(k, "model.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("learn wrote model.yaml again: %v", err)
	}
	r = quarryCmd(t, "", "-C", dir, "knowledge", "migrate")
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to migrate; it is already split (no model.yaml") {
		t.Errorf("second migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "knowledge", "migrate", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"files": []`) || !strings.Contains(r.stdout, `"no_model": true`) {
		t.Errorf("second migrate --json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestKnowledgeMigrateOneEntity: counts of one are singular.
func TestKnowledgeMigrateOneEntity(t *testing.T) {
	k := filepath.Join(t.TempDir(), "knowledge")
	if err := os.MkdirAll(k, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k, "model.yaml"), []byte("entities:\n  - name: plans\n    columns:\n      - name: id\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "knowledge", "migrate", "--knowledge", k)
	if r.code != 0 || !strings.Contains(r.stdout, "moved 1 entity and 0 relationships from model.yaml") || !strings.Contains(r.stdout, "files written (1): entities/plans.yaml") {
		t.Errorf("migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestKnowledgeMigrateInterrupted: an interrupt (Ctrl-C, SIGTERM: the
// context canceled) stops migrate with exit 130 and the folder as it
// was.
func TestKnowledgeMigrateInterrupted(t *testing.T) {
	k := filepath.Join(t.TempDir(), "knowledge")
	if err := os.CopyFS(k, demo.Knowledge()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := quarryCtx(t, ctx, "", "knowledge", "migrate", "--knowledge", k)
	if r.code != quarry.ExitCanceled || !strings.Contains(r.stderr, "interrupted") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, want %d\n%s%s", r.code, quarry.ExitCanceled, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(k, "entities")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("entities/ was written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(k, "model.yaml")); err != nil {
		t.Error(err)
	}
}

// TestKnowledgeMigrateFlag: --knowledge names the folder, with no
// project; a folder that does not load is refused with its file and line.
func TestKnowledgeMigrateFlag(t *testing.T) {
	k := filepath.Join(t.TempDir(), "knowledge")
	if err := os.CopyFS(k, demo.Knowledge()); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "knowledge", "migrate", "--knowledge", k, "--json")
	var rep struct {
		Entities int      `json:"entities"`
		Files    []string `json:"files"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || rep.Entities != 9 || len(rep.Files) != 9 {
		t.Fatalf("migrate --knowledge: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(k, "model.yaml"), []byte("entities:\n  - name: plans\n    colums: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = quarryCmd(t, "", "knowledge", "migrate", "--knowledge", k)
	if r.code != quarry.ExitCode(&quarry.Error{Kind: quarry.KindConfig}) || !strings.Contains(r.stderr, "knowledge/model.yaml:2: entities[0].columns: ") || !strings.Contains(r.stderr, "migrate changes nothing") {
		t.Errorf("migrate of a broken folder: exit %d\n%s", r.code, r.stderr)
	}
}
