package connector

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// DatabaseFile describes a file-based database format for CheckFile.
type DatabaseFile struct {
	Name     string                 // "SQLite", "DuckDB"
	HeadSize int                    // bytes of the file's start that Magic reads
	Magic    func(head []byte) bool // whether the start (possibly shorter than HeadSize) is this format
	NotIt    string                 // the rest of the message when Magic fails, e.g. "check the path"
}

// CheckFile refuses what cannot be a database file of format f before the
// engine sees it, so that nothing is ever created at path, and returns the
// absolute path. Every refusal is a one-line KindConnection error.
func CheckFile(path string, f DatabaseFile) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", quarry.Errorf(quarry.KindConnection, "no %s database path given; set the connection's path in quarry.yaml", f.Name)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", quarry.Wrap(quarry.KindConnection, err, "cannot resolve the %s path %q; use an absolute path", f.Name, path)
	}
	denied := func() error {
		return quarry.Errorf(quarry.KindConnection, "cannot read %s database %s: permission denied; make the file readable", f.Name, path)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", quarry.Errorf(quarry.KindConnection, "%s database %s does not exist; check the path (quarry never creates it)", f.Name, path)
	case errors.Is(err, os.ErrPermission):
		return "", denied()
	case err != nil:
		return "", quarry.Wrap(quarry.KindConnection, err, "cannot open %s database %s; check the path", f.Name, path)
	case fi.IsDir():
		return "", quarry.Errorf(quarry.KindConnection, "%s is a directory; point the connection at a %s database file", path, f.Name)
	case !fi.Mode().IsRegular():
		return "", quarry.Errorf(quarry.KindConnection, "%s is not a regular file; point the connection at a %s database file", path, f.Name)
	}
	file, err := os.Open(abs)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return "", denied()
		}
		return "", quarry.Wrap(quarry.KindConnection, err, "cannot open %s database %s; check the path", f.Name, path)
	}
	defer file.Close()
	head := make([]byte, f.HeadSize)
	n, err := io.ReadFull(file, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return "", quarry.Errorf(quarry.KindConnection, "%s is empty, not a %s database; check the path", path, f.Name)
	}
	if !f.Magic(head[:n]) {
		return "", quarry.Errorf(quarry.KindConnection, "%s is not a %s database; %s", path, f.Name, f.NotIt)
	}
	return abs, nil
}
