package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestReadKnowledgeStaysInTheFolder(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "knowledge")
	if err := os.MkdirAll(filepath.Join(k, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(k, "notes", "a.md"), []byte("fiscal year starts in April"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.md"), []byte("outside"), 0o644)
	if err := os.Symlink(filepath.Join(dir, "secret.md"), filepath.Join(k, "notes", "link.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	os.Symlink(dir, filepath.Join(k, "up"))

	if s, err := readKnowledge(k, "notes/a.md"); err != nil || !strings.Contains(s, "April") {
		t.Fatalf("a plain note: %q, %v", s, err)
	}
	if s, err := readKnowledge(k, ""); err != nil || !strings.Contains(s, "notes/a.md") || strings.Contains(s, "secret") {
		t.Fatalf("the listing: %q, %v", s, err)
	}
	for _, name := range []string{
		"../secret.md", "notes/../../secret.md", filepath.Join(dir, "secret.md"), "/etc/passwd",
		"notes/*.md", "notes/[a].md", "notes/link.md", "up/secret.md", "notes\\..\\..\\secret.md", "./notes/a.md", "notes/a.sh",
	} {
		s, err := readKnowledge(k, name)
		if err == nil || strings.Contains(s, "outside") {
			t.Errorf("readKnowledge(%q) = %q, %v; want a refusal", name, s, err)
			continue
		}
		if k := quarry.KindOf(err); k != quarry.KindForbidden && k != quarry.KindInput && k != quarry.KindNotFound {
			t.Errorf("readKnowledge(%q): kind %s", name, k)
		}
	}
}

func TestScrubKeepsRestrictedDataOut(t *testing.T) {
	p := newPolicy(nil)
	if p.scrub("a@b.example") != "a@b.example" {
		t.Error("with no policy, text is left alone")
	}
}
