package guard

import (
	"context"
	"os"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// mysqlCorpusFiles hold the rows the combined MySQL guard is held to: the
// shared corpus, the lexical guard's extra cases and the MySQL engine
// check's own cases (rows for any and mysql).
var mysqlCorpusFiles = []string{
	"../sqlguard/testdata/guard-corpus.tsv",
	"../sqlguard/testdata/extra-cases.tsv",
	"../sqlguard/mysqlparse/testdata/mysql-cases.tsv",
}

// TestMySQLCorpus: through the combined guard (lexical guard, then the
// MySQL parser), every reject row is rejected and every allow row allowed.
func TestMySQLCorpus(t *testing.T) {
	g, err := New(sqlguard.Options{Dialect: quarry.DialectMySQL})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !g.Engine() {
		t.Fatal("the mysql guard has no engine check")
	}
	ctx := context.Background()
	for _, f := range mysqlCorpusFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := sqlguard.ParseCorpus(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var allow, allowOK, rej, rejOK, lexOnly int
		for _, c := range cases {
			if c.Dialect != quarry.DialectGeneric && c.Dialect != quarry.DialectMySQL {
				continue
			}
			v := g.Check(ctx, c.SQL)
			if c.Allow {
				allow++
			} else {
				rej++
			}
			if v.Allowed != c.Allow {
				t.Errorf("%s:%d want allow=%v, got %s\n\tsql: %q\n\twhy: %s", f, c.Line, c.Allow, v, c.SQL, c.Why)
				continue
			}
			if c.Allow {
				allowOK++
				continue
			}
			rejOK++
			if lex := sqlguard.Check(c.SQL, sqlguard.Options{Dialect: quarry.DialectMySQL}); !lex.Allowed {
				lexOnly++
			}
		}
		t.Logf("%s: allow %d/%d, reject %d/%d (%d of them already by the lexical guard)", f, allowOK, allow, rejOK, rej, lexOnly)
	}
}
