package runtime

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/importer"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Import reads a semantic model of another tool (a file, or every .yaml
// and .yml file under a folder) in the given format (detected when
// empty), merges it into the knowledge folder and reads the folder again.
func (r *Runtime) Import(ctx context.Context, path, format string) (*knowledge.ImportReport, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	f, err := importer.ParseFormat(format)
	if err != nil {
		return nil, err
	}
	files, err := readImportFiles(ctx, path)
	if err != nil {
		return nil, err
	}
	in, err := importer.Parse(files, f)
	if err != nil {
		return nil, err
	}
	rep, err := knowledge.Import(ctx, cfg.Knowledge, in)
	r.Reload()
	return rep, err
}

// skipDir reports folders of a dbt or Cube project that hold output or
// packages, not the project's own models.
func skipDir(name string) bool {
	switch name {
	case "target", "dbt_packages", "dbt_modules", "node_modules", "logs":
		return true
	}
	return strings.HasPrefix(name, ".")
}

func readImportFiles(ctx context.Context, path string) ([]importer.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, quarry.Wrap(quarry.KindUsage, err, "%s does not exist; name a semantic model file or a folder of them", path)
		}
		return nil, quarry.Wrap(quarry.KindUsage, err, "cannot read %s", path)
	}
	var names []string
	if !st.IsDir() {
		names = []string{path}
	} else {
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if d.IsDir() {
				if p != path && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := strings.ToLower(filepath.Ext(p)); ext == ".yaml" || ext == ".yml" {
				names = append(names, p)
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, quarry.Wrap(quarry.KindCanceled, err, "import was interrupted; nothing was written")
			}
			return nil, quarry.Wrap(quarry.KindUsage, err, "cannot read the folder %s", path)
		}
	}
	files := make([]importer.File, 0, len(names))
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, quarry.Wrap(quarry.KindCanceled, err, "import was interrupted; nothing was written")
		}
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindUsage, err, "cannot read %s", n)
		}
		files = append(files, importer.File{Name: n, Data: b})
	}
	return files, nil
}
