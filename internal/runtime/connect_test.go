package runtime

import (
	"os"
	"path/filepath"
	"testing"
)

// TestParseTargetFilePath: a SQLite URL with an absolute path
// (sqlite:////data/shop.db, sqlite:///data/shop.db) and a plain path name
// the same file, written once as the path the person means (found from
// outside: quarry.yaml kept "//tmp/…", which works but looks wrong).
func TestParseTargetFilePath(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "shop.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"sqlite://" + db, "sqlite:///" + db, "sqlite3://" + db, db, "shop.db", "./shop.db", "file://" + db} {
		got, err := ParseTarget(raw, dir)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got.Path != db || got.Name != "shop" {
			t.Errorf("%s: path %q, name %q; want %q, shop", raw, got.Path, got.Name, db)
		}
	}
}
