package knowledge

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
)

// FolderCacheFile keeps the last folder Load validated, decoded, inside
// CacheDir. Parsing and validating the YAML costs milliseconds per
// command (most of a one-row `quarry run`); reading this file back costs a
// fraction of that. It is used only when its key matches: the SHA-256 of
// every file of the folder (the same bytes Load would read, so an edit is
// never missed), a fingerprint of the Go types it decodes into (so a
// binary whose Folder differs never reads another binary's file), and the
// commit the binary was built from (so another build's checks never vouch
// for it). It also holds the folder's Stamp when it was written: while the
// stamp is unchanged, Load trusts the key without reading and hashing the
// files again, which on a folder of ten thousand entity files is most of
// its time.
const FolderCacheFile = CacheDir + "/folder.gob"

// cacheHead is the first value of FolderCacheFile; the body follows it,
// one []byte, so a cache that does not match is left without decoding
// the folder. The body is a gob stream of its own: the folder without its
// model's entities, then the entities as one []byte of entcodec.go's
// format.
type cacheHead struct {
	Key   string // the files' hash, then cacheTail
	Stamp string // the folder's Stamp before its files were read
	// Sum is the CRC-32C of the body that follows: a cache damaged on
	// disk is read afresh, never decoded into other knowledge.
	Sum uint32
}

// checksVersion names the rules a cached folder passed. A folder cached
// by a binary with fewer checks must be validated again by one with more,
// so a change to the checks (a new problem Load reports) bumps it.
// 2: a verified query that reads a restricted column is a problem.
// 3: a metric's better is higher or lower.
// 4: the values of restricted columns are forgotten.
// 5: the entities are written apart (entcodec.go), a layout older
// binaries' caches do not have.
// 6: the head holds the body's checksum; a stamp reads policy.yaml,
// metrics.yaml and model.yaml.
const checksVersion = "6"

// cacheTail is what a cache key holds besides the files' hash: the
// fingerprint of Folder's types, the checks and the build; "" when Folder
// cannot be cached (a type gob would not carry whole, a modified build).
func cacheTail() string {
	fp, build := folderFingerprint(), buildOf()
	if fp == "" || build == "" {
		return ""
	}
	return fp + "/" + checksVersion + "/" + build
}

// buildOf names the code that validated a cached folder: the commit a
// binary was built from, so that another build's checks never vouch for
// a folder (checksVersion covers builds without one, such as tests); ""
// for a build with uncommitted changes, which never caches.
var buildOf = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case modified:
		return ""
	case rev != "":
		return rev
	}
	return "dev"
})

// cachedFolder is what FolderCacheFile holds: its head and the folder,
// nil when there is none this build may read.
type cachedFolder struct {
	head cacheHead
	f    *Folder
}

// readCache reads the cached folder of dir when its key ends in tail (this
// build's) and its body is whole, without deciding whether the files are
// still those it was made from: Load does, by the head's stamp or key.
func readCache(dir, tail string) cachedFolder {
	r, err := os.Open(filepath.Join(dir, filepath.FromSlash(FolderCacheFile)))
	if err != nil {
		return cachedFolder{}
	}
	defer r.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	var h cacheHead
	if err := dec.Decode(&h); err != nil || !strings.HasSuffix(h.Key, "/"+tail) {
		return cachedFolder{}
	}
	var body []byte
	if err := dec.Decode(&body); err != nil || crc32.Checksum(body, castagnoli()) != h.Sum {
		return cachedFolder{}
	}
	dec = gob.NewDecoder(bytes.NewReader(body))
	var f Folder
	if err := dec.Decode(&f); err != nil || f.Model == nil {
		return cachedFolder{}
	}
	var ents []byte
	if err := dec.Decode(&ents); err != nil {
		return cachedFolder{}
	}
	decoded, err := decodeEntities(string(ents))
	if err != nil {
		return cachedFolder{}
	}
	f.Model.Entities = decoded
	return cachedFolder{h, &f}
}

// castagnoli is the CRC-32C table (computed by the processor where it
// can), made at its first use: hash/crc32 keeps one, not made at start.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// writeCache stores f under h, atomically, with the body's checksum. A
// folder that cannot be written (read-only, full) is simply not cached.
func writeCache(dir string, h cacheHead, f *Folder) {
	var body bytes.Buffer
	enc := gob.NewEncoder(&body)
	// The folder, its model's entities apart (entcodec.go).
	g, m := *f, *f.Model
	m.Entities, g.Model = nil, &m
	if err := enc.Encode(&g); err != nil {
		return
	}
	if err := enc.Encode(appendEntities(nil, f.Model.Entities)); err != nil {
		return
	}
	h.Sum = crc32.Checksum(body.Bytes(), castagnoli())
	var buf bytes.Buffer
	enc = gob.NewEncoder(&buf)
	if err := enc.Encode(h); err != nil {
		return
	}
	if err := enc.Encode(body.Bytes()); err != nil {
		return
	}
	if EnsureCache(dir) != nil {
		return
	}
	replaceFile(filepath.Join(dir, filepath.FromSlash(FolderCacheFile)), buf.Bytes())
}

// replaceFile writes b to path through a temporary file in its folder,
// renamed into place: a reader sees the old file or the new one, never
// part of one. What derives from the folder is simply not kept when it
// cannot be written (read-only, full), so the error is the caller's to
// ignore.
func replaceFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// folderFingerprint is the hex SHA-256 of Folder's type tree (every
// field's name, tag and type), or "" when some type in it is one gob would
// not round-trip whole: an unexported field, an interface, a func or a
// channel.
var folderFingerprint = sync.OnceValue(func() string {
	h := sha256.New()
	if !fingerprint(h, reflect.TypeFor[Folder](), map[reflect.Type]bool{}) {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

func fingerprint(w interface{ Write([]byte) (int, error) }, t reflect.Type, seen map[reflect.Type]bool) bool {
	fmt.Fprintf(w, "%s.%s:%s(", t.PkgPath(), t.Name(), t.Kind())
	defer fmt.Fprint(w, ")")
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return false
			}
			fmt.Fprintf(w, "%s %q ", f.Name, f.Tag)
			if !fingerprint(w, f.Type, seen) {
				return false
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return fingerprint(w, t.Elem(), seen)
	case reflect.Map:
		return fingerprint(w, t.Key(), seen) && fingerprint(w, t.Elem(), seen)
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Uintptr:
		return false
	}
	return true
}
