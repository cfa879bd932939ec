package runtime

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestWriteShadow: the empty copy of a schema holds its tables (names
// quoted as written) and counts every column of a view as one a statement
// may not read; a table in an attached database is not copied.
func TestWriteShadow(t *testing.T) {
	cat := &quarry.Catalog{Tables: []quarry.TableInfo{
		{Name: `odd "name"`, Columns: []quarry.ColumnInfo{{Name: "a b"}, {Name: "c"}}},
		{Name: "v", View: true, Columns: []quarry.ColumnInfo{{Name: "x"}}},
	}}
	var views []string
	if !writeShadow(filepath.Join(t.TempDir(), "s.db"), cat, &views) {
		t.Fatal("the schema was not written")
	}
	if !slices.Equal(views, []string{"v.x"}) {
		t.Errorf("views %v, want v.x", views)
	}
	attached := &quarry.Catalog{Tables: []quarry.TableInfo{{Schema: "aux", Name: "t", Columns: []quarry.ColumnInfo{{Name: "a"}}}}}
	if writeShadow(filepath.Join(t.TempDir(), "s.db"), attached, &views) {
		t.Error("a table of an attached database was copied")
	}
}
