package knowledge

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestMigrateFailureLeavesTheFolder makes each rename Migrate does fail
// in turn and checks that the folder is left byte for byte as it was,
// with no entities/ and no temporary file: in a new entities/ (the
// folder renamed into place, then model.yaml), and in an entities/ that
// exists (each file, then model.yaml).
func TestMigrateFailureLeavesTheFolder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		failAt []int
	}{
		{"new entities/", []int{1, 2}},
		{"entities/ exists", []int{1, 5, 10}}, // the first file, a middle one, model.yaml (nine entities)
	} {
		for _, failAt := range tc.failAt {
			dir := demoFolder(t)
			if tc.name == "entities/ exists" {
				if err := os.Mkdir(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			before := files(t, dir)
			n := 0
			rename := func(from, to string) error {
				if n++; n == failAt {
					return errors.New("disk full")
				}
				return os.Rename(from, to)
			}
			if _, err := migrate(t.Context(), dir, rename); err == nil {
				t.Fatalf("%s: rename %d failed, migrate did not", tc.name, failAt)
			}
			if diff := cmp.Diff(before, files(t, dir)); diff != "" {
				t.Errorf("%s: rename %d failed and the folder changed:\n%s", tc.name, failAt, diff)
			}
		}
	}
}

// TestMigrateCanceled: a canceled context stops migrate at each of its
// steps before the commit point (model.yaml's rename), with a canceled
// error, and the folder is as it was.
func TestMigrateCanceled(t *testing.T) {
	for _, cancelAt := range []int{0, 1} { // before anything, after entities/ is in place
		dir := demoFolder(t)
		before := files(t, dir)
		ctx, cancel := context.WithCancel(t.Context())
		if cancelAt == 0 {
			cancel()
		}
		rename := func(from, to string) error {
			err := os.Rename(from, to)
			cancel() // the signal comes just after entities/ is placed
			return err
		}
		_, err := migrate(ctx, dir, rename)
		cancel()
		if quarry.KindOf(err) != quarry.KindCanceled {
			t.Fatalf("cancel at %d: err = %v", cancelAt, err)
		}
		if diff := cmp.Diff(before, files(t, dir)); diff != "" {
			t.Errorf("cancel at %d: the folder changed:\n%s", cancelAt, diff)
		}
	}
}

// TestMigrateFinishesAnInterruptedRun leaves the folder as a run killed
// at each point would (the entity files placed, all or some, model.yaml
// still whole; a temporary folder left behind), checks that it fails to
// load with "defined twice", and that the next migrate finishes it: the
// same folder as an uninterrupted migrate, the temporary files gone.
func TestMigrateFinishesAnInterruptedRun(t *testing.T) {
	want := demoFolder(t)
	if _, err := Migrate(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	wantFiles := files(t, want)
	for _, tc := range []struct {
		name   string
		placed int // entity files placed; -1: all, by the one rename
		mixed  bool
	}{
		{"killed before the folder rename", 0, false},
		{"killed after the folder rename", -1, false},
		{"killed after 4 files of 9", 4, true},
		{"killed after all files", 9, true},
	} {
		dir := demoFolder(t)
		// a temporary folder as a killed run leaves it
		stale := filepath.Join(dir, tempPrefix+"123")
		if err := os.MkdirAll(stale, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(stale, "orders.yaml"), []byte("name: orders\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if tc.mixed {
			if err := os.Mkdir(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if tc.placed != 0 {
			// what migrate writes, placed as a killed run leaves it
			names := placedFiles(t, want)
			if tc.placed > 0 {
				names = names[:tc.placed]
			}
			if err := os.MkdirAll(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(wantFiles[name]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Load(dir); err == nil || !strings.Contains(quarry.Message(err), "is defined twice") {
				t.Fatalf("%s: the interrupted folder loads: %v", tc.name, err)
			}
		} else if _, err := Load(dir); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		os.RemoveAll(filepath.Join(dir, ".cache")) // Load's
		rep, err := Migrate(t.Context(), dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rep.Resumed != (tc.placed != 0) || rep.Entities != 9 || len(rep.Files) != 9 {
			t.Errorf("%s: report %+v", tc.name, rep)
		}
		if diff := cmp.Diff(wantFiles, files(t, dir)); diff != "" {
			t.Errorf("%s: the finished folder differs (-uninterrupted +finished):\n%s", tc.name, diff)
		}
	}
}

// TestMigrateRefusesAnEditedInterruptedRun: an entity file that defines
// an entity of model.yaml again, but is not what migrate writes (edited
// after the kill, or written by a person), is not taken for an
// interrupted run: migrate refuses, and changes nothing.
func TestMigrateRefusesAnEditedInterruptedRun(t *testing.T) {
	want := demoFolder(t)
	if _, err := Migrate(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	wantFiles := files(t, want)
	dir := demoFolder(t)
	if err := os.Mkdir(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, name := range placedFiles(t, want) {
		b := wantFiles[name]
		if i == 2 {
			b = "# edited\n" + b
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := files(t, dir)
	_, err := Migrate(t.Context(), dir)
	if err == nil || !strings.Contains(quarry.Message(err), "is defined twice") {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(before, files(t, dir)); diff != "" {
		t.Errorf("the folder changed:\n%s", diff)
	}
}

// TestMigrateCRLF: a model.yaml saved with CRLF line breaks (on every
// line, on the first only, with a byte order mark) migrates to the same
// model, and every file written has CRLF line breaks throughout.
func TestMigrateCRLF(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(string) string
	}{
		{"CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
		{"CRLF on line 1", func(s string) string { return strings.Replace(s, "\n", "\r\n", 1) }},
		{"BOM and CRLF", func(s string) string { return "\xEF\xBB\xBF" + strings.ReplaceAll(s, "\n", "\r\n") }},
		{"BOM", func(s string) string { return "\xEF\xBB\xBF" + s }},
	} {
		for _, keep := range []bool{false, true} {
			dir := demoFolder(t)
			model := filepath.Join(dir, ModelFile)
			b, err := os.ReadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			if keep {
				// a relationship that stays in model.yaml: its from
				// entity has a file
				src += "  - name: extra_customer\n    from: extra\n    from_column: id\n    to: customers\n    to_column: id\n    cardinality: many_to_one\n"
				if err := os.Mkdir(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, EntitiesDir, "extra.yaml"), []byte("name: extra\ncolumns:\n  - name: id\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(model, []byte(tc.edit(src)), 0o644); err != nil {
				t.Fatal(err)
			}
			before, err := Load(dir)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			rep, err := Migrate(t.Context(), dir)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if rep.ModelRemoved == keep || rep.Entities != 9 {
				t.Errorf("%s: report %+v", tc.name, rep)
			}
			after, err := Load(dir)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if diff := cmp.Diff(SortedModel(before.Model), SortedModel(after.Model)); diff != "" {
				t.Errorf("%s: the model changed:\n%s", tc.name, diff)
			}
			crlf := strings.Contains(tc.name, "CRLF")
			written := rep.Files
			if keep {
				written = append(written, ModelFile)
			}
			for _, name := range written {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				text := string(b)
				lf := strings.Count(text, "\n")
				if n := strings.Count(text, "\r\n"); crlf && n != lf || !crlf && n != 0 || lf == 0 {
					t.Errorf("%s: %s has %d CRLF of %d line breaks:\n%q", tc.name, name, n, lf, text)
				}
				bom := strings.HasPrefix(text, "\xEF\xBB\xBF")
				if bom != (name == ModelFile && strings.Contains(tc.name, "BOM")) {
					t.Errorf("%s: %s: byte order mark %v", tc.name, name, bom)
				}
			}
		}
	}
}

// TestMigrateFileModes: entity files take model.yaml's permissions (learn
// writes 0600: knowledge files hold known values), whatever the umask;
// entities/ the folder's.
func TestMigrateFileModes(t *testing.T) {
	for _, mode := range []fs.FileMode{0o600, 0o644} {
		dir := demoFolder(t)
		if err := os.Chmod(filepath.Join(dir, ModelFile), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o750); err != nil {
			t.Fatal(err)
		}
		rep, err := Migrate(t.Context(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range rep.Files {
			st, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != mode {
				t.Errorf("%s: mode %v, want %v (model.yaml's)", name, st.Mode().Perm(), mode)
			}
		}
		if st, err := os.Stat(filepath.Join(dir, EntitiesDir)); err != nil || st.Mode().Perm() != 0o750 {
			t.Errorf("entities/: %v %v, want the folder's 0750", st.Mode(), err)
		}
	}
}

// demoFolder is a copy of the demo knowledge folder.
func demoFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "knowledge")
	if err := os.CopyFS(dir, demo.Knowledge()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// placedFiles are the entity files of a migrated folder, sorted.
func placedFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for name := range files(t, dir) {
		if strings.HasPrefix(name, EntitiesDir+string(filepath.Separator)) && !strings.HasSuffix(name, "/") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
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
