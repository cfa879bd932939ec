package quarry

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"plain", 10, "plain"},
		{"  two\nlines\r\n\tand tabs  ", 100, "two lines and tabs"},
		{"bad \xff\xfe bytes", 100, "bad bytes"},
		{"bell\x07 and del\x7f", 100, "bell and del"},
		{"ünïcödé", 5, "ünï…"}, {"ünïcödé", 4, "ün…"},
		{"exactly ten", 11, "exactly ten"},
		{"exactly ten!", 11, "exactly ten…"},
	} {
		if got := Clean(c.in, c.max); got != c.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestTableRows(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "n", Type: TypeInt}}, Rows: [][]any{{int64(1)}, {int64(2)}}, Truncated: true}
	rs := TableRows(tb)
	var got [][]any
	for rs.Next() {
		got = append(got, rs.Values())
	}
	if diff := cmp.Diff(tb.Rows, got); diff != "" || rs.Err() != nil {
		t.Errorf("rows (-want +got):\n%s err %v", diff, rs.Err())
	}
	if tr, ok := rs.(interface{ Truncated() bool }); !ok || !tr.Truncated() {
		t.Errorf("Truncated() does not report the table's flag")
	}
	rs = TableRows(tb)
	rs.Close()
	if rs.Next() {
		t.Errorf("Next after Close")
	}
}

func TestFormatInterval(t *testing.T) {
	for _, tc := range []struct {
		months, days int32
		us           int64
		want         string
	}{
		{0, 0, 0, "PT0S"},
		{14, 3, 4*3600e6 + 5*60e6 + 6.5e6, "P1Y2M3DT4H5M6.5S"},
		{-1, 0, 0, "P-1M"},
		{0, 0, -500000, "PT-0.5S"},
		{0, 1, 90 * 60e6, "P1DT1H30M"},
		{0, 0, -1500000, "PT-1.5S"},
		{0, 0, 1, "PT0.000001S"},
		{math.MaxInt32, math.MaxInt32, math.MaxInt64, "infinity"},
	} {
		if got := FormatInterval(tc.months, tc.days, tc.us); got != tc.want {
			t.Errorf("FormatInterval(%d, %d, %d) = %q, want %q", tc.months, tc.days, tc.us, got, tc.want)
		}
	}
}

func TestFloat(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want float64
		ok   bool
	}{
		{int64(3), 3, true}, {3.5, 3.5, true}, {float32(2), 2, true}, {int32(7), 7, true}, {uint64(9), 9, true},
		{" 12.25 ", 12.25, true}, {"abc", 0, false}, {nil, 0, false}, {true, 0, false},
	} {
		got, ok := Float(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Float(%#v) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestJSONValueEmptyBlob: an empty blob is "" in JSON whether a connector
// hands it over as an empty or a nil slice, and only NULL is null (found
// from outside: an empty blob was null direct and "" through MCP).
func TestJSONValueEmptyBlob(t *testing.T) {
	got, err := json.Marshal([]any{JSONValue([]byte(nil)), JSONValue([]byte{}), JSONValue(nil), JSONValue([]byte{0xde, 0xad})})
	if err != nil {
		t.Fatal(err)
	}
	if want := `["","",null,"3q0="]`; string(got) != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
}
