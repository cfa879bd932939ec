package knowledge

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
)

// TestMigrateFailureLeavesTheFolder makes each rename Migrate does fail
// in turn (an entity file, then model.yaml) and checks that the folder
// is left byte for byte as it was, with no entities/ and no temporary
// folder.
func TestMigrateFailureLeavesTheFolder(t *testing.T) {
	for _, failAt := range []int{1, 5, 10} { // the first file, a middle one, model.yaml (nine entities)
		dir := filepath.Join(t.TempDir(), "knowledge")
		if err := os.CopyFS(dir, demo.Knowledge()); err != nil {
			t.Fatal(err)
		}
		before := files(t, dir)
		n := 0
		rename := func(from, to string) error {
			if n++; n == failAt {
				return errors.New("disk full")
			}
			return os.Rename(from, to)
		}
		if _, err := migrate(dir, rename); err == nil {
			t.Fatalf("rename %d failed, migrate did not", failAt)
		}
		if diff := cmp.Diff(before, files(t, dir)); diff != "" {
			t.Errorf("rename %d failed and the folder changed:\n%s", failAt, diff)
		}
	}
}

// files reads every file and folder under dir.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if e.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
