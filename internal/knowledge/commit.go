package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// LearnPendingDir holds, inside CacheDir, the files a learn run is putting in
// place, and pendingManifest in it names them. Learn writes every file it
// changes there first, then the manifest (the moment the run is
// decided), then renames the files into place and removes the folder.
// Interrupted before the manifest, the folder is as it was and the next
// learn removes LearnPendingDir; interrupted after it, while renaming (a
// killed process, a lost machine: milliseconds), the next learn finishes
// the renames first, and Load refuses the folder until it has.
const LearnPendingDir = CacheDir + "/learn-pending"

const pendingManifest = "manifest.json"

// manifest is what pendingManifest holds: staged file names (inside
// LearnPendingDir) and where each goes, relative to the folder.
type manifest struct {
	Files []stagedFile `json:"files"`
}

type stagedFile struct {
	Staged string `json:"staged"`
	Name   string `json:"name"`
}

// fileSet is what a learn run writes: the files whose content changes,
// in the order they were added.
type fileSet struct {
	dir   string
	names []string
	data  map[string][]byte
}

func newFileSet(dir string) *fileSet { return &fileSet{dir: dir, data: map[string][]byte{}} }

// add records that name (relative to the folder) should hold b, unless it
// already does; a file learn will write is listed in rep.Files.
func (s *fileSet) add(name string, b []byte, rep *LearnReport) {
	if cur, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(name))); err == nil && string(cur) == string(b) {
		return
	}
	if _, ok := s.data[name]; !ok {
		s.names = append(s.names, name)
		rep.Files = append(rep.Files, name)
	}
	s.data[name] = b
}

// commit writes the set: staged (stage), then put in place (finishPending).
// Until the manifest is written, an interruption (ctx) leaves the folder
// as it was; after it, the renames are finished whatever ctx says.
func (s *fileSet) commit(ctx context.Context) error {
	if len(s.names) == 0 {
		return nil
	}
	if err := s.stage(ctx); err != nil {
		return err
	}
	_, err := finishPending(s.dir)
	return err
}

// stage writes every file of the set into LearnPendingDir, synced, then the
// manifest that names them.
func (s *fileSet) stage(ctx context.Context) error {
	if err := EnsureCache(s.dir); err != nil {
		return err
	}
	pdir := filepath.Join(s.dir, filepath.FromSlash(LearnPendingDir))
	if err := os.RemoveAll(pdir); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot clear %s", yamlnode.JoinDisplay(s.dir, LearnPendingDir))
	}
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot create %s; check the folder's permissions", yamlnode.JoinDisplay(s.dir, LearnPendingDir))
	}
	m := manifest{Files: make([]stagedFile, 0, len(s.names))}
	for k, name := range s.names {
		if err := ctx.Err(); err != nil {
			os.RemoveAll(pdir)
			return interrupted(err)
		}
		staged := strconv.Itoa(k)
		if err := writeSynced(filepath.Join(pdir, staged), s.data[name]); err != nil {
			os.RemoveAll(pdir)
			return quarry.Wrap(quarry.KindConfig, err, "cannot write %s; check the free disk space", yamlnode.JoinDisplay(s.dir, name))
		}
		m.Files = append(m.Files, stagedFile{Staged: staged, Name: name})
	}
	if err := ctx.Err(); err != nil {
		os.RemoveAll(pdir)
		return interrupted(err)
	}
	b, err := json.Marshal(m)
	if err == nil {
		err = writeSynced(filepath.Join(pdir, "."+pendingManifest), b)
	}
	if err == nil {
		err = os.Rename(filepath.Join(pdir, "."+pendingManifest), filepath.Join(pdir, pendingManifest))
	}
	if err != nil {
		os.RemoveAll(pdir)
		return quarry.Wrap(quarry.KindConfig, err, "cannot write %s; check the free disk space", yamlnode.JoinDisplay(s.dir, LearnPendingDir+"/"+pendingManifest))
	}
	syncDir(pdir)
	return nil
}

// finishPending completes what an earlier commit left in LearnPendingDir: with
// a manifest, every staged file still there is renamed to its place;
// without one (a run interrupted before it decided), the staged files are
// dropped. It returns how many files it put in place.
func finishPending(dir string) (int, error) {
	pdir := filepath.Join(dir, filepath.FromSlash(LearnPendingDir))
	b, err := os.ReadFile(filepath.Join(pdir, pendingManifest))
	if errors.Is(err, os.ErrNotExist) {
		if err := os.RemoveAll(pdir); err != nil {
			return 0, quarry.Wrap(quarry.KindConfig, err, "cannot remove %s", yamlnode.JoinDisplay(dir, LearnPendingDir))
		}
		return 0, nil
	}
	var m manifest
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		return 0, quarry.Wrap(quarry.KindConfig, err, "cannot read %s; remove %s and run learn again", yamlnode.JoinDisplay(dir, LearnPendingDir+"/"+pendingManifest), yamlnode.JoinDisplay(dir, LearnPendingDir))
	}
	n := 0
	made := map[string]bool{}
	for _, f := range m.Files {
		from := filepath.Join(pdir, filepath.Base(f.Staged))
		if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
			continue // put in place before the interruption
		}
		if !filepath.IsLocal(filepath.FromSlash(f.Name)) {
			return n, quarry.Errorf(quarry.KindConfig, "%s names %q, outside the folder; remove %s and run learn again", yamlnode.JoinDisplay(dir, LearnPendingDir+"/"+pendingManifest), f.Name, yamlnode.JoinDisplay(dir, LearnPendingDir))
		}
		to := filepath.Join(dir, filepath.FromSlash(f.Name))
		if parent := filepath.Dir(to); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return n, quarry.Wrap(quarry.KindConfig, err, "cannot create %s", parent)
			}
			made[parent] = true
		}
		if err := os.Rename(from, to); err != nil {
			return n, quarry.Wrap(quarry.KindConfig, err, "cannot replace %s; check the folder's permissions, then run learn again to finish", yamlnode.JoinDisplay(dir, f.Name))
		}
		n++
	}
	for parent := range made {
		syncDir(parent)
	}
	// The manifest goes last: until it is gone, the renames are unfinished.
	if err := os.Remove(filepath.Join(pdir, pendingManifest)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return n, quarry.Wrap(quarry.KindConfig, err, "cannot remove %s", yamlnode.JoinDisplay(dir, LearnPendingDir+"/"+pendingManifest))
	}
	os.RemoveAll(pdir)
	return n, nil
}

// pendingError is the error Load returns while a learn's renames are
// unfinished, or nil.
func pendingError(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(LearnPendingDir), pendingManifest)); err != nil {
		return nil
	}
	return quarry.Errorf(quarry.KindConfig, "knowledge folder %s: `quarry learn` was interrupted while it replaced the folder's files; run `quarry learn` again to finish", dir)
}

// interrupted is the error of a learn run whose context ended.
func interrupted(err error) error {
	return quarry.Wrap(quarry.KindCanceled, err, "learn was interrupted; the knowledge folder is as it was; run it again to resume (the tables it read are not read again)")
}

// writeSynced writes a knowledge file 0600 (it may hold a column's known
// values) and syncs it before it is renamed into place.
func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	serr := f.Sync()
	return errors.Join(werr, serr, f.Close())
}

// syncDir makes a folder's renames durable where the system allows it.
func syncDir(path string) {
	if d, err := os.Open(path); err == nil {
		d.Sync()
		d.Close()
	}
}
