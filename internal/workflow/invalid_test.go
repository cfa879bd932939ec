package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
)

// TestInvalidCorpus holds every workflow of testdata/invalid to the
// problems it must be rejected with (testdata/invalid.golden; -update
// rewrites it). Each file must have at least one problem.
func TestInvalidCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var b strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		probs := check(filepath.Base(f), src)
		if len(probs) == 0 {
			t.Errorf("%s: accepted; every file of the corpus must be rejected", f)
		}
		b.WriteString("== " + filepath.Base(f) + "\n")
		for _, p := range probs {
			b.WriteString(p.Format("") + "\n")
		}
	}
	goldentest.AssertString(t, "testdata/invalid.golden", b.String())
}

// check is what `quarry workflow validate` does with one file.
func check(file string, src []byte) []Problem {
	_, _, probs := Check(file, src, known{"What is our total revenue?"})
	return probs
}
