// Package valueindex is the value index: the distinct values of a
// database's text columns of any cardinality (cities, people's names,
// products), which the knowledge folder does not list, kept in a SQLite
// FTS5 file inside the knowledge folder (knowledge/.cache/values.db) so
// that the builtin planner can read "customers in Aberdeen" without a
// list of every city in model.yaml.
//
// Build reads the values through the read-only path quarry learn uses
// (restricted columns never, long free text not, keys and codes into a
// separate exact table), bounded per column and in total, and writes the
// index atomically. Lookup finds the stored values whose whole text a
// question names as consecutive words, without regard to case or accents,
// reads other names of common values (semantic.ExpandAliases), matches
// identifiers ("ORD-1042") exactly, and narrows a value found in several
// columns to those the question's other words name (Narrow).
package valueindex

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Index is an opened value index. It is safe for concurrent use.
type Index struct {
	db   *sql.DB
	path string

	mu       sync.Mutex // guards what follows: read once, on first use
	loaded   bool
	loadErr  error
	maxWords int
	cols     map[int64]column // the columns read so far (columns)
	stats    Stats
}

// maxQuestionWords bounds the words of a question looked up.
const maxQuestionWords = 200

// Open opens the value index at path, read-only; it is read on first
// use. A missing file is an error that wraps fs.ErrNotExist; a file that
// is not a value index this quarry can read is an error of kind
// KindConfig, on first use, that says to run quarry learn.
func Open(path string) (*Index, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "no value index at %s; run quarry learn to build it", path)
	}
	db, err := driver.Open(fileURI(abs, "mode=ro"), func(c *sqlite3.Conn) error {
		if err := fts5.RegisterCustom(c, func(a *fts5.API) error {
			return a.CreateFunction("qv_phrases", phrasesOf)
		}); err != nil {
			return err
		}
		return c.Exec(`PRAGMA query_only = 1`)
	})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot open the value index %s; run quarry learn to rebuild it", path)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(2)
	return &Index{db: db, path: path}, nil
}

// ready reads the index's description once. An interruption is not
// remembered; a file that cannot be read is.
func (ix *Index) ready(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.loaded {
		return ix.loadErr
	}
	err := ix.load(ctx)
	if ctx.Err() != nil {
		return quarry.Wrap(quarry.KindCanceled, ctx.Err(), "reading the value index was interrupted")
	}
	if err != nil {
		err = quarry.Wrap(quarry.KindConfig, err, "cannot read the value index %s; run quarry learn to rebuild it", ix.path)
	}
	ix.loaded, ix.loadErr = true, err
	return err
}

func (ix *Index) load(ctx context.Context) error {
	ix.cols = map[int64]column{}
	meta := map[string]string{}
	rows, err := ix.db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return err
		}
		meta[k] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if meta["format"] != formatV {
		return fmt.Errorf("format %q, want %q", meta["format"], formatV)
	}
	ix.maxWords, _ = strconv.Atoi(meta["max_words"])
	ix.maxWords = min(max(ix.maxWords, 1), maxWords)
	if err := json.Unmarshal([]byte(meta["stats"]), &ix.stats); err != nil {
		return err
	}
	return nil
}

// readColumns reads the columns of ids into ix.cols; ix.mu is held.
func (ix *Index) readColumns(ctx context.Context, ids []any) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT id, entity, col, kind, names FROM columns WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c column
		var names string
		if err := rows.Scan(&id, &c.entity, &c.column, &c.kind, &names); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(names), &c.names); err != nil {
			return err
		}
		ix.cols[id] = c
	}
	return rows.Err()
}

// columns returns the columns of the given ids, read once each: a wide
// schema's index describes tens of thousands of columns, of which a
// question's values name a few.
func (ix *Index) columns(ctx context.Context, ids []int64) (map[int64]column, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var missing []any
	seen := map[int64]bool{}
	for _, id := range ids {
		if _, ok := ix.cols[id]; !ok && !seen[id] {
			seen[id] = true
			missing = append(missing, id)
		}
	}
	for len(missing) > 0 {
		batch := missing[:min(len(missing), 500)] // SQLite's bound on parameters is far above
		missing = missing[len(batch):]
		if err := ix.readColumns(ctx, batch); err != nil {
			return nil, err
		}
	}
	out := make(map[int64]column, len(ids))
	for _, id := range ids {
		if c, ok := ix.cols[id]; ok {
			out[id] = c
		}
	}
	return out, nil
}

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

// Stats says what the index holds and what it left out.
func (ix *Index) Stats(ctx context.Context) (Stats, error) {
	if err := ix.ready(ctx); err != nil {
		return Stats{}, err
	}
	return ix.stats, nil
}

// Read is Lookup for the planner's callers (analyst.ValueIndex): the
// question as read and the values found in it.
func (ix *Index) Read(ctx context.Context, question string, skip func(entity, column string) bool) (string, []planner.Value, error) {
	f, err := ix.LookupSkipping(ctx, question, skip)
	return f.Question, f.Values, err
}

// Found is what Lookup found in a question.
type Found struct {
	// Question is the question as the planner should read it: other names
	// of stored values written as the values ("USA" → "United States")
	// and values matched only without regard to accents written as stored
	// ("zurich" → "Zürich"). It is the question itself when nothing was
	// rewritten.
	Question string
	// Values are the stored values the question names, one value per
	// column at each place, in every spelling the column holds it in
	// (case, surrounding spaces; an identifier's as written, where one
	// is); a place with values of several columns is
	// ambiguous (the planner asks which is meant).
	Values []planner.Value
}

// Lookup finds the stored values whose whole text question names as
// consecutive words: without regard to case or accents, on word
// boundaries, the longest at each place. A function word alone ("the",
// "no") and a number are never a value; identifiers written in one piece
// ("ORD-1042") are matched exactly against key and code columns.
func (ix *Index) Lookup(ctx context.Context, question string) (Found, error) {
	return ix.LookupSkipping(ctx, question, nil)
}

// LookupSkipping is Lookup over the columns skip does not name (nil:
// every column): the columns the column policy restricts now, which an
// index built before the policy named them still holds. They are left
// out before anything is chosen or narrowed, so that what they hold
// changes nothing of the answer (found by an attacker: a name found in a
// view over a restricted flag narrowed the lookup to that view).
func (ix *Index) LookupSkipping(ctx context.Context, question string, skip func(entity, column string) bool) (Found, error) {
	if err := ix.ready(ctx); err != nil {
		return Found{Question: question}, err
	}
	var aliasErr error
	q := semantic.ExpandAliases(question, func(s string) bool {
		ok, err := ix.has(ctx, s, skip)
		if err != nil && aliasErr == nil {
			aliasErr = err
		}
		return ok
	})
	if aliasErr != nil {
		return Found{Question: question}, ix.queryError(ctx, aliasErr)
	}
	ws := tokenize(q)
	if len(ws) > maxQuestionWords {
		ws = ws[:maxQuestionWords]
	}
	hits, err := ix.words(ctx, ws)
	if err != nil {
		return Found{Question: question}, ix.queryError(ctx, err)
	}
	ids, err := ix.ids(ctx, q, ws)
	if err != nil {
		return Found{Question: question}, ix.queryError(ctx, err)
	}
	hits = append(hits, ids...)
	if skip != nil {
		kept := hits[:0]
		for _, h := range hits {
			if !skip(h.Value.Entity, h.Value.Column) {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	hits = longest(hits)
	lower := make([]string, len(ws))
	for i, w := range ws {
		lower[i] = w.s
	}
	hits = Narrow(lower, hits)
	return written(q, ws, hits), nil
}

func (ix *Index) queryError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return quarry.Wrap(quarry.KindCanceled, ctx.Err(), "the value lookup was interrupted")
	}
	return quarry.Wrap(quarry.KindInternal, err, "cannot read the value index %s; run quarry learn to rebuild it", ix.path)
}

// has reports whether s is a stored value of a text column, without
// regard to case or accents.
func (ix *Index) has(ctx context.Context, s string, skip func(entity, column string) bool) (bool, error) {
	w := wordsOf(s)
	if w == "" {
		return false, nil
	}
	if skip == nil {
		var one int
		err := ix.db.QueryRowContext(ctx, `SELECT 1 FROM vals WHERE vals MATCH ? LIMIT 1`, phrase(w)).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT col FROM vals WHERE vals MATCH ?`, phrase(w))
	if err != nil {
		return false, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return false, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	cols, err := ix.columns(ctx, ids)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if c, ok := cols[id]; ok && !skip(c.entity, c.column) {
			return true, nil
		}
	}
	return false, nil
}

// phrase is the FTS5 query that matches a whole stored value whose words
// are w: anchored at the start, its last word carrying the end mark.
func phrase(w string) string {
	return `^"` + strings.ReplaceAll(w, `"`, ``) + endMark + `"`
}

// words finds the stored values of text columns that are a run of the
// question's words, in one FTS5 query of every run of up to maxWords
// words that is not a function word or a number alone.
func (ix *Index) words(ctx context.Context, ws []word) ([]Hit, error) {
	type run struct{ start, n int }
	var runs []run
	var parts []string
	for i := range ws {
		for n := 1; n <= ix.maxWords && i+n <= len(ws); n++ {
			plain := true
			for _, w := range ws[i : i+n] {
				plain = plain && (functionWords[w.s] || isNumber(w.s))
			}
			if plain {
				continue
			}
			var b strings.Builder
			for j, w := range ws[i : i+n] {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strings.ToValidUTF8(w.s, " "))
			}
			runs = append(runs, run{i, n})
			parts = append(parts, phrase(b.String()))
		}
	}
	if len(runs) == 0 {
		return nil, nil
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT value, col, qv_phrases(vals) FROM vals WHERE vals MATCH ?`, strings.Join(parts, " OR "))
	if err != nil {
		return nil, err
	}
	type row struct {
		value, which string
		col          int64
	}
	var found []row
	var ids []int64
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.value, &r.col, &r.which); err != nil {
			rows.Close()
			return nil, err
		}
		found = append(found, r)
		ids = append(ids, r.col)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	cols, err := ix.columns(ctx, ids)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, f := range found {
		v, which := f.value, f.which
		c, ok := cols[f.col]
		if !ok {
			continue
		}
		for _, p := range strings.Split(which, ",") {
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(runs) {
				continue
			}
			r := runs[i]
			hits = append(hits, Hit{Value: planner.Value{Entity: c.entity, Column: c.column, Value: v}, Start: r.start, End: r.start + r.n, Names: c.names})
		}
	}
	return hits, nil
}

// phrasesOf is the FTS5 function qv_phrases: the numbers of the query's
// phrases that matched the row, separated by commas.
func phrasesOf(f fts5.Context, ctx sqlite3.Context, _ ...sqlite3.Value) {
	n, err := f.InstCount()
	if err != nil {
		ctx.ResultError(err)
		return
	}
	var b strings.Builder
	for i := range n {
		p, _, _, err := f.Inst(i)
		if err != nil {
			ctx.ResultError(err)
			return
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p))
	}
	ctx.ResultText(b.String())
}

// ids finds identifiers written in one piece ("ORD-1042") that are stored
// values of key and code columns, exactly but without regard to case, and
// codes in capitals ("APG") exactly as stored.
func (ix *Index) ids(ctx context.Context, q string, ws []word) ([]Hit, error) {
	type at struct{ start, end int }
	where := map[string][]at{}
	var keys []any
	// A code in capitals matches only as written.
	asWritten := map[string]string{}
	for _, p := range rawPieces(q) {
		if !idShaped(p.s) {
			if !codeShaped(p.s) {
				continue
			}
			asWritten[strings.ToLower(p.s)] = p.s
		}
		first, last := -1, -1
		for i, w := range ws {
			if w.start >= p.start && w.end <= p.end {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 {
			continue
		}
		k := strings.ToLower(p.s)
		if _, ok := where[k]; !ok {
			keys = append(keys, k)
		}
		where[k] = append(where[k], at{first, last + 1})
	}
	if len(keys) == 0 {
		return nil, nil
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT key, value, col FROM ids WHERE key IN (?`+strings.Repeat(", ?", len(keys)-1)+`)`, keys...)
	if err != nil {
		return nil, err
	}
	type row struct {
		key, value string
		col        int64
	}
	var found []row
	var ids []int64
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.key, &r.value, &r.col); err != nil {
			rows.Close()
			return nil, err
		}
		found = append(found, r)
		ids = append(ids, r.col)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	cols, err := ix.columns(ctx, ids)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, f := range found {
		c, ok := cols[f.col]
		if !ok {
			continue
		}
		if w, ok := asWritten[f.key]; ok && f.value != w {
			continue
		}
		for _, a := range where[f.key] {
			hits = append(hits, Hit{Value: planner.Value{Entity: c.entity, Column: c.column, Value: f.value, ID: true}, Start: a.start, End: a.end, Names: c.names, ID: true})
		}
	}
	return hits, nil
}

// longest keeps, where found values overlap, those of the longest run of
// words ("New York" over "York"), and all the values found at that run.
func longest(hits []Hit) []Hit {
	sort.SliceStable(hits, func(i, j int) bool {
		li, lj := hits[i].End-hits[i].Start, hits[j].End-hits[j].Start
		if li != lj {
			return li > lj
		}
		return hits[i].Start < hits[j].Start
	})
	var out []Hit
	for _, h := range hits {
		ok := true
		for _, o := range out {
			same := o.Start == h.Start && o.End == h.End
			if !same && h.Start < o.End && o.Start < h.End {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// written is what a question names once its found values are written as
// stored: at each place, one value per column, in each of its spellings; where no value found there
// is written as the question writes it (but for case), the place is
// rewritten as the first value, and values written otherwise are dropped.
func written(q string, ws []word, hits []Hit) Found {
	var b strings.Builder
	last := 0
	var vals []planner.Value
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].Start == hits[i].Start && hits[j].End == hits[i].End {
			j++
		}
		group := hits[i:j]
		i = j
		start, end := ws[group[0].Start].start, ws[group[0].End-1].end
		asWritten := wordsOf(q[start:end])
		text := ""
		for _, h := range group {
			if wordsOf(h.Value.Value) == asWritten {
				text = asWritten
			}
		}
		if text == "" {
			text = wordsOf(group[0].Value.Value)
			b.WriteString(q[last:start] + group[0].Value.Value)
			last = end
		}
		// Per column, every spelling of the value kept: one value stored
		// as 'Electronics', 'electronics' and 'ELECTRONICS' is in the
		// rows of all three. An identifier's spellings name different
		// rows: the one written exactly, where the question writes one.
		var cols [][2]string
		byCol := map[[2]string][]planner.Value{}
		id := map[[2]string]bool{}
		for _, h := range group {
			k := [2]string{h.Value.Entity, h.Value.Column}
			vs := byCol[k]
			if wordsOf(h.Value.Value) != text || len(vs) > 0 && !semantic.SameSpelling(vs[0].Value, h.Value.Value) || slices.Contains(vs, h.Value) {
				continue
			}
			if len(vs) == 0 {
				cols = append(cols, k)
			}
			byCol[k] = append(vs, h.Value)
			id[k] = id[k] || h.ID
		}
		for _, k := range cols {
			vs := byCol[k]
			if id[k] && len(vs) > 1 {
				for _, v := range vs {
					if v.Value == q[start:end] {
						vs = []planner.Value{v}
						break
					}
				}
			}
			vals = append(vals, vs...)
		}
	}
	b.WriteString(q[last:])
	return Found{Question: b.String(), Values: vals}
}

// fileURI is a file: URI for SQLite, with query parameters.
func fileURI(abs, query string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: query}
	return u.String()
}
