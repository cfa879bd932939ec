package knowledge

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

const commitModel = "entities:\n  - name: orders\n    columns:\n      - name: id\n        type: int\n"

func commitFolder(t *testing.T) (string, *fileSet) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ModelFile), []byte(commitModel), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newFileSet(dir)
	rep := &LearnReport{}
	s.add(ModelFile, []byte(commitModel), rep) // unchanged: not written
	if len(s.names) != 0 || len(rep.Files) != 0 {
		t.Fatalf("an unchanged file is to be written: %v", rep.Files)
	}
	s.add(EntitiesDir+"/customers.yaml", []byte("name: customers\ncolumns:\n  - name: id\n    type: int\n"), rep)
	s.add(ModelFile, []byte(commitModel+"relationships:\n  - name: customer\n    from: orders\n    from_column: id\n    to: customers\n    to_column: id\n    cardinality: many_to_one\n"), rep)
	return dir, s
}

// TestCommitCanceledWhileStaging: an interruption before the manifest
// leaves the folder as it was, and nothing staged.
func TestCommitCanceledWhileStaging(t *testing.T) {
	dir, s := commitFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.commit(ctx); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("commit: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ModelFile)); string(b) != commitModel {
		t.Errorf("model.yaml changed:\n%s", b)
	}
	for _, p := range []string{EntitiesDir, LearnPendingDir} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); !os.IsNotExist(err) {
			t.Errorf("%s exists: %v", p, err)
		}
	}
}

// TestCommitFinishedAfterACrash: a process killed after the manifest,
// before its renames, leaves a folder that Load refuses and the next
// learn finishes; one killed before, a staging folder that is dropped.
func TestCommitFinishedAfterACrash(t *testing.T) {
	dir, s := commitFolder(t)
	if err := s.stage(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Killed after the first rename.
	if err := os.MkdirAll(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, filepath.FromSlash(LearnPendingDir), "0"), filepath.Join(dir, EntitiesDir, "customers.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(quarry.Message(err), "run `quarry learn` again to finish") {
		t.Errorf("Load of a half-renamed folder: %v", err)
	}
	n, err := finishPending(dir)
	if err != nil || n != 1 {
		t.Fatalf("finishPending: %d files, %v", n, err)
	}
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Model.Entities) != 2 || len(f.Model.Relationships) != 1 {
		t.Errorf("finished folder: %+v", f.Model)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(LearnPendingDir))); !os.IsNotExist(err) {
		t.Errorf("staging left: %v", err)
	}

	// Killed while staging (no manifest): the staged files are dropped.
	pdir := filepath.Join(dir, filepath.FromSlash(LearnPendingDir))
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pdir, "0"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Errorf("Load with an undecided staging folder: %v", err)
	}
	if n, err := finishPending(dir); err != nil || n != 0 {
		t.Errorf("finishPending: %d, %v", n, err)
	}
	if _, err := os.Stat(pdir); !os.IsNotExist(err) {
		t.Errorf("staging left: %v", err)
	}
}
