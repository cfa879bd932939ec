package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// known is a small Known over a list of verified questions; questions
// with "unknown" in them cannot be answered.
type known []string

func (k known) Verified(q string) (string, []string) {
	for _, x := range k {
		if strings.EqualFold(x, q) {
			return x, k
		}
	}
	return "", k
}

func (known) CheckQuestion(q string) string {
	if strings.Contains(q, "unknown") {
		return "unknown words: unknown"
	}
	return ""
}

func decodeValid(t *testing.T, file string, src []byte) (*Workflow, Graph) {
	t.Helper()
	w, probs := Decode(file, src)
	if len(probs) > 0 {
		t.Fatalf("Decode(%s): %v", file, probs)
	}
	g, probs := Validate(w, known{"What is our total revenue?"})
	if len(probs) > 0 {
		t.Fatalf("Validate(%s): %v", file, probs)
	}
	return w, g
}

// TestExamplesAreCanonical holds the demo's workflows to the canonical
// form: each decodes, validates, and encodes to its own bytes.
func TestExamplesAreCanonical(t *testing.T) {
	files, _ := filepath.Glob("../demo/knowledge/workflows/*.yaml")
	if len(files) < 2 {
		t.Fatalf("want the demo's two workflows, found %v", files)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := decodeValid(t, f, src)
		if got := Encode(w); string(got) != string(src) {
			t.Errorf("%s is not in canonical form; Encode gives:\n%s", f, got)
		}
	}
}
