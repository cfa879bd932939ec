package sqlguard

import (
	"os"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

var fuzzDialects = []quarry.Dialect{quarry.DialectGeneric, quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB}

func seedCorpus(f *testing.F) {
	for _, file := range []string{"guard-corpus.tsv", "extra-cases.tsv"} {
		for _, c := range loadCases(f, file) {
			f.Add(c.SQL, uint8(0))
			f.Add(c.SQL, uint8(2))
		}
	}
}

// FuzzCheck: Check never panics, and whatever it allows is one statement
// whose first keyword is on the statement allow-list, with no violations.
func FuzzCheck(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, sql string, d uint8) {
		dialect := fuzzDialects[int(d)%len(fuzzDialects)]
		v := Check(sql, Options{Dialect: dialect})
		if !v.Allowed {
			if len(v.Violations) == 0 {
				t.Fatalf("rejected without a violation: %q", sql)
			}
			for _, x := range v.Violations {
				if x.Pos < 0 || x.Pos > len(sql) || x.Code == "" || x.Message == "" {
					t.Fatalf("bad violation %+v for %q", x, sql)
				}
			}
			return
		}
		if len(v.Violations) != 0 {
			t.Fatalf("allowed with violations: %q", sql)
		}
		toks, ok := Tokenize(sql, dialect)
		if !ok || len(toks) == 0 {
			t.Fatalf("allowed but does not tokenize: %q", sql)
		}
		for i, tok := range toks {
			if tok.Kind == TokenOp && tok.Text == ";" && i != len(toks)-1 {
				t.Fatalf("allowed with a ; before the end: %q", sql)
			}
		}
		i := 0
		for i < len(toks) && toks[i].Kind == TokenOp && toks[i].Text == "(" {
			i++
		}
		if i >= len(toks) || toks[i].Kind != TokenWord {
			t.Fatalf("allowed without a leading keyword: %q", sql)
		}
		switch lookupKeyword(toks[i].Text) {
		case kwSelect, kwWith, kwValues, kwTable, kwExplain:
		case kwFrom:
			if dialect != quarry.DialectDuckDB {
				t.Fatalf("allowed FROM head outside DuckDB: %q", sql)
			}
		case kwDescribe:
			if dialect != quarry.DialectMySQL {
				t.Fatalf("allowed DESCRIBE outside MySQL: %q", sql)
			}
		default:
			t.Fatalf("allowed with head %q: %q", toks[i].Text, sql)
		}
		switch v.Statement {
		case "select", "values", "table", "with", "explain":
		default:
			t.Fatalf("allowed with kind %q: %q", v.Statement, sql)
		}
	})
}

// FuzzParseCorpus: the corpus decoder never panics, and a decoded row
// round-trips through its own escapes.
func FuzzParseCorpus(f *testing.F) {
	data, err := os.ReadFile("testdata/extra-cases.tsv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("h\nany\tallow\t\"SELECT \"\"x\"\"\\u00e9\"\twhy\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseCorpus(s)
		_, _ = DecodeSQL(s)
	})
}
