package mysqlparse

import (
	"context"
	"os"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// corpusFiles are the corpora the MySQL check is run on: the shared
// corpus, the lexical guard's extra cases and the implicit calls (rows for
// any and mysql), and this package's own MySQL/MariaDB cases.
var corpusFiles = []string{"../testdata/guard-corpus.tsv", "../testdata/extra-cases.tsv", "../testdata/implicit-calls.tsv", "testdata/mysql-cases.tsv"}

// mysqlCases returns the rows of the corpora that apply to MySQL.
func mysqlCases(t testing.TB) map[string][]sqlguard.Case {
	t.Helper()
	out := map[string][]sqlguard.Case{}
	for _, f := range corpusFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := sqlguard.ParseCorpus(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range cases {
			if c.Dialect == quarry.DialectGeneric || c.Dialect == quarry.DialectMySQL {
				out[f] = append(out[f], c)
			}
		}
	}
	return out
}

// TestCorpusParserAlone runs every MySQL row through the engine check
// alone. Every allow row must be allowed (the combined guard can only
// reject more); the reject rows it catches are counted, since the lexical
// guard catches the rest.
func TestCorpusParserAlone(t *testing.T) {
	c := New(DefaultSQLMode)
	ctx := context.Background()
	for _, f := range corpusFiles {
		var allow, allowOK, rej, rejOK int
		for _, cs := range mysqlCases(t)[f] {
			v := c.Check(ctx, cs.SQL, sqlguard.Options{Dialect: quarry.DialectMySQL})
			if cs.Allow {
				allow++
				if v.Allowed {
					allowOK++
				} else {
					t.Errorf("%s:%d allow row rejected by the MySQL check: %s\n\tsql: %q", f, cs.Line, v, cs.SQL)
				}
				continue
			}
			rej++
			if !v.Allowed {
				rejOK++
			} else if testing.Verbose() {
				t.Logf("%s:%d reject row left to the lexical guard: %q (%s)", f, cs.Line, cs.SQL, cs.Why)
			}
		}
		t.Logf("%s: allow %d/%d allowed, reject %d/%d caught by the parser alone", f, allowOK, allow, rejOK, rej)
	}
}
