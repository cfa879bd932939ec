package normalize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// corpusFiles lists the inputs in testdata/corpus (every file but the
// .golden ones).
func corpusFiles(tb testing.TB) []string {
	tb.Helper()
	all, err := filepath.Glob("testdata/corpus/*")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".golden") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		tb.Fatal("the corpus is empty")
	}
	return out
}

// golden is what a corpus file normalises to: a format and a table, or an
// error's kind and message.
type golden struct {
	Format string        `json:"format,omitempty"`
	Table  *quarry.Table `json:"table,omitempty"`
	Types  [][]string    `json:"go_types,omitempty"` // the Go type of every cell, to tell 1 from 1.0
	Error  string        `json:"error,omitempty"`
}

func TestCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var g golden
			tbl, format, err := Parse(in)
			if err != nil {
				if quarry.KindOf(err) != quarry.KindInput || strings.ContainsAny(err.Error(), "\n\r") {
					t.Errorf("error %v is not one KindInput line", err)
				}
				g.Error = err.Error()
			} else {
				g.Format, g.Table = format, tbl
				for _, r := range tbl.Rows {
					if len(r) != len(tbl.Columns) {
						t.Fatalf("row %v has %d cells for %d columns", r, len(r), len(tbl.Columns))
					}
					types := make([]string, len(r))
					for i, v := range r {
						types[i] = goType(v)
					}
					g.Types = append(g.Types, types)
				}
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := f + ".golden"
			if goldentest.Update() {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(want) != string(got) {
				t.Errorf("%s differs from %s:\n%s", f, path, got)
			}
		})
	}
}

func goType(v any) string {
	switch v.(type) {
	case nil:
		return "nil"
	case int64:
		return "int64"
	case float64:
		return "float64"
	case bool:
		return "bool"
	case string:
		return "string"
	}
	return "other"
}
