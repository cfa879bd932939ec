package pgparse_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// corpusFiles are the corpora run through the PostgreSQL guard: the
// shared corpus, sqlguard's extra cases and implicit calls (attribute
// notation and the like), then this package's own.
var corpusFiles = []string{
	"../testdata/guard-corpus.tsv",
	"../testdata/extra-cases.tsv",
	"../testdata/implicit-calls.tsv",
	"testdata/pg-cases.tsv",
}

// loadCases returns the rows of file meant for PostgreSQL (dialect any or
// postgres).
func loadCases(tb testing.TB, file string) []sqlguard.Case {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	all, err := sqlguard.ParseCorpus(string(data))
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	var out []sqlguard.Case
	for _, c := range all {
		if c.Dialect == quarry.DialectGeneric || c.Dialect == quarry.DialectPostgres {
			out = append(out, c)
		}
	}
	return out
}

func caseName(file string, c sqlguard.Case) string {
	return filepath.Base(file) + ":" + itoa(c.Line)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
