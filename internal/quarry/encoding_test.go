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

// TestPartsRoundTrip: a result encoded a row at a time in parts decodes,
// part by part, to the rows EncodeTable's one table holds, and each part
// is that table's encoding of its own rows.
func TestPartsRoundTrip(t *testing.T) {
	cols := []Column{{Name: "id", Type: TypeInt, DBType: "INTEGER"}, {Name: "at", Type: TypeTimestamp}, {Name: "b", Type: TypeBytes}}
	var rows [][]any
	for i := range 25 {
		rows = append(rows, []any{int64(i), time.Date(2026, 6, 30, 9, i, 0, 0, time.UTC), []byte{byte(i)}})
	}
	e := NewPartEncoder(cols)
	var got [][]any
	var lim DecodeLimits
	for i, row := range rows {
		if err := e.Row(row); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 || i == len(rows)-1 {
			part := e.Part()
			want, _ := EncodeTable(&Table{Columns: cols, Rows: rows[i-i%10 : i+1]})
			if string(part) != string(want) {
				t.Fatalf("the part ending at row %d is not EncodeTable's encoding of its rows", i)
			}
			tab, err := DecodeTablePart(part, &lim)
			if err != nil || !cmp.Equal(tab.Columns, cols) {
				t.Fatalf("part ending at row %d: %v, columns %v", i, err, tab.Columns)
			}
			got = append(got, tab.Rows...)
		}
	}
	if diff := cmp.Diff(rows, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if empty, err := DecodeTablePart(e.Part(), &lim); err != nil || len(empty.Rows) != 0 || len(empty.Columns) != 3 {
		t.Errorf("a part of no rows: %v, %v", empty, err)
	}
	if err := e.Row([]any{int64(1)}); err == nil {
		t.Error("a row of one value for three columns was taken")
	}
}

// TestDecodePartsWithinOneBudget: the bounds of DecodeTablePart hold for
// all the parts together; a bound used up is not lifted (0 would mean
// none), however the parts fall.
func TestDecodePartsWithinOneBudget(t *testing.T) {
	cols := []Column{{Name: "a", Type: TypeArray}}
	part := func(n int) []byte {
		rows := make([][]any, n)
		for i := range rows {
			rows[i] = []any{[]any{int64(i % 10)}} // "[d]", 3 bytes
		}
		b, _ := EncodeTable(&Table{Columns: cols, Rows: rows})
		return b
	}
	// Rows: 10 then 10 of a cap of 15 gives 15 and truncates; 10 and 5
	// of 15 is all of it, not truncated, and the next part is cut.
	lim := DecodeLimits{MaxRows: 15}
	a, _ := DecodeTablePart(part(10), &lim)
	b, _ := DecodeTablePart(part(10), &lim)
	if len(a.Rows)+len(b.Rows) != 15 || a.Truncated || !b.Truncated {
		t.Errorf("MaxRows 15 over 10+10: %d+%d rows, truncated %v %v", len(a.Rows), len(b.Rows), a.Truncated, b.Truncated)
	}
	lim = DecodeLimits{MaxRows: 15}
	a, _ = DecodeTablePart(part(10), &lim)
	b, _ = DecodeTablePart(part(5), &lim)
	c, _ := DecodeTablePart(part(1), &lim)
	if a.Truncated || b.Truncated || len(c.Rows) != 0 || !c.Truncated {
		t.Errorf("MaxRows 15 over 10+5+1: truncated %v %v, then %d rows (truncated %v)", a.Truncated, b.Truncated, len(c.Rows), c.Truncated)
	}
	// Values and nested bytes: used up exactly, then refused.
	for name, lim := range map[string]DecodeLimits{"cells": {MaxCells: 10}, "nested": {MaxNestedBytes: 30}} {
		if _, err := DecodeTablePart(part(10), &lim); err != nil {
			t.Fatalf("%s: the first part, exactly the bound: %v", name, err)
		}
		if _, err := DecodeTablePart(part(1), &lim); err == nil {
			t.Errorf("%s: a part past the bound used up was decoded", name)
		}
	}
	// One table: an array of exactly the bound, then another, is over.
	if _, err := DecodeTableWithin(part(2), DecodeLimits{MaxNestedBytes: 3}); err == nil {
		t.Error("two arrays of 3 bytes within a bound of 3")
	}
}
