package knowledge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestLoadEntitiesDirHoldsOnlyFiles: a folder inside entities/ is an
// error (its entities would silently be missing), and so is a symbolic
// link, whose target is not read (nor quoted in the message); hidden
// entries are left alone. Each message names the path and what to do,
// also when the folder was loaded (and cached) before.
func TestLoadEntitiesDirHoldsOnlyFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir string)
		want string
	}{
		{"folder", func(t *testing.T, dir string) {
			writeAll(t, filepath.Join(dir, "entities", "catalog", "products.yaml"), "name: products\ncolumns:\n  - name: id\n")
		}, "/entities/catalog: is a folder, and entities/ is not read below its top level; move its files up into entities/"},
		{"link", func(t *testing.T, dir string) {
			secret := filepath.Join(t.TempDir(), "passwd")
			writeAll(t, secret, "root:x:0:0:root:/root:/bin/bash\n")
			if err := os.Symlink(secret, filepath.Join(dir, "entities", "link.yaml")); err != nil {
				t.Skip(err)
			}
		}, "/entities/link.yaml: is a symbolic link, and entities/ holds only plain files; replace the link with the file it points to"},
	} {
		dir := filepath.Join(t.TempDir(), "knowledge")
		writeAll(t, filepath.Join(dir, "entities", "orders.yaml"), "name: orders\ncolumns:\n  - name: id\n")
		writeAll(t, filepath.Join(dir, "entities", ".hidden", "x.yaml"), "not: an entity\n")
		load(t, dir) // cached
		tc.make(t, dir)
		_, err := knowledge.Load(dir)
		if err == nil {
			t.Fatalf("%s: loaded", tc.name)
		}
		msg := quarry.Message(err)
		if !strings.HasPrefix(msg, dir+tc.want) || strings.Contains(msg, "root:") || strings.Contains(msg, "\n") {
			t.Errorf("%s: message %q, want it to start with %q", tc.name, msg, dir+tc.want)
		}
	}
}

// TestLoadEntityFileWithoutColumns: the problem of an entity file that
// lists no columns has a line (the entity's), like every other.
func TestLoadEntityFileWithoutColumns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "knowledge")
	writeAll(t, filepath.Join(dir, "entities", "ghost.yaml"), "# a table with nothing in it\nname: ghost\n")
	_, err := knowledge.Load(dir)
	if want := dir + "/entities/ghost.yaml:2: columns: entity \"ghost\" lists no columns"; err == nil || !strings.HasPrefix(quarry.Message(err), want) {
		t.Errorf("err = %v, want it to start with %q", err, want)
	}
}
