package format

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

var sampleCols = []quarry.Column{
	{Name: "id", Type: quarry.TypeInt, DBType: "INTEGER"},
	{Name: "name", Type: quarry.TypeText},
	{Name: "price", Type: quarry.TypeFloat},
	{Name: "active", Type: quarry.TypeBool},
	{Name: "born", Type: quarry.TypeDate},
	{Name: "seen", Type: quarry.TypeTimestamp},
	{Name: "photo", Type: quarry.TypeBytes},
	{Name: "note", Type: quarry.TypeUnknown},
}

func sampleRows() [][]any {
	ts := time.Date(2026, 6, 30, 12, 30, 0, 0, time.UTC)
	return [][]any{
		{int64(1), "Ada", 9.5, true, "1990-01-02", ts, []byte{0, 0xff, 0x10}, "plain"},
		{int64(2), "Bob, Jr.", 0.1, false, nil, nil, nil, nil},
		{int64(-3), `say "hi"`, 1e21, nil, "2001-02-03", "2026-01-01 00:00:00", []byte{}, "two\nlines\tand tab"},
		{int64(1234567), "Zoë 東京", 1e-7, true, nil, ts.Add(1500 * time.Millisecond), nil, "pipe | and \\ backslash"},
		{int64(5), " leading space", math.NaN(), nil, nil, nil, nil, "esc\x1b[31mred"},
		{int64(6), "", math.Inf(-1), nil, nil, nil, nil, "a very long note that goes on and on well past any reasonable column width"},
		{int64(7), "line\r\nbreak", 3.0, nil, nil, nil, nil, `\.`},
	}
}

type scenario struct {
	name string
	cols []quarry.Column
	rows [][]any
	opts Options
	info Info
}

func scenarios() []scenario {
	many := make([][]any, 12)
	for i := range many {
		many[i] = []any{int64(i + 1), "row", float64(i) * 1.25, nil, nil, nil, nil, nil}
	}
	return []scenario{
		{name: "basic", cols: sampleCols, rows: sampleRows()},
		{name: "narrow", cols: sampleCols, rows: sampleRows(), opts: Options{Width: 60}},
		{name: "preview", cols: sampleCols, rows: many, opts: Options{PreviewRows: 3},
			info: Info{Rows: 12345, Truncated: true, Notice: "results are cached for 1 hour"}},
		{name: "empty", cols: sampleCols[:3], rows: nil},
		{name: "untyped", cols: []quarry.Column{{Name: "n"}, {Name: "n"}, {Name: "x"}},
			rows: [][]any{{int64(1), 2.5, nil}, {nil, int64(10), "t"}}},
	}
}

func render(t *testing.T, format string, sc scenario) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := New(format, &buf, sc.opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(sc.cols); err != nil {
		t.Fatal(err)
	}
	for _, r := range sc.rows {
		if err := w.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(sc.info); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	for _, sc := range scenarios() {
		for _, f := range Names() {
			t.Run(sc.name+"/"+f, func(t *testing.T) {
				got := render(t, f, sc)
				path := filepath.Join("testdata", sc.name+"."+f+".golden")
				if goldentest.Update() {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("output differs from %s (-want +got):\n%s", path, diff)
				}
			})
		}
	}
}

func TestCSVReadsBack(t *testing.T) {
	for _, sc := range scenarios() {
		out := render(t, "csv", sc)
		recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("%s: encoding/csv cannot read the output: %v", sc.name, err)
		}
		if len(recs) != len(sc.rows)+1 {
			t.Fatalf("%s: %d records, want %d", sc.name, len(recs), len(sc.rows)+1)
		}
		for i, r := range sc.rows {
			for j, v := range r {
				// encoding/csv reads a quoted \r\n as \n.
				want := strings.ReplaceAll(string(appendText(nil, v, "")), "\r\n", "\n")
				if got := recs[i+1][j]; got != want {
					t.Errorf("%s row %d col %d: read back %q, want %q", sc.name, i, j, got, want)
				}
			}
		}
	}
}

func TestTSVEscapes(t *testing.T) {
	out := string(render(t, "tsv", scenario{cols: sampleCols[:2], rows: [][]any{{int64(1), "a\tb\nc\\d\re"}, {nil, nil}}}))
	want := "id\tname\n1\ta\\tb\\nc\\\\d\\re\n\t\n"
	if out != want {
		t.Errorf("tsv = %q, want %q", out, want)
	}
}

func TestJSONIsValid(t *testing.T) {
	for _, sc := range scenarios() {
		var doc struct {
			Columns   []quarry.Column `json:"columns"`
			Rows      [][]any         `json:"rows"`
			RowCount  int64           `json:"row_count"`
			Truncated bool            `json:"truncated"`
			Notice    string          `json:"notice"`
		}
		if err := json.Unmarshal(render(t, "json", sc), &doc); err != nil {
			t.Fatalf("%s: invalid JSON: %v", sc.name, err)
		}
		if len(doc.Rows) != len(sc.rows) || len(doc.Columns) != len(sc.cols) {
			t.Errorf("%s: %d rows, %d columns", sc.name, len(doc.Rows), len(doc.Columns))
		}
		if want := max(int64(len(sc.rows)), sc.info.Rows); doc.RowCount != want {
			t.Errorf("%s: row_count %d, want %d", sc.name, doc.RowCount, want)
		}
		if doc.Truncated != sc.info.Truncated || doc.Notice != sc.info.Notice {
			t.Errorf("%s: truncated %v notice %q", sc.name, doc.Truncated, doc.Notice)
		}
		// Every value reads back as encoding/json would write it.
		for i, r := range sc.rows {
			for j, v := range r {
				want, _ := json.Marshal(quarry.JSONValue(v))
				got, _ := json.Marshal(doc.Rows[i][j])
				if f, ok := v.(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
					if doc.Rows[i][j].(float64) != f {
						t.Errorf("%s row %d col %d: %v, want %v", sc.name, i, j, doc.Rows[i][j], f)
					}
					continue
				}
				if string(got) != string(want) {
					t.Errorf("%s row %d col %d: %s, want %s", sc.name, i, j, got, want)
				}
			}
		}
	}
}

func TestJSONLIsValid(t *testing.T) {
	out := render(t, "jsonl", scenarios()[0])
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(sampleRows()) {
		t.Fatalf("%d lines, want %d", len(lines), len(sampleRows()))
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d invalid: %v", i, err)
		}
		if len(m) != len(sampleCols) {
			t.Errorf("line %d has %d keys", i, len(m))
		}
	}
}

func TestJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\s", "\x00\x1f\x7f", "bad \xff utf8", "\u2028\u2029", "<tag>&", "東京 😀"} {
		got := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q → %s: %v", s, got, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if back != want {
			t.Errorf("%q → %s reads back %q", s, got, back)
		}
	}
}

func TestFloats(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", 0.1: "0.1", 3: "3", -2.5: "-2.5", 1234567.891: "1234567.891",
		1e20: "100000000000000000000", 1e21: "1e+21", 1e-6: "0.000001", 1.5e-7: "1.5e-07",
		math.NaN(): "NaN", math.Inf(1): "Infinity",
	} {
		if got := string(appendFloat(nil, f)); got != want {
			t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	_, err := New("xml", &bytes.Buffer{}, Options{})
	if quarry.KindOf(err) != quarry.KindUsage {
		t.Fatalf("kind = %s, want usage", quarry.KindOf(err))
	}
	if msg := quarry.Message(err); !strings.Contains(msg, "csv, json, jsonl, markdown, table, tsv") {
		t.Errorf("message %q does not list the formats", msg)
	}
	for _, alias := range []string{"CSV", " table ", "md", "ndjson"} {
		if _, err := New(alias, &bytes.Buffer{}, Options{}); err != nil {
			t.Errorf("New(%q): %v", alias, err)
		}
	}
}

// TestFlushEndsAtWholeRow checks that what a streaming format has written
// when the caller flushes after an interruption ends at a row boundary.
func TestFlushEndsAtWholeRow(t *testing.T) {
	for _, f := range []string{"csv", "tsv", "jsonl"} {
		var buf bytes.Buffer
		w, _ := New(f, &buf, Options{})
		w.Begin(sampleCols)
		rows := sampleRows()
		for _, r := range rows[:3] {
			w.Row(r)
		}
		if buf.Len() != 0 {
			t.Errorf("%s wrote before Flush", f)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		want := render(t, f, scenario{cols: sampleCols, rows: rows[:3]})
		if buf.String() != string(want) {
			t.Errorf("%s flushed %q, want %q", f, buf.String(), want)
		}
	}
}

func TestRowDoesNotAllocate(t *testing.T) {
	row := []any{int64(123456), "some text, quoted", 3.25, true, nil}
	cols := make([]quarry.Column, len(row))
	for _, f := range []string{"csv", "tsv", "jsonl", "json"} {
		w, _ := New(f, discard{}, Options{})
		w.Begin(cols)
		w.Row(row) // grow the buffers
		if n := testing.AllocsPerRun(1000, func() { w.Row(row) }); n != 0 {
			t.Errorf("%s: %.1f allocations per row, want 0", f, n)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestTableFitsWidth(t *testing.T) {
	for _, width := range []int{30, 50, 80} {
		out := render(t, "table", scenario{cols: sampleCols, rows: sampleRows(), opts: Options{Width: width}})
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			if strings.HasPrefix(l, "(") {
				continue
			}
			// 8 columns at the minimum width of 5 (numbers at their full
			// width) need 60 cells.
			if w := textWidth(l); w > max(width, 60) {
				t.Errorf("width %d: line is %d wide: %q", width, w, l)
			}
		}
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 12345: "12,345", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %s, want %s", n, got, want)
		}
	}
}

func BenchmarkCSVRow(b *testing.B) {
	row := []any{int64(123456), "customer name", 3.25, "2026-06-30 12:00:00", nil}
	w, _ := New("csv", discard{}, Options{})
	w.Begin(make([]quarry.Column, len(row)))
	b.ReportAllocs()
	for b.Loop() {
		w.Row(row)
	}
}

// TestArraysAsJSON: an array or struct cell is written as JSON in CSV,
// not as Go prints it.
func TestArraysAsJSON(t *testing.T) {
	if got := string(appendText(nil, []any{int64(1), "b c", nil}, "")); got != `[1,"b c",null]` {
		t.Errorf("array = %s", got)
	}
	if got := string(appendText(nil, map[string]any{"a": int64(1)}, "")); got != `{"a":1}` {
		t.Errorf("struct = %s", got)
	}
}
