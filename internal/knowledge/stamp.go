package knowledge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Stamp describes the files of the folder dir by their names, sizes,
// modification times and (on Linux) inodes and status change times,
// without reading them ("" when there is no folder). An equal stamp means
// the files were not written since: a server takes the folder's
// Fingerprint, which reads every file, only when the stamp changed, and
// Load reads its cache without reading the files. A stamp taken while a
// file was written just now, or of a folder holding a symbolic link (whose
// target the stamp cannot see), never equals another. Dot folders
// (.cache) are left out.
func Stamp(dir string) (string, error) {
	root := dir
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		root = r
	} else if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	s := stamper{now: time.Now(), h: sha256.New()}
	if err := s.dir(root); err != nil {
		return "", readError(dir, err)
	}
	return hex.EncodeToString(s.h.Sum(nil)), nil
}

// stamper hashes a folder's tree into h.
type stamper struct {
	now time.Time
	h   hash.Hash
	buf []byte
}

// dir stamps the folder p: its name, then each entry in name order,
// folders recursively (dot folders left out).
func (s *stamper) dir(p string) error {
	ents, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	s.write(p, "/")
	infos, err := infosOf(p, ents)
	if err != nil {
		return err
	}
	for i, e := range ents {
		if e.IsDir() {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if err := s.dir(filepath.Join(p, e.Name())); err != nil {
				return err
			}
			continue
		}
		st := infos[i]
		if !st.Mode().IsRegular() {
			s.unique()
			continue
		}
		ino, ctime := changeOf(st)
		s.write(e.Name(), "")
		s.buf = binary.LittleEndian.AppendUint64(s.buf[:0], uint64(st.Size()))
		s.buf = binary.LittleEndian.AppendUint64(s.buf, uint64(st.ModTime().UnixNano()))
		s.buf = binary.LittleEndian.AppendUint64(s.buf, ino)
		s.buf = binary.LittleEndian.AppendUint64(s.buf, uint64(ctime))
		s.h.Write(s.buf)
		if s.now.Sub(st.ModTime()) < 2*time.Second {
			// Written just now: a file system with coarse times could
			// write it again within the same time, so the stamp says
			// nothing until it has settled.
			s.unique()
		}
	}
	return nil
}

func (s *stamper) write(name, suffix string) {
	s.buf = append(append(append(s.buf[:0], name...), suffix...), 0)
	s.h.Write(s.buf)
}

// unique makes the stamp equal no other.
func (s *stamper) unique() {
	s.write("now", "")
	s.buf = binary.LittleEndian.AppendUint64(s.buf[:0], uint64(s.now.UnixNano()))
	s.h.Write(s.buf)
}

// infosOf is the FileInfo (lstat) of each file of ents in the folder p,
// nil for folders. A folder of thousands of entity files is described by
// a few goroutines at once: each lstat waits on the kernel.
func infosOf(p string, ents []fs.DirEntry) ([]fs.FileInfo, error) {
	infos := make([]fs.FileInfo, len(ents))
	errs := make([]error, len(ents))
	one := func(i int) {
		if !ents[i].IsDir() {
			infos[i], errs[i] = ents[i].Info()
		}
	}
	const workers, alone = 8, 256
	if len(ents) < alone {
		for i := range ents {
			one(i)
		}
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(ents); i += workers {
					one(i)
				}
			})
		}
		wg.Wait()
	}
	return infos, errors.Join(errs...)
}
