package knowledge_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// copyDemo writes the demo's knowledge folder into a new directory.
func copyDemo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(demo.Knowledge(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := fs.ReadFile(demo.Knowledge(), p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLoadCache: a folder loaded a second time comes from the cache, equal
// to what decoding gives; any edit to a file is seen; a damaged cache is
// ignored; a folder with problems is never cached.
func TestLoadCache(t *testing.T) {
	dir := copyDemo(t)
	cache := filepath.Join(dir, filepath.FromSlash(knowledge.FolderCacheFile))
	fresh, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("the first Load wrote no cache: %v", err)
	}
	again, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fresh, again); diff != "" {
		t.Fatalf("the cached folder differs from the decoded one (-decoded +cached):\n%s", diff)
	}
	before, _ := os.ReadFile(cache)

	// An edit of one byte is seen.
	model := filepath.Join(dir, knowledge.ModelFile)
	src, _ := os.ReadFile(model)
	edited := strings.Replace(string(src), "description:", "description: Edited.", 1)
	if edited == string(src) {
		t.Fatal("the demo model has no description to edit")
	}
	if err := os.WriteFile(model, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Hash == fresh.Hash {
		t.Fatal("the edited folder has the old hash: the cache hid the edit")
	}
	if !hasDescription(f, "Edited.") {
		t.Fatal("the edited description is not in the loaded folder")
	}

	// A damaged cache is ignored.
	if err := os.WriteFile(cache, before[:len(before)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := knowledge.Load(dir); err != nil {
		t.Fatalf("a damaged cache broke Load: %v", err)
	}

	// A broken folder fails every time, cache or not.
	if err := os.WriteFile(model, []byte("entities: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := knowledge.Load(dir); err == nil {
			t.Fatal("a broken model.yaml loaded")
		}
	}
}

func hasDescription(f *knowledge.Folder, prefix string) bool {
	for _, e := range f.Model.Entities {
		if strings.HasPrefix(e.Description, prefix) {
			return true
		}
		for _, c := range e.Columns {
			if strings.HasPrefix(c.Description, prefix) {
				return true
			}
		}
	}
	return false
}

// TestLoadCacheReadOnly: a folder quarry cannot write to loads all the same.
func TestLoadCacheReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only folders")
	}
	dir := copyDemo(t)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for range 2 {
		if _, err := knowledge.Load(dir); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStamp: the stamp changes when a file is written (and while it was
// written just now), and not when nothing was.
func TestStamp(t *testing.T) {
	dir := copyDemo(t)
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	a, err := knowledge.Stamp(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := knowledge.Stamp(dir); b != a {
		t.Fatal("the stamp changed with nothing written")
	}
	policy := filepath.Join(dir, knowledge.PolicyFile)
	src, _ := os.ReadFile(policy)
	if err := os.WriteFile(policy, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := knowledge.Stamp(dir); b == a {
		t.Fatal("the stamp did not change when policy.yaml was written")
	}
}
