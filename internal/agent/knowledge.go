package agent

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// maxKnowledgeBytes bounds one knowledge file handed to the model.
const maxKnowledgeBytes = 64 << 10

// knowledgeExts are the kinds of files read_knowledge reads.
var knowledgeExts = map[string]bool{".md": true, ".yaml": true, ".yml": true, ".txt": true}

// readKnowledge reads one file of the knowledge folder dir, confined to it:
// the name must be relative, clean, free of "..", globs and backslashes,
// and it is opened through an os.Root, which refuses symbolic links that
// lead outside the folder. An empty name or "." lists the files instead.
func readKnowledge(dir, name string) (string, error) {
	if dir == "" {
		return "", quarry.Errorf(quarry.KindNotFound, "this project has no knowledge folder")
	}
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == "/" {
		return listKnowledge(dir)
	}
	if err := checkKnowledgeName(name); err != nil {
		return "", err
	}
	if !knowledgeExts[strings.ToLower(path.Ext(name))] {
		return "", quarry.Errorf(quarry.KindInput, "read_knowledge reads .md, .yaml, .yml and .txt files only, not %q", name)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", quarry.Wrap(quarry.KindNotFound, err, "the knowledge folder cannot be opened")
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", quarry.Errorf(quarry.KindNotFound, "no file %q in the knowledge folder; call read_knowledge with an empty path to list the files", name)
		}
		return "", quarry.Errorf(quarry.KindForbidden, "%q cannot be read from the knowledge folder (it may lead outside it)", name)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", quarry.Errorf(quarry.KindInput, "%q is not a file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKnowledgeBytes+1))
	if err != nil {
		return "", quarry.Wrap(quarry.KindInput, err, "cannot read %q", name)
	}
	text := string(b)
	if len(b) > maxKnowledgeBytes {
		text = string(b[:maxKnowledgeBytes]) + "\n[… cut at 64 KiB]"
	}
	return text, nil
}

// checkKnowledgeName refuses names that could reach outside the folder or
// match more than one file.
func checkKnowledgeName(name string) error {
	switch {
	case strings.ContainsAny(name, "*?[]{}\\\x00"):
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes one file's path, not a pattern: %q", name)
	case path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes a path inside the knowledge folder, not an absolute path: %q", name)
	case !fs.ValidPath(name):
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes a clean path inside the knowledge folder (no \"..\", no \"./\", no trailing slash): %q", name)
	}
	return nil
}

// listKnowledge lists the readable files of the folder, one per line.
func listKnowledge(dir string) (string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", quarry.Wrap(quarry.KindNotFound, err, "the knowledge folder cannot be opened")
	}
	defer root.Close()
	var b strings.Builder
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && knowledgeExts[strings.ToLower(path.Ext(p))] {
			b.WriteString(p + "\n")
		}
		return nil
	})
	if err != nil {
		return "", quarry.Wrap(quarry.KindInput, err, "cannot list the knowledge folder")
	}
	if b.Len() == 0 {
		return "(the knowledge folder has no readable files)", nil
	}
	return b.String(), nil
}
