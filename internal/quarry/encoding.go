package quarry

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// The canonical encoding of a result, version 1 (EncodeTable, DecodeTable):
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
//	  'a' str                      []any or map[string]any (arrays, structs), as JSON
//
// where str is uvarint(length) followed by the bytes. Every row has exactly
// as many values as there are columns. The encoding is stored as is and
// hashed, so it never changes; a new layout gets a new header.
const resultHeader = "quarry-result/1\n"

// maxEmptyRows bounds the rows of a result without columns, which no
// query returns; a longer count is a damaged or hostile encoding.
const maxEmptyRows = 1 << 16

// EncodeTable returns the canonical encoding of t's columns and rows.
// Values must be nil, bool, int64, float64, string, []byte, time.Time or
// json.RawMessage; other Go integers and float32 are normalised to int64
// and float64 first.
func EncodeTable(t *Table) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(encodedSize(t))
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
			return nil, Errorf(KindInternal, "result row %d has %d values for %d columns", i+1, len(row), len(t.Columns))
		}
		for j, v := range row {
			if err := putValue(&b, v); err != nil {
				return nil, Wrap(KindInternal, err, "result row %d, column %q", i+1, t.Columns[j].Name)
			}
		}
	}
	return b.Bytes(), nil
}

// PartEncoder encodes a result a row at a time, in parts: each part is
// the canonical encoding of a table of its own, with the result's columns
// and the rows added since the part before. Its buffers are reused from
// part to part, and no row is kept: a server sends a long result this way
// without a copy of its values.
type PartEncoder struct {
	head []byte // the header and the columns
	cols int
	rows bytes.Buffer
	n    int
	out  []byte
}

// NewPartEncoder returns an encoder of parts with columns cols.
func NewPartEncoder(cols []Column) *PartEncoder {
	var b bytes.Buffer
	b.WriteString(resultHeader)
	putUvarint(&b, uint64(len(cols)))
	for _, c := range cols {
		putString(&b, c.Name)
		putString(&b, string(c.Type))
		putString(&b, c.DBType)
	}
	return &PartEncoder{head: b.Bytes(), cols: len(cols)}
}

// Row adds a row, whose values are those EncodeTable takes, one for each
// column; vals may be reused once Row returns.
func (e *PartEncoder) Row(vals []any) error {
	if len(vals) != e.cols {
		return Errorf(KindInternal, "result row has %d values for %d columns", len(vals), e.cols)
	}
	for j, v := range vals {
		if err := putValue(&e.rows, v); err != nil {
			return Wrap(KindInternal, err, "result column %d", j+1)
		}
	}
	e.n++
	return nil
}

// Len returns the bytes of the rows added since the last part.
func (e *PartEncoder) Len() int { return e.rows.Len() }

// Part returns the encoding of the rows added since the last part, valid
// until the next call of Part, and starts the next part.
func (e *PartEncoder) Part() []byte {
	e.out = append(e.out[:0], e.head...)
	e.out = binary.AppendUvarint(e.out, uint64(e.n))
	e.out = append(e.out, e.rows.Bytes()...)
	e.rows.Reset()
	e.n = 0
	return e.out
}

// encodedSize is about the size of t's encoding, exact for the common
// types, so that EncodeTable grows its buffer once: growing by doubling
// copied a 100,000-row result several times over.
func encodedSize(t *Table) int {
	n := len(resultHeader) + uvarintLen(len(t.Columns)) + uvarintLen(len(t.Rows))
	for _, c := range t.Columns {
		for _, s := range []string{c.Name, string(c.Type), c.DBType} {
			n += uvarintLen(len(s)) + len(s)
		}
	}
	for _, row := range t.Rows {
		for _, v := range row {
			switch x := v.(type) {
			case nil, bool:
				n++
			case string:
				n += 1 + uvarintLen(len(x)) + len(x)
			case []byte:
				n += 1 + uvarintLen(len(x)) + len(x)
			case json.RawMessage:
				n += 1 + uvarintLen(len(x)) + len(x)
			case time.Time:
				n += 13
			default:
				n += 9
			}
		}
	}
	return n
}

func uvarintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

func putUvarint(b *bytes.Buffer, n uint64) {
	var x [binary.MaxVarintLen64]byte
	b.Write(x[:binary.PutUvarint(x[:], n)])
}

// put64 writes n as 8 bytes, big-endian.
func put64(b *bytes.Buffer, n uint64) {
	var x [8]byte
	binary.BigEndian.PutUint64(x[:], n)
	b.Write(x[:])
}

func putString(b *bytes.Buffer, s string) {
	putUvarint(b, uint64(len(s)))
	b.WriteString(s)
}

func putInt(b *bytes.Buffer, n int64) {
	b.WriteByte('i')
	put64(b, uint64(n))
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
	case []any, map[string]any:
		// Connectors give arrays (PostgreSQL, DuckDB) and structs
		// (DuckDB) as JSON-safe Go values.
		j, err := json.Marshal(x)
		if err != nil {
			return fmt.Errorf("an array or struct value cannot be stored: %w", err)
		}
		b.WriteByte('a')
		putString(b, string(j))
	case time.Time:
		b.WriteByte('T')
		put64(b, uint64(x.Unix()))
		var ns [4]byte
		binary.BigEndian.PutUint32(ns[:], uint32(x.Nanosecond()))
		b.Write(ns[:])
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
	put64(b, math.Float64bits(f))
}

// reader decodes the canonical encoding; the first error sticks.
type reader struct {
	buf    []byte
	err    error
	nested int64 // bytes of arrays and structs still allowed; 0: no bound, negative: none
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

// DecodeTable reads an encoding made by EncodeTable. Truncated is not part
// of the encoding; the caller restores it.
func DecodeTable(body []byte) (*Table, error) { return DecodeTableWithin(body, DecodeLimits{}) }

// DecodeLimits bound what DecodeTableWithin makes of an encoding that may
// be hostile (an MCP server's answer): every byte of the encoding can
// cost tens of bytes of memory once decoded. Zero means no bound.
type DecodeLimits struct {
	MaxRows        int64 // rows read; the rest are left and the table is marked truncated
	MaxColumns     int64 // more columns are refused
	MaxCells       int64 // more values in the rows read are refused
	MaxNestedBytes int64 // more bytes of arrays and structs, all told, are refused
}

// DecodeTableWithin is DecodeTable within lim.
func DecodeTableWithin(body []byte, lim DecodeLimits) (*Table, error) {
	return decodeTable(body, &lim)
}

// DecodeTablePart is DecodeTableWithin for one of the parts a result
// comes in, each an encoded table of its own: lim bounds all the parts
// together, and what this part read is taken off its MaxRows, MaxCells
// and MaxNestedBytes. A bound used up stays one (a negative value):
// the next part's rows are left (MaxRows) or refused.
func DecodeTablePart(body []byte, lim *DecodeLimits) (*Table, error) {
	return decodeTable(body, lim)
}

// left is what remains of bound once used is taken off it: 0 (no bound)
// stays 0, and a bound used up is -1.
func left(bound, used int64) int64 {
	switch {
	case bound == 0:
		return 0
	case bound-used <= 0:
		return -1
	}
	return bound - used
}

func decodeTable(body []byte, lim *DecodeLimits) (*Table, error) {
	r := &reader{buf: body, nested: lim.MaxNestedBytes}
	if string(r.take(uint64(len(resultHeader)))) != resultHeader {
		return nil, errors.New("not a quarry result encoding")
	}
	ncols := r.uvarint()
	switch {
	case ncols > uint64(len(r.buf)):
		r.fail("bad column count")
	case lim.MaxColumns > 0 && ncols > uint64(lim.MaxColumns):
		r.fail("more than %d columns", lim.MaxColumns)
	}
	t := &Table{Columns: make([]Column, 0, min(ncols, 1<<16))}
	for i := uint64(0); i < ncols && r.err == nil; i++ {
		t.Columns = append(t.Columns, Column{Name: r.str(), Type: Type(r.str()), DBType: r.str()})
	}
	nrows := r.uvarint()
	switch {
	case nrows > uint64(len(r.buf)) && ncols > 0:
		r.fail("bad row count")
	case ncols == 0 && nrows > maxEmptyRows:
		// Rows of no columns take no bytes: their count alone could
		// ask for any amount of memory.
		r.fail("bad row count")
	}
	read := nrows
	if lim.MaxRows != 0 && read > uint64(max(lim.MaxRows, 0)) {
		read, t.Truncated = uint64(max(lim.MaxRows, 0)), true
	}
	if lim.MaxCells != 0 && ncols > 0 && read > uint64(max(lim.MaxCells, 0))/ncols {
		r.fail("more than %d values", max(lim.MaxCells, 0))
	}
	t.Rows = make([][]any, 0, min(read, 1<<16))
	for i := uint64(0); i < read && r.err == nil; i++ {
		row := make([]any, ncols)
		for j := range row {
			row[j] = r.value()
		}
		t.Rows = append(t.Rows, row)
	}
	if r.err == nil && len(r.buf) > 0 && !t.Truncated {
		r.fail("%d bytes after the last row", len(r.buf))
	}
	if r.err != nil {
		return nil, r.err
	}
	lim.MaxRows = left(lim.MaxRows, int64(len(t.Rows)))
	lim.MaxCells = left(lim.MaxCells, int64(len(t.Rows))*int64(ncols))
	lim.MaxNestedBytes = r.nested
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
	case 'a':
		j := r.str()
		if r.nested != 0 {
			if int64(len(j)) > r.nested {
				r.fail("arrays and structs over the bound")
				return nil
			}
			r.nested = left(r.nested, int64(len(j)))
		}
		v, err := decodeComposite(j)
		if err != nil {
			r.fail("bad array or struct: %v", err)
		}
		return v
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

// decodeComposite reads an array or struct stored as JSON back into the Go
// values connectors give: []any or map[string]any, numbers as int64 when
// they are integers and float64 otherwise.
func decodeComposite(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one value")
	}
	switch v.(type) {
	case []any, map[string]any:
		return numbers(v), nil
	}
	return nil, errors.New("not an array or an object")
}

// numbers replaces json.Numbers in v with int64 or float64.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
