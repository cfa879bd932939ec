package knowledge

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFolderFingerprint: every type under Folder is one gob carries whole;
// a field gob would drop (unexported, an interface) turns the cache off,
// and this test says so.
func TestFolderFingerprint(t *testing.T) {
	if folderFingerprint() == "" {
		t.Fatal("Folder holds a type gob cannot carry whole (an unexported field, an interface, a func): the knowledge cache is off")
	}
}

// TestLoadReadsTheCache: what Load returns for unchanged files is what the
// cache holds, so the decoding is really skipped.
func TestLoadReadsTheCache(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ModelFile), []byte("entities:\n  - name: t\n    columns:\n      - name: id\n        type: int\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := readCache(dir, cacheTail())
	if c.f == nil {
		t.Fatal("the first Load wrote no cache this build reads")
	}
	planted := *c.f
	planted.Notes = []Note{{Name: "planted.md", Text: "from the cache"}}
	writeCache(dir, c.head, &planted)
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Notes) != 1 || g.Notes[0].Text != "from the cache" {
		t.Fatalf("Load decoded the files again instead of reading the cache: notes %v", g.Notes)
	}
	if g.Dir != dir || g.Hash != f.Hash {
		t.Fatalf("cached folder: dir %q hash %q, want %q %q", g.Dir, g.Hash, dir, f.Hash)
	}
}

// TestLoadTrustsTheStamp: a settled folder whose stamp is the cache's is
// read back without its files being read: a cache planted under the right
// stamp and a key no file hashes to is what Load returns.
func TestLoadTrustsTheStamp(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, ModelFile)
	if err := os.WriteFile(model, []byte("entities:\n  - name: t\n    columns:\n      - name: id\n        type: int\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(model, old, old); err != nil {
		t.Fatal(err)
	}
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	stamp, err := Stamp(dir)
	if err != nil {
		t.Fatal(err)
	}
	planted := *f
	planted.Notes = []Note{{Name: "planted.md", Text: "from the stamp"}}
	writeCache(dir, cacheHead{Key: "not-the-files/" + cacheTail(), Stamp: stamp}, &planted)
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Notes) != 1 || g.Notes[0].Text != "from the stamp" {
		t.Fatalf("a settled folder was read again instead of trusted by its stamp: notes %v", g.Notes)
	}
	// Another build's cache is not trusted, stamp or not.
	writeCache(dir, cacheHead{Key: "not-the-files/another-build", Stamp: stamp}, &planted)
	if g, err := Load(dir); err != nil || len(g.Notes) != 0 {
		t.Fatalf("another build's cache was trusted: %v %v", g.Notes, err)
	}
}

// TestLoadRefusesADamagedCache: a byte changed anywhere in the cache's
// body (found from outside: "is_test" made "is_tesx" inside it counted
// the test rows at confidence 1.00) makes Load read the files again.
func TestLoadRefusesADamagedCache(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ModelFile), []byte("entities:\n  - name: customers\n    columns:\n      - name: id\n        type: int\n      - name: is_test\n        type: int\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.FromSlash(FolderCacheFile))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(b, []byte("is_test"))
	if i < 0 {
		t.Fatal("the cache does not hold the column's name")
	}
	damaged := bytes.Clone(b)
	damaged[i+6] = 'x'
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if c := readCache(dir, cacheTail()); c.f != nil {
		t.Fatal("a damaged cache was read")
	}
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := g.Model.Entity("customers"); e == nil || e.Column("is_test") == nil || e.Column("is_tesx") != nil {
		t.Fatalf("Load gave the damaged cache's columns: %+v", e)
	}
	if g.Hash != fresh.Hash {
		t.Fatalf("hash %s, want %s", g.Hash, fresh.Hash)
	}
}
