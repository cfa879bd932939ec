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

// TestReadSharesOneReadPerKey: callers that read one key while a read of
// it runs wait for that read and share its table; another key reads on
// its own, and a cache that keeps nothing shares nothing.
func TestReadSharesOneReadPerKey(t *testing.T) {
	c := New(time.Minute, 1000, time.Now)
	var mu sync.Mutex
	reads := map[string]int{}
	release := make(chan struct{})
	read := func(key string) func() (*quarry.Table, error) {
		return func() (*quarry.Table, error) {
			mu.Lock()
			reads[key]++
			mu.Unlock()
			<-release
			return &quarry.Table{Columns: []quarry.Column{{Name: key}}}, nil
		}
	}
	var wg sync.WaitGroup
	var sharedA, ownA, started int
	var results sync.Map
	for i := range 10 {
		key := "a"
		if i == 9 {
			key = "b"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			started++
			mu.Unlock()
			got, shared, err := c.Read(key, read(key))
			if err != nil || got == nil || got.Columns[0].Name != key {
				t.Errorf("read %s: %v %v", key, got, err)
				return
			}
			mu.Lock()
			if key == "a" {
				if shared {
					sharedA++
				} else {
					ownA++
				}
			}
			mu.Unlock()
			results.Store(i, got)
		}()
	}
	// Let every caller reach the read before it ends.
	for {
		mu.Lock()
		n, s := reads["a"]+reads["b"], started
		mu.Unlock()
		if n == 2 && s == 10 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	close(release)
	wg.Wait()
	if reads["a"] != 1 || reads["b"] != 1 {
		t.Errorf("reads per key: %v, want one each", reads)
	}
	if ownA != 1 || sharedA != 8 {
		t.Errorf("key a: %d read it, %d shared it; want 1 and 8", ownA, sharedA)
	}
	off := New(0, 1000, time.Now)
	n := 0
	for range 2 {
		if _, shared, _ := off.Read("a", func() (*quarry.Table, error) { n++; return &quarry.Table{}, nil }); shared {
			t.Error("a cache that keeps nothing shared a read")
		}
	}
	if n != 2 {
		t.Errorf("a cache that keeps nothing read %d times, want 2", n)
	}
}
