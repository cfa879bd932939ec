package main

import (
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
	if r.code != 0 || !strings.Contains(r.stdout, "moved 2 entities and 1 relationships from model.yaml to entities/") || !strings.Contains(r.stdout, "model.yaml held nothing else and was removed") {
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
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to migrate") {
		t.Errorf("second migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
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
