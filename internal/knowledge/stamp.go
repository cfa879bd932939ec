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
// without reading them ("" when there is no folder), and the files that
// decide what may be read and what the numbers are (readEveryTime) by
// their bytes too: a write through a shared memory map changes no time a
// stamp reads (found from outside: a column restricted so was still
// served). An equal stamp means the files were not written since: a
// server takes the folder's Fingerprint, which reads every file, only
// when the stamp changed, and Load reads its cache without reading the
// other files. A stamp taken while a file was written just now, or of a
// folder holding a symbolic link (whose target the stamp cannot see),
// never equals another. Dot folders (.cache) are left out.
func Stamp(dir string) (string, error) {
	return stampWith(dir, statFunc, time.Now())
}

// readEveryTime are the files a Stamp reads: policy.yaml, metrics.yaml
// and model.yaml, about a millisecond for a metrics.yaml of 1.7 MB. The
// entity files, thousands on a wide schema, are stamped by their times.
var readEveryTime = [...]string{PolicyFile, MetricsFile, ModelFile}

// statOpener opens the folder p for the lstat of its entries (statFunc).
type statOpener func(p string) (stat func(fs.DirEntry) (fileStat, error), done func(), err error)

// stampWith is Stamp, each file's lstat by open, at now.
func stampWith(dir string, open statOpener, now time.Time) (string, error) {
	root := dir
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		root = r
	} else if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	s := stamper{now: now, h: sha256.New(), open: open}
	if err := s.dir(root); err != nil {
		return "", readError(dir, err)
	}
	for _, name := range readEveryTime {
		b, err := os.ReadFile(filepath.Join(root, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.write(name, "\x00-")
			continue
		case err != nil:
			return "", readError(dir, err)
		}
		s.write(name, "\x00bytes")
		s.h.Write(b)
	}
	return hex.EncodeToString(s.h.Sum(nil)), nil
}

// stamper hashes a folder's tree into h.
type stamper struct {
	now  time.Time
	h    hash.Hash
	buf  []byte
	open statOpener
}

// dir stamps the folder p: its name, then each entry in name order,
// folders recursively (dot folders left out).
func (s *stamper) dir(p string) error {
	ents, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	s.write(p, "/")
	stats, err := statsOf(p, ents, s.open)
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
		st := stats[i]
		if !st.regular {
			s.unique()
			continue
		}
		s.write(e.Name(), "")
		s.buf = binary.LittleEndian.AppendUint64(s.buf[:0], uint64(st.size))
		s.buf = binary.LittleEndian.AppendUint64(s.buf, uint64(st.modified.UnixNano()))
		s.buf = binary.LittleEndian.AppendUint64(s.buf, st.ino)
		s.buf = binary.LittleEndian.AppendUint64(s.buf, uint64(st.ctime))
		s.h.Write(s.buf)
		if s.now.Sub(st.modified) < 2*time.Second {
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

// fileStat is what a stamp holds of one file.
type fileStat struct {
	regular  bool
	size     int64
	modified time.Time
	ino      uint64 // 0 where not read
	ctime    int64  // the status change time, 0 where not read
}

// statsOf is the lstat of each file of ents in the folder p, by open,
// zero for folders. A folder of thousands of entity files is described by
// a few goroutines at once: each lstat waits on the kernel.
func statsOf(p string, ents []fs.DirEntry, open statOpener) ([]fileStat, error) {
	stat, done, err := open(p)
	if err != nil {
		return nil, err
	}
	defer done()
	stats := make([]fileStat, len(ents))
	errs := make([]error, len(ents))
	one := func(i int) {
		if !ents[i].IsDir() {
			stats[i], errs[i] = stat(ents[i])
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
	return stats, errors.Join(errs...)
}
