package quarry

import (
	"testing"

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
