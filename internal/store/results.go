package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// SaveResult stores t as a result of run runID and returns its ID and hash.
// The caller decides how many rows to keep; t.Truncated records that more
// existed. The first result of a run gets the ID "res_" + runID, later ones
// "res_" + runID + "_2", "_3", and so on.
//
// The hash is "sha256:" and the hex SHA-256 of the canonical encoding of
// the columns and rows (see encodeTable), so equal results have equal
// hashes whatever their run. Values must be nil, bool, int64, float64,
// string, []byte, time.Time or json.RawMessage; other Go integers and
// float32 are normalised to int64 and float64 first.
func (s *Store) SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error) {
	if runID == "" {
		return "", "", quarry.Errorf(quarry.KindInternal, "a result needs the ID of its run")
	}
	if t == nil {
		return "", "", quarry.Errorf(quarry.KindInternal, "no result to store for run %s", runID)
	}
	body, err := encodeTable(t)
	if err != nil {
		return "", "", err
	}
	hash = hashOf(body)
	cols, err := json.Marshal(t.Columns)
	if err != nil {
		return "", "", quarry.Wrap(quarry.KindInternal, err, "encode the columns of a result of run %s", runID)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE run_id = ?`, runID).Scan(&n); err != nil {
			return err
		}
		id = "res_" + runID
		if n > 0 {
			id = fmt.Sprintf("res_%s_%d", runID, n+1)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO results (id, run_id, hash, columns, row_count, truncated, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, runID, hash, string(cols), len(t.Rows), t.Truncated, body)
		return err
	})
	if err != nil {
		return "", "", s.dbErr(ctx, err, "store a result of run %s", runID)
	}
	return id, hash, nil
}

// Result returns the stored result with the given ID (exact, no prefixes).
// Values come back as they went in, with these normalisations: time.Time
// values are in UTC (the same instant; the location and any monotonic clock
// reading are dropped), empty and nil []byte both come back as an empty
// non-nil []byte, and every NaN is the one NaN of math.NaN().
func (s *Store) Result(ctx context.Context, id string) (*quarry.Table, error) {
	var hash string
	var truncated bool
	var body []byte
	err := s.db.QueryRowContext(ctx, `SELECT hash, truncated, body FROM results WHERE id = ?`, id).Scan(&hash, &truncated, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quarry.Errorf(quarry.KindNotFound, "no result %q; the result IDs of a run are in `quarry runs show RUN`", id)
	}
	if err != nil {
		return nil, s.dbErr(ctx, err, "read result %s", id)
	}
	if got := hashOf(body); got != hash {
		return nil, quarry.Errorf(quarry.KindInternal, "result %s is damaged: its hash is %s, %s was recorded; run the query again", id, got, hash)
	}
	t, err := decodeTable(body)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "result %s cannot be read; run the query again", id)
	}
	t.Truncated = truncated
	return t, nil
}

func hashOf(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// The canonical encoding of a result, version 1:
//
//	"quarry-result/1\n"
//	uvarint(#columns), then per column: str(name) str(type) str(db_type)
//	uvarint(#rows), then per row, per column, one value:
//	  'n'                          nil
//	  't' | 'f'                    bool
//	  'i' 8 bytes big-endian       int64
//	  'r' 8 bytes big-endian       float64 bits (NaN canonical)
//	  's' str                      string
//	  'x' str                      []byte
//	  'T' 8 bytes seconds, 4 nanos time.Time as a UTC instant
//	  'j' str                      json.RawMessage
//
// where str is uvarint(length) followed by the bytes. Every row has exactly
// as many values as there are columns. The encoding is stored as is and
// hashed, so it never changes; a new layout gets a new header.
const resultHeader = "quarry-result/1\n"

func encodeTable(t *quarry.Table) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(resultHeader)
	putUvarint(&b, uint64(len(t.Columns)))
	for _, c := range t.Columns {
		putString(&b, c.Name)
		putString(&b, string(c.Type))
		putString(&b, c.DBType)
	}
	putUvarint(&b, uint64(len(t.Rows)))
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return nil, quarry.Errorf(quarry.KindInternal, "result row %d has %d values for %d columns", i+1, len(row), len(t.Columns))
		}
		for j, v := range row {
			if err := putValue(&b, v); err != nil {
				return nil, quarry.Wrap(quarry.KindInternal, err, "result row %d, column %q", i+1, t.Columns[j].Name)
			}
		}
	}
	return b.Bytes(), nil
}

func putUvarint(b *bytes.Buffer, n uint64) {
	b.Write(binary.AppendUvarint(nil, n))
}

func putString(b *bytes.Buffer, s string) {
	putUvarint(b, uint64(len(s)))
	b.WriteString(s)
}

func putInt(b *bytes.Buffer, n int64) {
	b.WriteByte('i')
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(n)))
}

func putValue(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteByte('n')
	case bool:
		if x {
			b.WriteByte('t')
		} else {
			b.WriteByte('f')
		}
	case int64:
		putInt(b, x)
	case int:
		putInt(b, int64(x))
	case int32:
		putInt(b, int64(x))
	case int16:
		putInt(b, int64(x))
	case int8:
		putInt(b, int64(x))
	case uint32:
		putInt(b, int64(x))
	case uint16:
		putInt(b, int64(x))
	case uint8:
		putInt(b, int64(x))
	case uint64:
		if x > math.MaxInt64 {
			return fmt.Errorf("unsigned value %d does not fit in int64; connectors pass such values as strings", x)
		}
		putInt(b, int64(x))
	case uint:
		if uint64(x) > math.MaxInt64 {
			return fmt.Errorf("unsigned value %d does not fit in int64; connectors pass such values as strings", x)
		}
		putInt(b, int64(x))
	case float64:
		putFloat(b, x)
	case float32:
		putFloat(b, float64(x))
	case string:
		b.WriteByte('s')
		putString(b, x)
	case []byte:
		b.WriteByte('x')
		putString(b, string(x))
	case json.RawMessage:
		b.WriteByte('j')
		putString(b, string(x))
	case time.Time:
		b.WriteByte('T')
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(x.Unix())))
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(x.Nanosecond())))
	default:
		return fmt.Errorf("values of type %T cannot be stored", v)
	}
	return nil
}

func putFloat(b *bytes.Buffer, f float64) {
	if math.IsNaN(f) {
		f = math.NaN()
	}
	b.WriteByte('r')
	b.Write(binary.BigEndian.AppendUint64(nil, math.Float64bits(f)))
}

// reader decodes the canonical encoding; the first error sticks.
type reader struct {
	buf []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *reader) take(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.buf)) {
		r.fail("encoding ends early")
		return nil
	}
	out := r.buf[:n]
	r.buf = r.buf[n:]
	return out
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	n, size := binary.Uvarint(r.buf)
	if size <= 0 {
		r.fail("bad length")
		return 0
	}
	r.buf = r.buf[size:]
	return n
}

func (r *reader) str() string { return string(r.take(r.uvarint())) }

func (r *reader) u64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func decodeTable(body []byte) (*quarry.Table, error) {
	r := &reader{buf: body}
	if string(r.take(uint64(len(resultHeader)))) != resultHeader {
		return nil, errors.New("not a quarry result encoding")
	}
	ncols := r.uvarint()
	if ncols > uint64(len(r.buf)) {
		r.fail("bad column count")
	}
	t := &quarry.Table{Columns: make([]quarry.Column, 0, min(ncols, 1<<16))}
	for i := uint64(0); i < ncols && r.err == nil; i++ {
		t.Columns = append(t.Columns, quarry.Column{Name: r.str(), Type: quarry.Type(r.str()), DBType: r.str()})
	}
	nrows := r.uvarint()
	if nrows > uint64(len(r.buf)) && ncols > 0 {
		r.fail("bad row count")
	}
	t.Rows = make([][]any, 0, min(nrows, 1<<16))
	for i := uint64(0); i < nrows && r.err == nil; i++ {
		row := make([]any, ncols)
		for j := range row {
			row[j] = r.value()
		}
		t.Rows = append(t.Rows, row)
	}
	if r.err == nil && len(r.buf) > 0 {
		r.fail("%d bytes after the last row", len(r.buf))
	}
	if r.err != nil {
		return nil, r.err
	}
	return t, nil
}

func (r *reader) value() any {
	tag := r.take(1)
	if tag == nil {
		return nil
	}
	switch tag[0] {
	case 'n':
		return nil
	case 't':
		return true
	case 'f':
		return false
	case 'i':
		return int64(r.u64())
	case 'r':
		return math.Float64frombits(r.u64())
	case 's':
		return r.str()
	case 'x':
		return []byte(r.str())
	case 'j':
		return json.RawMessage(r.str())
	case 'T':
		sec := int64(r.u64())
		b := r.take(4)
		if b == nil {
			return nil
		}
		return time.Unix(sec, int64(binary.BigEndian.Uint32(b))).UTC()
	default:
		r.fail("unknown value tag %q", tag[0])
		return nil
	}
}
