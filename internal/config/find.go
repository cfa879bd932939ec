package config

import (
	"os"
	"path/filepath"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Find looks for quarry.yaml in start and then in each folder above it, the
// way git finds .git, and returns its absolute path. start may be a file,
// in which case the search begins in its folder.
func Find(start string) (string, error) {
	if start == "" {
		start = "."
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", quarry.Wrap(quarry.KindConfig, err, "cannot resolve %s", start)
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	from := dir
	for {
		candidate := filepath.Join(dir, FileName)
		if st, err := os.Stat(candidate); err == nil && !st.IsDir() {
			return candidate, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", quarry.Errorf(quarry.KindConfig, "no %s in %s or any folder above it; run `quarry init` to create one", FileName, from)
		}
		dir = parent
	}
}
