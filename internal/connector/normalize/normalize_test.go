package normalize

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

var want = &quarry.Table{
	Columns: []quarry.Column{{Name: "country", Type: quarry.TypeText}, {Name: "customers", Type: quarry.TypeInt}, {Name: "revenue", Type: quarry.TypeFloat}},
	Rows:    [][]any{{"Germany", int64(1), 30.5}, {"United States", int64(2), nil}},
}

func TestParseFormats(t *testing.T) {
	for _, tc := range []struct{ format, in string }{
		{FormatCSV, "country,customers,revenue\nGermany,1,30.5\n\"United States\",2,\n"},
		{FormatTSV, "country\tcustomers\trevenue\r\nGermany\t1\t30.5\r\nUnited States\t2\t\r\n"},
		{FormatPSQL, "    country    | customers | revenue \n---------------+-----------+---------\n Germany       |         1 |    30.5\n United States |         2 |        \n(2 rows)\n"},
		{FormatMySQL, "+---------------+-----------+---------+\n| country       | customers | revenue |\n+---------------+-----------+---------+\n| Germany       |         1 |    30.5 |\n| United States |         2 |    NULL |\n+---------------+-----------+---------+\n2 rows in set (0.00 sec)\n"},
		{FormatMarkdown, "| country | customers | revenue |\n|:--|--:|---|\n| Germany | 1 | 30.5 |\n| United States | 2 |  |\n"},
		{FormatJSON, `[{"country":"Germany","customers":1,"revenue":30.5},{"country":"United States","customers":2,"revenue":null}]`},
		{FormatJSON, `{"columns":["country","customers","revenue"],"rows":[["Germany",1,30.5],["United States",2,null]]}`},
		{FormatJSON, `{"columns":[{"name":"country"},{"name":"customers"},{"name":"revenue"}],"rows":[{"country":"Germany","customers":1,"revenue":30.5},{"country":"United States","customers":2}]}`},
		{FormatJSON, `{"success":true,"data":{"rows":[{"country":"Germany","customers":1,"revenue":30.5},{"country":"United States","customers":2,"revenue":null}],"rowCount":2}}`},
		{FormatJSON, `[["country","customers","revenue"],["Germany",1,30.5],["United States",2,null]]`},
	} {
		got, format, err := Parse([]byte(tc.in))
		if err != nil {
			t.Errorf("%s %q: %v", tc.format, tc.in, err)
			continue
		}
		if format != tc.format {
			t.Errorf("%q read as %s, want %s", tc.in, format, tc.format)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.format, d)
		}
	}
}

func TestParseRefusesWhatIsNotATable(t *testing.T) {
	for _, in := range []string{"", "   \n", `{"a":1}`, `[1,2`, "a,b\n1,2,3\n", "| a | b |\n|---|---|\n| 1 |\n", "\xff\xfe"} {
		if _, _, err := Parse([]byte(in)); err == nil || quarry.KindOf(err) != quarry.KindInput {
			t.Errorf("Parse(%q) = %v, want a KindInput error", in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a\tb\n1\t2\n", " a | b \n---+---\n 1 | 2\n(1 row)", "+---+\n| a |\n+---+\n| 1 |\n+---+", "| a |\n|---|\n| 1 |", `[{"a":1}]`, `{"columns":["a"],"rows":[[1]]}`, `{"data":{"items":[{"a":{"b":[1]}}]}}`} {
		f.Add([]byte(s))
	}
	for _, p := range corpusFiles(f) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, ok := parseColumnsRows(data); ok {
			if v, err := decodeOrdered(data); err == nil {
				if slow, err := find(v, 0); err == nil && !cmp.Equal(slow, fast) {
					t.Fatalf("the {columns, rows} fast path differs from the general decoder:\n%s", cmp.Diff(slow, fast))
				}
			}
		}
		tbl, format, err := Parse(data)
		if err != nil {
			if quarry.KindOf(err) != quarry.KindInput {
				t.Fatalf("error of kind %s: %v", quarry.KindOf(err), err)
			}
			return
		}
		if format == "" || len(tbl.Columns) == 0 {
			t.Fatalf("a table with no format or no columns: %q", format)
		}
		for i, r := range tbl.Rows {
			if len(r) != len(tbl.Columns) {
				t.Fatalf("row %d has %d cells for %d columns", i, len(r), len(tbl.Columns))
			}
		}
	})
}

// A server that stopped at its own row cap says so with "truncated"; the
// table carries it, directly or inside an MCP result.
func TestParseKeepsTheServersTruncatedFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`{"columns": [{"name": "n", "type": "int"}], "rows": [[1], [2]], "row_count": 2, "truncated": true}`, true},
		{`{"structuredContent": {"columns": ["n"], "rows": [[1]], "truncated": true}, "content": []}`, true},
		{`{"columns": ["n"], "rows": [[1]], "truncated": false}`, false},
		{`{"columns": ["n"], "rows": [[1]]}`, false},
	} {
		tb, _, err := Parse([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if tb.Truncated != c.want || len(tb.Rows) == 0 {
			t.Errorf("%s: truncated %v, want %v (%d rows)", c.in, tb.Truncated, c.want, len(tb.Rows))
		}
	}
}

// Declared column types fill in what the values cannot say (a column of
// NULLs), and the database's spelling is kept.
func TestParseKeepsDeclaredColumnTypes(t *testing.T) {
	tb, _, err := Parse([]byte(`{"columns": [{"name": "id", "type": "int", "db_type": "INTEGER"}, {"name": "referred_by", "type": "int"}, {"name": "note", "type": "VARCHAR(20)"}], "rows": [[1, null, null], [2, null, null]]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []quarry.Column{{Name: "id", Type: quarry.TypeInt, DBType: "INTEGER"}, {Name: "referred_by", Type: quarry.TypeInt}, {Name: "note", Type: quarry.TypeText, DBType: "VARCHAR(20)"}}
	if diff := cmp.Diff(want, tb.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}

// slowColumnsRows reads data with the general, order-keeping decoder
// alone, bypassing the fast path.
func slowColumnsRows(t testing.TB, data []byte) *quarry.Table {
	v, err := decodeOrdered(data)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := find(v, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// The fast path for {columns, rows} gives the table the general decoder
// gives.
func TestColumnsRowsFastPathAgrees(t *testing.T) {
	for _, in := range []string{
		`{"columns": ["a", "b"], "rows": [[1, "x"], [2, null]]}`,
		`{"columns": [{"name": "id", "type": "int"}, {"name": "big", "type": "bigint"}, {"name": "amount", "type": "decimal", "db_type": "NUMERIC(20,2)"}], "rows": [[1, 9223372036854775808, 12345678901234567.89], [2, 3, 1.5]], "row_count": 2, "truncated": true}`,
		`{"columns": ["d", "ts", "ok", "f", "zip"], "rows": [["2025-01-03", "2025-01-03T10:00:00Z", true, 0.25, "01234"], [null, null, false, 1e3, "99999"]]}`,
		`{"columns": ["n"], "rows": []}`,
		`{"rows": [[1]], "columns": [{"name": "n"}]}`,
	} {
		fast, ok := parseColumnsRows([]byte(in))
		if !ok {
			t.Errorf("%s: the fast path did not read it", in)
			continue
		}
		if diff := cmp.Diff(slowColumnsRows(t, []byte(in)), fast); diff != "" {
			t.Errorf("%s: fast path differs (-slow +fast):\n%s", in, diff)
		}
	}
	for _, in := range []string{
		`{"columns": ["a"], "rows": [[{"nested": 1}]]}`,
		`{"columns": ["a"], "rows": [{"a": 1}]}`,
		`{"columns": ["a", "b"], "rows": [[1]]}`,
		`{"columns": ["a"], "rows": [[1]], "isError": true}`,
	} {
		if _, ok := parseColumnsRows([]byte(in)); ok {
			t.Errorf("%s: the fast path read what it must leave to the general decoder", in)
		}
	}
}
