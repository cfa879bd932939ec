package connector

import (
	"encoding/json"
	"fmt"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Defaults of the size limits for callers that have no configuration
// (quarry.yaml's limits.max_value_bytes and limits.max_result_bytes).
const (
	DefaultMaxValueBytes  = 16 << 20
	DefaultMaxResultBytes = 256 << 20
)

// ValueSize is what one value counts against QueryOptions.MaxValueBytes
// and MaxResultBytes: the length of a text, bytes or JSON value, the sum
// of an array's or a map's elements, and 8 for anything else (numbers,
// times, booleans; NULL counts 0).
func ValueSize(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return int64(len(x))
	case []byte:
		return int64(len(x))
	case json.RawMessage:
		return int64(len(x))
	case []any:
		var n int64
		for _, e := range x {
			n += ValueSize(e)
		}
		return n
	case map[string]any:
		var n int64
		for k, e := range x {
			n += int64(len(k)) + ValueSize(e)
		}
		return n
	}
	return 8
}

// SizeLimit applies QueryOptions.MaxValueBytes and MaxResultBytes to the
// rows of one query as a connector reads them. The zero value checks
// nothing.
type SizeLimit struct {
	maxValue, maxResult int64
	total               int64
	rows                int64
}

// NewSizeLimit returns the size limits of opts.
func NewSizeLimit(opts QueryOptions) SizeLimit {
	return SizeLimit{maxValue: opts.MaxValueBytes, maxResult: opts.MaxResultBytes}
}

// Row checks one row's values, in the order of cols; the error is a
// KindTooCostly quarry error that names the column (or the result) and
// the limit, and says how to stay under it or raise it.
func (s *SizeLimit) Row(cols []quarry.Column, vals []any) error {
	if s.maxValue <= 0 && s.maxResult <= 0 {
		return nil
	}
	s.rows++
	for i, v := range vals {
		n := ValueSize(v)
		if s.maxValue > 0 && n > s.maxValue {
			name := fmt.Sprintf("%d", i+1)
			if i < len(cols) {
				name = fmt.Sprintf("%q", cols[i].Name)
			}
			return ValueTooLarge(name, n, s.maxValue)
		}
		s.total += n
	}
	if s.maxResult > 0 && s.total > s.maxResult {
		return quarry.Errorf(quarry.KindTooCostly, "the result is over limits.max_result_bytes (%d bytes) after %d rows; add a LIMIT, select fewer or shorter columns, or aggregate, or raise limits.max_result_bytes in quarry.yaml",
			s.maxResult, s.rows)
	}
	return nil
}

// ValueTooLarge is the error for a value of n bytes in column name (quoted
// already) over the limit max.
func ValueTooLarge(name string, n, max int64) error {
	size := fmt.Sprintf("%d bytes", n)
	if n < 0 {
		size = "more bytes"
	}
	return quarry.Errorf(quarry.KindTooCostly, "column %s holds a value of %s, over limits.max_value_bytes (%d); select part of it (for example left(col, 1000) or length(col)) or raise limits.max_value_bytes in quarry.yaml",
		name, size, max)
}

// CheckTable applies opts.MaxValueBytes and MaxResultBytes to a result a
// connector has already read whole (the http and mcp connectors, whose
// answers are bounded while they are read by their own byte cap).
func CheckTable(t *quarry.Table, opts QueryOptions) error {
	s := NewSizeLimit(opts)
	for _, row := range t.Rows {
		if err := s.Row(t.Columns, row); err != nil {
			return err
		}
	}
	return nil
}
