package knowledge_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestFingerprint: the fingerprint is the loaded folder's Hash, changes
// with any file Load reads (policy.yaml included), and is "" without a
// folder.
func TestFingerprint(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	f, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := knowledge.Fingerprint(dir)
	if err != nil || got != f.Hash {
		t.Fatalf("Fingerprint = %q, %v; want the folder's Hash %q", got, err, f.Hash)
	}
	pol := filepath.Join(dir, knowledge.PolicyFile)
	b, _ := os.ReadFile(pol)
	if err := os.WriteFile(pol, append(b, []byte("\n# edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := knowledge.Fingerprint(dir); err != nil || again == got {
		t.Errorf("an edit of policy.yaml left the fingerprint %q (%v)", again, err)
	}
	if none, err := knowledge.Fingerprint(filepath.Join(dir, "missing")); none != "" || err != nil {
		t.Errorf("a missing folder: %q, %v", none, err)
	}
}

// BenchmarkFingerprint measures what a server pays per request to notice
// an edited knowledge folder (the demo's: 20-odd files), against a Load
// that reads the cached folder back.
func BenchmarkFingerprint(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "knowledge")
	if err := os.CopyFS(dir, demo.Knowledge()); err != nil {
		b.Fatal(err)
	}
	if _, err := knowledge.Load(dir); err != nil {
		b.Fatal(err)
	}
	b.Run("fingerprint", func(b *testing.B) {
		for b.Loop() {
			if _, err := knowledge.Fingerprint(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load-cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := knowledge.Load(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
