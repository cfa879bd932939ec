package quarry

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestEncodeArraysAndStructs: arrays and structs, which PostgreSQL and
// DuckDB connectors give as []any and map[string]any, are stored and read
// back as the same Go values (numbers that are integers as int64).
func TestEncodeArraysAndStructs(t *testing.T) {
	in := &Table{Columns: []Column{{Name: "arr", Type: TypeArray}, {Name: "s", Type: TypeJSON}},
		Rows: [][]any{
			{[]any{int64(1), int64(2), nil}, map[string]any{"a": []any{1.5, "x"}, "b": true}},
			{[]any{}, nil},
			{[]any{int64(9223372036854775807)}, map[string]any{}},
		}}
	body, err := EncodeTable(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := DecodeTable(body)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in.Rows, out.Rows); diff != "" {
		t.Errorf("rows after a round trip (-want +got):\n%s", diff)
	}
	again, _ := EncodeTable(out)
	if string(again) != string(body) {
		t.Error("a decoded table does not encode to the same bytes")
	}
	for _, bad := range []string{`"a string"`, `[1] [2]`, `[1,`} {
		b := []byte(resultHeader + "\x01\x01a\x05array\x00\x01a")
		b = append(b, byte(len(bad)))
		b = append(b, bad...)
		if _, err := DecodeTable(b); err == nil {
			t.Errorf("%s decoded as an array", bad)
		}
	}
}

// TestDecodeWithin: an encoding that may be hostile is read within
// bounds: rows past MaxRows are left (the table is truncated), and too
// many columns, values or bytes of arrays are refused.
func TestDecodeWithin(t *testing.T) {
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{nil, []any{int64(i)}}
	}
	body, err := EncodeTable(&Table{Columns: []Column{{Name: "n", Type: TypeInt}, {Name: "a", Type: TypeArray}}, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := DecodeTableWithin(body, DecodeLimits{MaxRows: 10})
	if err != nil || len(tab.Rows) != 10 || !tab.Truncated {
		t.Errorf("MaxRows 10: %v rows, truncated %v, %v", len(tab.Rows), tab != nil && tab.Truncated, err)
	}
	if tab, err := DecodeTableWithin(body, DecodeLimits{MaxRows: 1000}); err != nil || len(tab.Rows) != 1000 || tab.Truncated {
		t.Errorf("MaxRows 1000 of 1000: %v", err)
	}
	for name, lim := range map[string]DecodeLimits{
		"columns": {MaxColumns: 1},
		"cells":   {MaxCells: 1999},
		"nested":  {MaxNestedBytes: 100},
	} {
		if _, err := DecodeTableWithin(body, lim); err == nil {
			t.Errorf("%s: over its bound, decoded", name)
		}
	}
}

// TestEncodedSizeIsExact: EncodeTable sizes its buffer by encodedSize,
// which is exact for the types connectors give most, so a large result is
// written without growing (and copying) the buffer.
func TestEncodedSizeIsExact(t *testing.T) {
	long := strings.Repeat("é", 200)
	tab := &Table{
		Columns: []Column{{Name: "id", Type: TypeInt, DBType: "INTEGER"}, {Name: "name", Type: TypeText}, {Name: "at", Type: TypeTime}, {Name: "x", Type: TypeFloat}, {Name: "b", Type: TypeBool}, {Name: "raw", Type: TypeBytes}},
		Rows: [][]any{
			{int64(1), "a", time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), 1.5, true, []byte{1, 2}},
			{nil, long, nil, float32(2), false, json.RawMessage(`{"a":1}`)},
			{int32(-7), "", time.Time{}, nil, nil, []byte(long)},
		},
	}
	enc, err := EncodeTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	if got := encodedSize(tab); got != len(enc) {
		t.Errorf("encodedSize = %d for an encoding of %d bytes", got, len(enc))
	}
}
