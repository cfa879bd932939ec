package knowledge

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"testing"
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
	path := filepath.Join(dir, filepath.FromSlash(FolderCacheFile))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c cached
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&c); err != nil {
		t.Fatal(err)
	}
	c.Folder.Notes = []Note{{Name: "planted.md", Text: "from the cache"}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
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
