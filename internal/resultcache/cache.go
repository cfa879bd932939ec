// Package resultcache keeps recent query results in memory, keyed by the
// connection and the normalised SQL, with a time to live and a size bound,
// so that a long-running surface (quarry serve, quarry mcp, an eval run)
// does not run the same statement twice in a short time, and so that
// callers asking for the same statement at once share one read (Read).
//
// It is safe for concurrent use. The clock is passed in.
package resultcache

import (
	"container/list"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Cache is an LRU of results bounded by total cells and entry age.
type Cache struct {
	ttl      time.Duration
	maxCells int
	clock    func() time.Time

	flight singleflight.Group // reads of one key in progress

	mu    sync.Mutex
	cells int
	order *list.List // front = most recently used; values are *entry
	index map[string]*list.Element
}

type entry struct {
	key   string
	table *quarry.Table
	cells int
	at    time.Time
}

// New returns a cache whose entries live for ttl and that holds at most
// maxCells cells (rows × columns) in all. A ttl or maxCells of 0 makes a
// cache that keeps nothing.
func New(ttl time.Duration, maxCells int, clock func() time.Time) *Cache {
	return &Cache{ttl: ttl, maxCells: maxCells, clock: clock, order: list.New(), index: map[string]*list.Element{}}
}

// Key is the cache key of a statement on a connection: the connection's
// identity, the row cap, and the statement with comments dropped and
// whitespace collapsed (as the guard's lexer for the dialect reads it).
// Unquoted words are folded to lower case except on MySQL, where table
// names can be case-sensitive.
func Key(connection string, d quarry.Dialect, sql string, maxRows int64) string {
	var b strings.Builder
	b.WriteString(connection)
	b.WriteByte(0)
	b.WriteString(string(d))
	b.WriteByte(0)
	b.WriteString(itoa(maxRows))
	b.WriteByte(0)
	folds := registry.Of(d).FoldsNames()
	toks, ok := sqlguard.Tokenize(sql, d)
	if !ok {
		b.WriteString(sql)
		return b.String()
	}
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.Kind == sqlguard.TokenQuoted {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(t.Text, `"`, `""`))
			b.WriteByte('"')
			continue
		}
		if t.Kind == sqlguard.TokenWord && folds {
			b.WriteString(strings.ToLower(t.Text))
			continue
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// Get returns the cached result for key, if it is there and fresh. The
// table must not be modified.
func (c *Cache) Get(key string) (*quarry.Table, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if c.clock().Sub(e.at) >= c.ttl {
		c.remove(el)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.table, true
}

// Put stores a complete result. Results larger than a quarter of the
// cache are not kept, so one export cannot flush everything else.
func (c *Cache) Put(key string, t *quarry.Table) {
	if c == nil || c.ttl <= 0 || c.maxCells <= 0 || t == nil {
		return
	}
	cells := len(t.Rows) * max(1, len(t.Columns))
	if cells > c.maxCells/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[key]; ok {
		c.remove(el)
	}
	c.index[key] = c.order.PushFront(&entry{key: key, table: t, cells: cells, at: c.clock()})
	c.cells += cells
	for c.cells > c.maxCells {
		c.remove(c.order.Back())
	}
}

// Read returns what read returns for key, calling it once for all the
// callers that ask for the same key while it runs: a burst of the same
// question reads the database once, and the others wait for that read.
// shared reports that the table is another caller's read; read stores
// what it reads itself (Put). A cache that keeps nothing shares nothing.
func (c *Cache) Read(key string, read func() (*quarry.Table, error)) (t *quarry.Table, shared bool, err error) {
	if c == nil || c.ttl <= 0 || c.maxCells <= 0 {
		t, err = read()
		return t, false, err
	}
	mine := false
	v, err, _ := c.flight.Do(key, func() (any, error) {
		mine = true
		return read()
	})
	t, _ = v.(*quarry.Table)
	return t, !mine, err
}

// Len returns the number of entries held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

func (c *Cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry)
	delete(c.index, e.key)
	c.cells -= e.cells
}
