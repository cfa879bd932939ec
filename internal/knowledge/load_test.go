package knowledge_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// copyFS writes fsys into a new temporary directory and returns it.
func copyFS(t *testing.T, fsys fs.FS) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "knowledge")
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadDemoKnowledge(t *testing.T) {
	dir := copyFS(t, demo.Knowledge())
	f, err := knowledge.Load(dir)
	if err != nil {
		var ps knowledge.Problems
		if errors.As(err, &ps) {
			for _, p := range ps {
				t.Log(p.Format(dir))
			}
		}
		t.Fatal(err)
	}
	if n := len(f.Verified); n < 15 {
		t.Errorf("demo has %d verified queries, want at least 15", n)
	}
	wantMetrics := []string{"revenue", "orders", "completed_orders", "average_order_value", "active_subscribers", "mrr", "conversion_rate"}
	for _, name := range wantMetrics {
		found := false
		for _, m := range f.Model.Metrics {
			found = found || m.Name == name
		}
		if !found {
			t.Errorf("demo knowledge lacks metric %q", name)
		}
	}
	if diff := cmp.Diff([]string{"customers.email", "employees.salary"}, f.Model.Restricted); diff != "" {
		t.Errorf("restricted (-want +got):\n%s", diff)
	}
	if len(f.Notes) == 0 || len(f.Hash) != 64 {
		t.Errorf("notes %d, hash %q", len(f.Notes), f.Hash)
	}
	// the same folder through the embedded file system gives the same hash
	g, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	if g.Hash != f.Hash {
		t.Errorf("hash differs between the embedded and the copied folder")
	}
}

func TestLoadMissingFolder(t *testing.T) {
	_, err := knowledge.Load(filepath.Join(t.TempDir(), "nope"))
	if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(quarry.Message(err), "quarry learn") {
		t.Fatalf("got %v (%s), want a config error suggesting quarry learn", err, quarry.KindOf(err))
	}
}

// TestLoadBroken loads each folder of testdata/broken and compares every
// problem found with the golden file testdata/broken/NAME.golden.
func TestLoadBroken(t *testing.T) {
	dirs, err := filepath.Glob("testdata/broken/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := knowledge.Load(dir)
			if err == nil {
				t.Fatal("loaded without error")
			}
			if quarry.KindOf(err) != quarry.KindConfig {
				t.Errorf("kind %s, want config", quarry.KindOf(err))
			}
			var b strings.Builder
			b.WriteString(quarry.Message(err) + "\n--- all problems\n")
			var ps knowledge.Problems
			if errors.As(err, &ps) {
				for _, p := range ps {
					b.WriteString(p.Format(dir) + "\n")
				}
			}
			goldentest.AssertString(t, dir+".golden", b.String())
		})
	}
	if n == 0 {
		t.Fatal("no broken folders in testdata/broken")
	}
}
