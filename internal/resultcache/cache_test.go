package resultcache

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func table(rows int) *quarry.Table {
	t := &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}}
	for i := range rows {
		t.Rows = append(t.Rows, []any{int64(i)})
	}
	return t
}

func TestKeyNormalisesLayoutNotMeaning(t *testing.T) {
	k := func(sql string) string { return Key("demo", quarry.DialectSQLite, sql, 100) }
	same := []string{
		"SELECT a, b FROM t WHERE x = 'A  b'",
		"select a,  b\nFROM t -- why\nWHERE x = 'A  b'",
		"SELECT a, b /* c */ FROM t WHERE x = 'A  b'",
	}
	for _, s := range same[1:] {
		if k(s) != k(same[0]) {
			t.Errorf("%q and %q should share a key", s, same[0])
		}
	}
	different := []string{
		"SELECT a, b FROM t WHERE x = 'A b'",  // a literal's spaces matter
		"SELECT a, b FROM t WHERE x = 'a  b'", // and its case
		`SELECT "a", b FROM t WHERE x = 'A  b'`,
	}
	for _, s := range different {
		if k(s) == k(same[0]) {
			t.Errorf("%q must not share a key with %q", s, same[0])
		}
	}
	if Key("a", quarry.DialectSQLite, "SELECT 1", 100) == Key("b", quarry.DialectSQLite, "SELECT 1", 100) {
		t.Error("two connections share a key")
	}
	if Key("a", quarry.DialectSQLite, "SELECT 1", 100) == Key("a", quarry.DialectSQLite, "SELECT 1", 10) {
		t.Error("two row caps share a key")
	}
}

func TestTTL(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cache := New(time.Minute, 1000, c.now)
	cache.Put("k", table(3))
	if _, ok := cache.Get("k"); !ok {
		t.Fatal("fresh entry missing")
	}
	c.t = c.t.Add(59 * time.Second)
	if _, ok := cache.Get("k"); !ok {
		t.Fatal("entry expired early")
	}
	c.t = c.t.Add(time.Second)
	if _, ok := cache.Get("k"); ok {
		t.Fatal("entry outlived its TTL")
	}
	if cache.Len() != 0 {
		t.Fatal("expired entry still held")
	}
}

func TestSizeBoundEvictsLeastRecentlyUsed(t *testing.T) {
	c := &clock{t: time.Now()}
	cache := New(time.Hour, 100, c.now)
	for i := range 4 {
		cache.Put(fmt.Sprint(i), table(25)) // 25 cells each: exactly a quarter
	}
	cache.Get("0") // 0 is now the most recent
	cache.Put("4", table(25))
	if _, ok := cache.Get("1"); ok {
		t.Error("the least recently used entry was kept")
	}
	for _, k := range []string{"0", "2", "3", "4"} {
		if _, ok := cache.Get(k); !ok {
			t.Errorf("entry %s evicted", k)
		}
	}
	cache.Put("big", table(26))
	if _, ok := cache.Get("big"); ok {
		t.Error("a result over a quarter of the cache was kept")
	}
}

func TestZeroCacheKeepsNothing(t *testing.T) {
	cache := New(0, 100, time.Now)
	cache.Put("k", table(1))
	if _, ok := cache.Get("k"); ok {
		t.Error("a cache with no TTL kept a result")
	}
	var nilCache *Cache
	nilCache.Put("k", table(1))
	if _, ok := nilCache.Get("k"); ok {
		t.Error("a nil cache returned a result")
	}
}

func TestConcurrentUse(t *testing.T) {
	cache := New(time.Hour, 1000, time.Now)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := fmt.Sprint((g * i) % 50)
				cache.Put(k, table(i%10))
				cache.Get(k)
			}
		}()
	}
	wg.Wait()
	if cache.Len() > 50 {
		t.Errorf("%d entries for 50 keys", cache.Len())
	}
}
