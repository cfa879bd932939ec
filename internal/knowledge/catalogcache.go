package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// CatalogCacheDir keeps, inside CacheDir, the catalogs of connections
// whose database says cheaply whether its schema changed (a connector's
// catalog version: on PostgreSQL, the system catalogs' row counts and
// newest transaction ids, for the role). Reading the catalog of ten
// thousand tables from PostgreSQL takes seconds; its version, tens of
// milliseconds. A catalog is read back only under the key it was written
// with: the connection, its version, the Go types it decodes into and the
// build, so that a schema change, another role, or another binary's idea
// of a catalog is never served from here.
const CatalogCacheDir = CacheDir + "/catalogs"

// catalogFingerprint is the hex SHA-256 of quarry.Catalog's type tree,
// or "" when gob would not carry it whole.
var catalogFingerprint = sync.OnceValue(func() string {
	h := sha256.New()
	if !fingerprint(h, reflect.TypeFor[quarry.Catalog](), map[reflect.Type]bool{}) {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// catalogKey is the key of connection's catalog at version, or "" when
// catalogs cannot be cached by this build.
func catalogKey(connection, version string) string {
	fp, build := catalogFingerprint(), buildOf()
	if fp == "" || build == "" || version == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(connection + "\x00" + version + "\x00" + fp + "\x00" + build))
	return hex.EncodeToString(sum[:])
}

// catalogFile is where connection's catalog is kept: one file per
// connection, replaced when its schema changes.
func catalogFile(dir, connection string) string {
	sum := sha256.Sum256([]byte(connection))
	return filepath.Join(dir, filepath.FromSlash(CatalogCacheDir), hex.EncodeToString(sum[:16])+".gob")
}

type cachedCatalog struct {
	Key     string
	Catalog *quarry.Catalog
}

// ReadCatalog returns the catalog cached in the knowledge folder dir for
// connection (a name and what identifies its database and role) at
// version, or nil.
func ReadCatalog(dir, connection, version string) *quarry.Catalog {
	key := catalogKey(connection, version)
	if key == "" {
		return nil
	}
	b, err := os.ReadFile(catalogFile(dir, connection))
	if err != nil {
		return nil
	}
	var c cachedCatalog
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&c) != nil || c.Key != key || c.Catalog == nil {
		return nil
	}
	return c.Catalog
}

// WriteCatalog caches cat for connection at version, atomically; a folder
// that cannot be written is simply not a cache.
func WriteCatalog(dir, connection, version string, cat *quarry.Catalog) {
	key := catalogKey(connection, version)
	if key == "" || cat == nil {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(cachedCatalog{Key: key, Catalog: cat}) != nil {
		return
	}
	if EnsureCache(dir) != nil {
		return
	}
	cdir := filepath.Join(dir, filepath.FromSlash(CatalogCacheDir))
	if os.MkdirAll(cdir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(cdir, ".catalog-*.gob")
	if err != nil {
		return
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), catalogFile(dir, connection))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
