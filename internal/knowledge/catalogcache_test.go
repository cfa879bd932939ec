package knowledge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestCatalogCache: a catalog is read back only by the reader and at the
// version it was written with; anything else, or a damaged file, is a
// miss, never another catalog.
func TestCatalogCache(t *testing.T) {
	dir := t.TempDir()
	cat := &quarry.Catalog{Dialect: quarry.DialectPostgres, Tables: []quarry.TableInfo{{Schema: "sales", Name: "orders", RowCount: 12,
		Columns: []quarry.ColumnInfo{{Name: "id", Type: quarry.TypeInt}, {Name: "total", Type: quarry.TypeDecimal}}, PrimaryKey: []string{"id"}}}}
	if got := ReadCatalog(dir, "ann@db", "v1"); got != nil {
		t.Fatalf("an empty cache gave %+v", got)
	}
	WriteCatalog(dir, "ann@db", "v1", cat)
	if d := cmp.Diff(cat, ReadCatalog(dir, "ann@db", "v1")); d != "" {
		t.Errorf("read back (-written +read):\n%s", d)
	}
	for _, miss := range [][2]string{{"ann@db", "v2"}, {"bob@db", "v1"}, {"ann@other", "v1"}, {"ann@db", ""}} {
		if got := ReadCatalog(dir, miss[0], miss[1]); got != nil {
			t.Errorf("%s at %q read a catalog", miss[0], miss[1])
		}
	}
	// A newer version replaces the file: one per reader.
	WriteCatalog(dir, "ann@db", "v2", &quarry.Catalog{Dialect: quarry.DialectPostgres})
	if ReadCatalog(dir, "ann@db", "v1") != nil || ReadCatalog(dir, "ann@db", "v2") == nil {
		t.Error("the newer version did not replace the older")
	}
	files, _ := filepath.Glob(filepath.Join(dir, CatalogCacheDir, "*"))
	if len(files) != 1 {
		t.Fatalf("files %v, want one", files)
	}
	if err := os.WriteFile(files[0], []byte("not gob"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ReadCatalog(dir, "ann@db", "v2") != nil {
		t.Error("a damaged file read as a catalog")
	}
}

// TestCatalogAhead: the catalog decoded ahead is given only to its own
// reader at its own version, and only where the folder keeps one.
func TestCatalogAhead(t *testing.T) {
	dir := t.TempDir()
	if CatalogAhead(dir) != nil {
		t.Fatal("a folder without catalogs decodes one ahead")
	}
	cat := &quarry.Catalog{Dialect: quarry.DialectPostgres, Tables: []quarry.TableInfo{{Schema: "sales", Name: "orders",
		Columns: []quarry.ColumnInfo{{Name: "id", Type: quarry.TypeInt}}}}}
	WriteCatalog(dir, "ann@db", "v1", cat)
	for _, miss := range [][2]string{{"ann@db", "v2"}, {"bob@db", "v1"}, {"ann@db", ""}} {
		if got := CatalogAhead(dir)(miss[0], miss[1]); got != nil {
			t.Errorf("%s at %q was given the catalog of ann@db at v1", miss[0], miss[1])
		}
	}
	ahead := CatalogAhead(dir)
	if d := cmp.Diff(cat, ahead("ann@db", "v1")); d != "" {
		t.Errorf("decoded ahead (-written +read):\n%s", d)
	}
	if ahead("bob@db", "v1") != nil {
		t.Error("a second reader was given the first one's catalog")
	}
	WriteCatalog(dir, "bob@db", "v1", cat)
	if CatalogAhead(dir) != nil {
		t.Error("a folder with two readers' catalogs decodes one ahead")
	}
}
