package knowledge

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quarrydata/quarry/internal/quarry"
)

// CacheDir holds what is derived and can always be written again: the
// value index (from the database) and the decoded folder (FolderCacheFile).
// It is not knowledge (not loaded, not in the folder's hash) and is kept
// out of version control.
const CacheDir = ".cache"

// ValuesFile is the value index (internal/valueindex), inside CacheDir;
// quarry learn writes it.
const ValuesFile = CacheDir + "/values.db"

// EnsureCache creates CacheDir with a .gitignore that keeps it out of
// version control.
func EnsureCache(dir string) error {
	cache := filepath.Join(dir, CacheDir)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot create %s", cache)
	}
	ignore := filepath.Join(cache, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte("# Written by quarry: what it derives from the database and this folder; never commit it.\n*\n"), 0o644); err != nil {
			return quarry.Wrap(quarry.KindConfig, err, "cannot write %s", ignore)
		}
	}
	return nil
}
