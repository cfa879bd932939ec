package knowledge

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStampReadsTheDecidingFiles: with every file's size, times and
// inode left as they were (as a write through a shared memory map leaves
// them; found from outside: a column restricted so was still served, a
// metric's old filter gave its old number), a new policy.yaml,
// metrics.yaml or model.yaml still makes a new stamp; an entity file so
// written does not, which docs/knowledge.md says.
func TestStampReadsTheDecidingFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ModelFile, "entities: []\n")
	write(MetricsFile, "metrics: []\n")
	write(PolicyFile, "restricted: []\n")
	write("entities/t.yaml", "name: t\n")
	old := time.Now().Add(-time.Hour)
	// Every file the same to the stamp's eye, whatever its bytes.
	still := func(string) (func(fs.DirEntry) (fileStat, error), func(), error) {
		return func(fs.DirEntry) (fileStat, error) {
			return fileStat{regular: true, size: 16, modified: old, ino: 7, ctime: old.UnixNano()}, nil
		}, func() {}, nil
	}
	stamp := func() string {
		t.Helper()
		s, err := stampWith(dir, still, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := stamp()
	if again := stamp(); again != before {
		t.Fatal("the stamp of an unchanged folder changed")
	}
	for _, tc := range []struct{ file, text string }{
		{PolicyFile, "restricted: [{column: t.salary}]\n"},
		{MetricsFile, "metrics: [{name: m}]\n"},
		{ModelFile, "entities: [{name: u}]\n"},
	} {
		write(tc.file, tc.text)
		if after := stamp(); after == before {
			t.Errorf("%s written with its times unchanged: the stamp did not change", tc.file)
		} else {
			before = after
		}
	}
	write("entities/t.yaml", "name: u\n")
	if stamp() != before {
		t.Error("an entity file's bytes changed the stamp: the stamp reads them now, update docs/knowledge.md")
	}
}
