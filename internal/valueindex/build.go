package valueindex

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/ext/fts5"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Source is what Build reads values through: read-only queries in the
// database's dialect. It is the same path quarry learn reads known values
// through (the connection behind the guard and the column policy).
type Source interface {
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
	Dialect() quarry.Dialect
}

// Limits bound what Build reads and keeps. Zero fields take the defaults.
type Limits struct {
	// PerColumn is the most distinct values kept of one column, the most
	// frequent first; default 5,000.
	PerColumn int
	// Total is the most values in the whole index; default 500,000.
	// Columns read after it is reached are left out, and listed.
	Total int
	// MaxAvgLen is the average length (in characters) above which a
	// column is free text and not indexed; default 40.
	MaxAvgLen int
	// Timeout bounds each query; default 30s.
	Timeout time.Duration
	// Now is when the index is built, recorded in it.
	Now time.Time
}

func (l Limits) withDefaults() Limits {
	if l.PerColumn <= 0 {
		l.PerColumn = 5000
	}
	if l.Total <= 0 {
		l.Total = 500000
	}
	if l.MaxAvgLen <= 0 {
		l.MaxAvgLen = 40
	}
	if l.Timeout <= 0 {
		l.Timeout = 30 * time.Second
	}
	return l
}

// Stats says what an index holds and what it left out.
type Stats struct {
	BuiltAt   string `json:"built_at,omitempty"`
	PerColumn int    `json:"per_column"` // the per-column cap it was built with
	Total     int    `json:"total"`      // the total cap it was built with
	Columns   int    `json:"columns"`    // columns indexed
	Values    int    `json:"values"`     // values of text columns (matched as words)
	IDs       int    `json:"ids"`        // values of key and code columns (matched exactly)
	// Truncated are columns with more distinct values than were kept
	// ("entity.column"); their most frequent values are in the index.
	Truncated []string `json:"truncated,omitempty"`
	// LeftOut are columns not read because the total cap was reached.
	LeftOut []string `json:"left_out,omitempty"`
	// FreeText are columns of long text, which are not indexed.
	FreeText []string `json:"free_text,omitempty"`
	// Failed are columns whose values could not be read, with why.
	Failed []string `json:"failed,omitempty"`
}

// maxValueLen is the longest value indexed, in bytes; maxWords the most
// words of a value matched as words.
const (
	maxValueLen = 80
	maxWords    = 6
	formatV     = "1"
)

// endMark is written onto the last word of every indexed value's words
// ("new yorkqqvxend"), so that a phrase query anchored at the start (^)
// whose last word carries it matches a whole value and nothing longer;
// and a last word with the mark is a rare term, so the query reads little.
const endMark = "qqvxend"

// column is one column Build reads.
type column struct {
	entity, column, table string
	schema                string // the table's schema; "" for the default
	kind                  string // "text" or "id"
	names                 Names
}

// Build reads the distinct values of the text columns of m's entities
// through src and writes them to a new index at path, replacing any
// index there only once the new one is complete. Restricted columns are
// never read; key and code columns go to an exact table of identifiers;
// long free text is left out. Values are capped per column and in total,
// and the index records what it left out.
func Build(ctx context.Context, src Source, m *semantic.Model, path string, lim Limits) (*Stats, error) {
	lim = lim.withDefaults()
	st := &Stats{PerColumn: lim.PerColumn, Total: lim.Total}
	if !lim.Now.IsZero() {
		st.BuiltAt = lim.Now.UTC().Format(time.RFC3339)
	}
	type read struct {
		col  column
		vals []string
	}
	var cols []read
	for _, c := range indexedColumns(m) {
		if err := ctx.Err(); err != nil {
			return nil, quarry.Wrap(quarry.KindCanceled, err, "building the value index was interrupted; run quarry learn again")
		}
		left := lim.Total - st.Values - st.IDs
		name := c.entity + "." + c.column
		if left <= 0 {
			st.LeftOut = append(st.LeftOut, name)
			continue
		}
		limit := min(lim.PerColumn, left)
		vals, more, err := readColumn(ctx, src, c, limit, lim.Timeout)
		if err != nil {
			if ctx.Err() != nil {
				return nil, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "building the value index was interrupted; run quarry learn again")
			}
			if quarry.KindOf(err) != quarry.KindForbidden { // a view over a restricted column: never indexed
				st.Failed = append(st.Failed, name+": "+quarry.Message(err))
			}
			continue
		}
		if c.kind == "text" {
			var ok bool
			if vals, ok = wordValues(vals, lim.MaxAvgLen); !ok {
				st.FreeText = append(st.FreeText, name)
				continue
			}
		} else {
			vals = idValues(vals)
		}
		if len(vals) == 0 {
			continue
		}
		if more {
			st.Truncated = append(st.Truncated, name)
		}
		if c.kind == "text" {
			st.Values += len(vals)
		} else {
			st.IDs += len(vals)
		}
		st.Columns++
		cols = append(cols, read{c, vals})
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create %s for the value index", dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot write the value index in %s", dir)
	}
	tmpPath, err := filepath.Abs(tmp.Name())
	tmp.Close()
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot write the value index in %s", dir)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmpPath)
		}
	}()
	write := func(ctx context.Context, db *sql.DB) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `
			CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
			CREATE TABLE columns(id INTEGER PRIMARY KEY, entity TEXT NOT NULL, col TEXT NOT NULL, kind TEXT NOT NULL, names TEXT NOT NULL);
			CREATE VIRTUAL TABLE vals USING fts5(k, value UNINDEXED, col UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
			CREATE TABLE ids(key TEXT NOT NULL, value TEXT NOT NULL, col INTEGER NOT NULL);`); err != nil {
			return err
		}
		insText, err := tx.PrepareContext(ctx, `INSERT INTO vals(k, value, col) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insText.Close()
		insID, err := tx.PrepareContext(ctx, `INSERT INTO ids(key, value, col) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insID.Close()
		longest := 1
		for i, r := range cols {
			names, _ := json.Marshal(r.col.names)
			if _, err := tx.ExecContext(ctx, `INSERT INTO columns(id, entity, col, kind, names) VALUES (?, ?, ?, ?, ?)`,
				i, r.col.entity, r.col.column, r.col.kind, string(names)); err != nil {
				return err
			}
			for _, v := range r.vals {
				if r.col.kind == "id" {
					_, err = insID.ExecContext(ctx, strings.ToLower(v), v, i)
				} else {
					longest = max(longest, len(tokenize(v)))
					_, err = insText.ExecContext(ctx, wordsOf(v)+endMark, v, i)
				}
				if err != nil {
					return err
				}
			}
		}
		stats, _ := json.Marshal(st)
		if _, err := tx.ExecContext(ctx, `CREATE INDEX ids_key ON ids(key); INSERT INTO vals(vals) VALUES ('optimize');`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('format', ?), ('max_words', ?), ('stats', ?)`,
			formatV, strconv.Itoa(longest), string(stats)); err != nil {
			return err
		}
		return tx.Commit()
	}
	db, err := driver.Open(fileURI(tmpPath, ""), func(c *sqlite3.Conn) error {
		if err := fts5.Register(c); err != nil {
			return err
		}
		return c.Exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;`)
	})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot create the value index %s", tmpPath)
	}
	db.SetMaxOpenConns(1)
	err = write(ctx, db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(tmpPath)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "building the value index was interrupted; run quarry learn again")
		}
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot write the value index %s", path)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot put the value index in place at %s", path)
	}
	done = true
	return st, nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// indexedColumns lists the columns of m Build reads: text columns that are
// not restricted; keys (primary keys, both ends of relationships) and
// columns named as identifiers or codes are of kind "id".
func indexedColumns(m *semantic.Model) []column {
	isRestricted := m.RestrictedCheck()
	keys := map[string]bool{}
	for _, e := range m.Entities {
		if e.PrimaryKey != "" {
			keys[strings.ToLower(e.Name+"."+e.PrimaryKey)] = true
		}
	}
	for _, r := range m.Relationships {
		keys[strings.ToLower(r.From+"."+r.FromColumn)] = true
		keys[strings.ToLower(r.To+"."+r.ToColumn)] = true
	}
	var out []column
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			if c.Type != quarry.TypeText && c.Type != quarry.TypeUnknown && c.Type != "" {
				continue
			}
			if isRestricted(&e, c.Name) {
				continue // every reading of every entry, as the policy reads them
			}
			kind := "text"
			if keys[strings.ToLower(e.Name+"."+c.Name)] || idName(c.Name) {
				kind = "id"
			}
			out = append(out, column{
				entity: e.Name, column: c.Name, table: e.TableName(), schema: e.Schema, kind: kind,
				names: Names{Entity: append([]string{e.Name, e.TableName()}, e.Synonyms...), Column: append([]string{c.Name}, c.Synonyms...),
					Label: strings.EqualFold(e.Label, c.Name)},
			})
		}
	}
	return out
}

// idName reports whether a column's name says it holds identifiers or
// codes ("order_id", "customerID", "sku", "CountryCode", "uuid").
func idName(name string) bool {
	ws := nameWords(name)
	if len(ws) == 0 {
		return false
	}
	switch ws[len(ws)-1] {
	case "id", "ids", "uuid", "guid", "key", "code", "sku", "ref", "isbn", "iban", "no", "num":
		return true
	}
	return strings.HasSuffix(strings.ToLower(name), "code") // "countrycode"
}

// readColumn reads up to limit distinct non-null values of a column, the
// most frequent first (identifiers: any limit of them), and whether it
// has more.
func readColumn(ctx context.Context, src Source, c column, limit int, timeout time.Duration) ([]string, bool, error) {
	d := registry.Of(src.Dialect())
	qc := d.QuoteIdent(c.column)
	// (schema, table) quoted part by part; a dot in a name is the name's.
	qt := d.QuoteIdent(c.table)
	if c.schema != "" {
		qt = d.QuoteIdent(c.schema) + "." + qt
	}
	q := fmt.Sprintf("SELECT %s, COUNT(*) FROM %s WHERE %s IS NOT NULL GROUP BY %s ORDER BY COUNT(*) DESC, %s LIMIT %d", qc, qt, qc, qc, qc, limit+1)
	if c.kind == "id" {
		q = fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", qc, qt, qc, limit+1)
	}
	rows, err := src.Query(ctx, q, connector.QueryOptions{MaxRows: int64(limit + 1), Timeout: timeout})
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var vals []string
	for rows.Next() {
		v := rows.Values()
		if len(v) == 0 {
			continue
		}
		switch x := v[0].(type) {
		case string:
			vals = append(vals, x)
		case []byte:
			vals = append(vals, string(x))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	more := len(vals) > limit
	if more {
		vals = vals[:limit]
	}
	return vals, more, nil
}

// wordValues keeps the values of a text column that can be matched as
// words, or reports that the column is free text (values long on
// average, or mostly over the length limit).
func wordValues(vals []string, maxAvg int) ([]string, bool) {
	if len(vals) == 0 {
		return nil, true
	}
	total, long := 0, 0
	var out []string
	for _, v := range vals {
		total += len([]rune(v))
		if len(v) > maxValueLen || strings.ContainsAny(v, "\n\r") {
			long++
			continue
		}
		// A value with spaces around it ("food ") is kept: its rows are
		// found only by its own spelling, which a filter takes beside
		// the others of the value ('Food'; planner.PlanValues).
		ws := tokenize(v)
		if len(ws) == 0 || len(ws) > maxWords || isNumber(wordsOf(v)) {
			continue
		}
		mark := false
		for _, w := range ws {
			mark = mark || strings.Contains(w.s, endMark)
		}
		if !mark {
			out = append(out, v)
		}
	}
	if total/len(vals) > maxAvg || 2*long > len(vals) {
		return nil, false
	}
	return out, true
}

// idValues keeps the identifiers that a question can name: short, one
// piece, not a plain number; or codes in capitals.
func idValues(vals []string) []string {
	var out []string
	for _, v := range vals {
		if idShaped(v) || codeShaped(v) {
			out = append(out, v)
		}
	}
	return out
}
