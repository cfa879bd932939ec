package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Versioned caches keep, inside CacheDir, what quarry reads from a
// database that can say cheaply whether it changed: a connector's
// catalog version (on PostgreSQL, the system catalogs' row counts and
// newest transaction ids, and the role's attributes and memberships).
// Reading the catalog of ten thousand tables from PostgreSQL takes
// seconds, checking the role's privileges on each of them a quarter of
// one; their version, tens of milliseconds. A value is read back only
// under the key it was written with: the reader (role, server,
// database), the version, the Go type it decodes into and the build, so
// that a change to the schema or to a privilege, another role, or another
// binary's idea of the value is never served from here.
const (
	// CatalogCacheDir keeps a connection's catalog.
	CatalogCacheDir = CacheDir + "/catalogs"
	// RoleCacheDir keeps a connection's role check.
	RoleCacheDir = CacheDir + "/roles"
)

// versionedKey is the key of a T read by reader at version, or "" when
// this build cannot cache a T.
func versionedKey[T any](reader, version string) string {
	h := sha256.New()
	if !fingerprint(h, reflect.TypeFor[T](), map[reflect.Type]bool{}) {
		return ""
	}
	build := buildOf()
	if build == "" || version == "" {
		return ""
	}
	h.Write([]byte("\x00" + reader + "\x00" + version + "\x00" + build))
	return hex.EncodeToString(h.Sum(nil))
}

// versionedFile is where sub keeps reader's value: one file per reader,
// replaced when the version changes.
func versionedFile(dir, sub, reader string) string {
	sum := sha256.Sum256([]byte(reader))
	return filepath.Join(dir, filepath.FromSlash(sub), hex.EncodeToString(sum[:16])+".gob")
}

type versioned[T any] struct {
	Key   string
	Value *T
}

// ReadVersioned returns the T cached in the knowledge folder dir, under
// sub, for reader at version, or nil.
func ReadVersioned[T any](dir, sub, reader, version string) *T {
	key := versionedKey[T](reader, version)
	if key == "" {
		return nil
	}
	b, err := os.ReadFile(versionedFile(dir, sub, reader))
	if err != nil {
		return nil
	}
	var c versioned[T]
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&c) != nil || c.Key != key || c.Value == nil {
		return nil
	}
	return c.Value
}

// WriteVersioned caches v for reader at version, atomically; a folder that
// cannot be written is simply not a cache.
func WriteVersioned[T any](dir, sub, reader, version string, v *T) {
	key := versionedKey[T](reader, version)
	if key == "" || v == nil {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(versioned[T]{Key: key, Value: v}) != nil {
		return
	}
	if EnsureCache(dir) != nil {
		return
	}
	path := versionedFile(dir, sub, reader)
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	replaceFile(path, buf.Bytes())
}

// ReadCatalog returns the catalog cached for reader at version, or nil.
func ReadCatalog(dir, reader, version string) *quarry.Catalog {
	return ReadVersioned[quarry.Catalog](dir, CatalogCacheDir, reader, version)
}

// WriteCatalog caches cat for reader at version.
func WriteCatalog(dir, reader, version string, cat *quarry.Catalog) {
	WriteVersioned(dir, CatalogCacheDir, reader, version, cat)
}

// CatalogAhead starts decoding the catalog the folder dir keeps, when it
// keeps exactly one, before the connection has said its version: on a
// schema of ten thousand tables decoding it takes about as long as the
// version query, which runs meanwhile. The func it returns gives that
// catalog only when it is the one ReadCatalog would give for reader at
// version, else nil; it is nil itself when there is nothing to decode.
// Only one goroutine may call it.
func CatalogAhead(dir string) func(reader, version string) *quarry.Catalog {
	sub := filepath.Join(dir, filepath.FromSlash(CatalogCacheDir))
	ents, err := os.ReadDir(sub)
	if err != nil {
		return nil
	}
	var path string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".gob") && e.Type().IsRegular() {
			if path != "" {
				return nil // several readers: which is unknown yet
			}
			path = filepath.Join(sub, e.Name())
		}
	}
	if path == "" {
		return nil
	}
	ch := make(chan versioned[quarry.Catalog], 1)
	go func() {
		var c versioned[quarry.Catalog]
		if b, err := os.ReadFile(path); err == nil {
			if gob.NewDecoder(bytes.NewReader(b)).Decode(&c) != nil {
				c = versioned[quarry.Catalog]{}
			}
		}
		ch <- c
	}()
	var got *versioned[quarry.Catalog]
	return func(reader, version string) *quarry.Catalog {
		if got == nil {
			c := <-ch
			got = &c
		}
		key := versionedKey[quarry.Catalog](reader, version)
		if key == "" || got.Key != key || got.Value == nil || versionedFile(dir, CatalogCacheDir, reader) != path {
			return nil
		}
		return got.Value
	}
}
