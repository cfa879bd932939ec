package quarry

import (
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
