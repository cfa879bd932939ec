package knowledge_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/knowledge"
)

// settle sets every file of dir an hour back, as files look that were
// not written just now: only then does Load trust its stamp.
func settle(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustLoad(t *testing.T, dir string) *knowledge.Folder {
	t.Helper()
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestStampedCacheSeesEdits: the attacks on a cache trusted by its stamp.
// Each edit below keeps what a stamp of names, sizes and modification
// times alone would see; each must still reach the loaded folder.
func TestStampedCacheSeesEdits(t *testing.T) {
	t.Run("same size, modification time set back", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("the status change time is read on Linux")
		}
		dir := copyDemo(t)
		settle(t, dir)
		before := mustLoad(t, dir)
		mustLoad(t, dir) // from the stamp
		policy := filepath.Join(dir, knowledge.PolicyFile)
		st, err := os.Stat(policy)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(policy)
		// a reason edited in place, as long as before
		edited := strings.Replace(string(src), "Personal contact data", "Personal contact info", 1)
		if edited == string(src) {
			t.Fatal("the demo policy has no reason to edit")
		}
		if err := os.WriteFile(policy, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		// touch -r: the old modification time, the same size
		if err := os.Chtimes(policy, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		after := mustLoad(t, dir)
		if after.Hash == before.Hash || !hasReason(after, "Personal contact info") {
			t.Fatal("an edit of policy.yaml with its modification time set back was not seen")
		}
	})
	t.Run("symbolic link retargeted", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("symbolic links")
		}
		dir := copyDemo(t)
		outside := t.TempDir()
		a, b := filepath.Join(outside, "a.md"), filepath.Join(outside, "b.md")
		os.WriteFile(a, []byte("first"), 0o644)
		os.WriteFile(b, []byte("other"), 0o644)
		link := filepath.Join(dir, knowledge.NotesDir, "linked.md")
		if err := os.Symlink(a, link); err != nil {
			t.Fatal(err)
		}
		settle(t, dir)
		settle(t, outside)
		if err := setLinkTime(link, time.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		mustLoad(t, dir)
		if err := os.WriteFile(a, []byte("again"), 0o644); err != nil {
			t.Fatal(err)
		}
		settle(t, outside)
		f := mustLoad(t, dir)
		for _, n := range f.Notes {
			if strings.HasSuffix(n.Name, "linked.md") && n.Text != "again" {
				t.Fatalf("the note behind a symbolic link reads %q after its target changed", n.Text)
			}
		}
	})
	t.Run("empty folder in entities", func(t *testing.T) {
		dir := t.TempDir()
		ents := filepath.Join(dir, knowledge.EntitiesDir)
		os.MkdirAll(ents, 0o755)
		os.WriteFile(filepath.Join(ents, "t.yaml"), []byte("name: t\ncolumns:\n  - name: id\n    type: int\n"), 0o644)
		settle(t, dir)
		mustLoad(t, dir)
		mustLoad(t, dir)
		if err := os.Mkdir(filepath.Join(ents, "nested"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := knowledge.Load(dir); err == nil {
			t.Fatal("a folder inside entities/ loaded without a problem from the cache")
		}
	})
}

// TestStampedCacheThroughLink: a folder reached through a symbolic link
// to it is stamped by what it holds, so its cache is used.
func TestStampedCacheThroughLink(t *testing.T) {
	dir := copyDemo(t)
	settle(t, dir)
	link := filepath.Join(t.TempDir(), "k")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	a, err := knowledge.Stamp(link)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := knowledge.Stamp(link); a == "" || a != b {
		t.Fatal("a folder reached through a symbolic link has no stable stamp")
	}
	if f := mustLoad(t, link); f.Dir != link {
		t.Fatalf("the folder loaded through a link says it is %q", f.Dir)
	}
}

func hasReason(f *knowledge.Folder, prefix string) bool {
	for _, r := range f.Policy {
		if strings.HasPrefix(r.Reason, prefix) {
			return true
		}
	}
	return false
}

// TestHasModel: a folder has a model with model.yaml, or with one entity
// file among whatever else entities/ holds; hidden files, folders, links
// and other extensions are not one.
func TestHasModel(t *testing.T) {
	dir := t.TempDir()
	ents := filepath.Join(dir, knowledge.EntitiesDir)
	if knowledge.HasModel(dir) {
		t.Fatal("an empty folder has a model")
	}
	os.MkdirAll(filepath.Join(ents, "sub.yaml"), 0o755)
	for i := range 600 {
		os.WriteFile(filepath.Join(ents, fmt.Sprintf(".hidden-%03d.yaml", i)), nil, 0o644)
	}
	os.WriteFile(filepath.Join(ents, "notes.txt"), nil, 0o644)
	os.Symlink(filepath.Join(dir, "elsewhere.yaml"), filepath.Join(ents, "link.yaml"))
	if knowledge.HasModel(dir) {
		t.Fatal("hidden files, a folder, a link and a .txt made a model")
	}
	os.WriteFile(filepath.Join(ents, "zz-last.YML"), []byte("name: t\n"), 0o644)
	if !knowledge.HasModel(dir) {
		t.Fatal("an entity file after 600 others was not found")
	}
}
