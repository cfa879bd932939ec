package quarry

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Type is the portable type of a result column. Connectors map their
// database's types onto these; DBType keeps the original spelling.
type Type string

// The portable column types.
const (
	TypeUnknown   Type = "unknown"
	TypeBool      Type = "bool"
	TypeInt       Type = "int"     // fits in int64
	TypeBigInt    Type = "bigint"  // integers that may not fit in int64; values are strings
	TypeDecimal   Type = "decimal" // exact decimals; values are strings
	TypeFloat     Type = "float"
	TypeText      Type = "text"
	TypeBytes     Type = "bytes"
	TypeDate      Type = "date"      // values are "YYYY-MM-DD" strings
	TypeTimestamp Type = "timestamp" // values are time.Time or ISO-8601 strings
	TypeTime      Type = "time"
	TypeInterval  Type = "interval"
	TypeJSON      Type = "json"
	TypeArray     Type = "array"
)

// IsNumeric reports whether values of t are numbers.
func (t Type) IsNumeric() bool {
	switch t {
	case TypeInt, TypeBigInt, TypeDecimal, TypeFloat:
		return true
	}
	return false
}

// IsTemporal reports whether values of t are dates or times.
func (t Type) IsTemporal() bool {
	return t == TypeDate || t == TypeTimestamp
}

// Column describes one column of a result.
type Column struct {
	Name   string `json:"name"`
	Type   Type   `json:"type"`
	DBType string `json:"db_type,omitempty"`
}

// Table is a materialised result: typed columns and rows of values.
// Values are nil, bool, int64, float64, string, []byte or time.Time.
type Table struct {
	Columns []Column `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Truncated is true when more rows existed than were read.
	Truncated bool `json:"truncated,omitempty"`
}

// ColumnNames returns the names of t's columns in order.
func (t *Table) ColumnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// JSONValue converts a cell value to one that encoding/json renders
// faithfully: bytes become base64 strings (by json's own rule; an empty
// blob, which a connector may hand over as a nil slice, is "", never
// null, which is SQL's NULL alone), times become RFC 3339 strings, and
// non-finite floats become strings.
func JSONValue(v any) any {
	switch x := v.(type) {
	case []byte:
		if x == nil {
			return []byte{}
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return formatFloatSpecial(x)
		}
		return x
	case json.RawMessage:
		return x
	default:
		return v
	}
}

func formatFloatSpecial(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	default:
		return "-Infinity"
	}
}

// Rows is a stream of result rows, read one at a time so that any number of
// rows can pass through in constant memory.
//
//	for rows.Next() { use(rows.Values()) }
//	if err := rows.Err(); err != nil { ... }
//
// Values returns a slice that is valid only until the next call to Next.
// Close may be called at any time, and more than once.
type Rows interface {
	Columns() []Column
	Next() bool
	Values() []any
	Err() error
	Close() error
}

// TableRows streams a table read in full, as connectors that receive a
// whole answer (an HTTP service, an MCP server) return it. Truncated
// reports t.Truncated.
func TableRows(t *Table) Rows { return &tableRows{t: t, i: -1} }

type tableRows struct {
	t      *Table
	i      int
	closed bool
}

func (r *tableRows) Columns() []Column { return r.t.Columns }
func (r *tableRows) Next() bool {
	if r.closed || r.i+1 >= len(r.t.Rows) {
		return false
	}
	r.i++
	return true
}
func (r *tableRows) Values() []any   { return r.t.Rows[r.i] }
func (r *tableRows) Err() error      { return nil }
func (r *tableRows) Truncated() bool { return r.t.Truncated }
func (r *tableRows) Close() error    { r.closed = true; return nil }

// Float reads a numeric cell as a float64: the integer and float types a
// driver returns, or a number written as text (a DECIMAL some drivers
// return as a string). It reports false for anything else.
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}
