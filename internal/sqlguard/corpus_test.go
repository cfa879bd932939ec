package sqlguard

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// loadCases reads a corpus file from testdata.
func loadCases(t testing.TB, name string) []Case {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ParseCorpus(string(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return cases
}

// dialectsFor lists the dialects a case is checked under: an "any" row
// under every dialect, a sqlite row under sqlite and the generic dialect,
// others under their own dialect.
func dialectsFor(c Case) []quarry.Dialect {
	switch c.Dialect {
	case quarry.DialectGeneric:
		return []quarry.Dialect{quarry.DialectGeneric, quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL}
	case quarry.DialectSQLite:
		return []quarry.Dialect{quarry.DialectSQLite, quarry.DialectGeneric}
	default:
		return []quarry.Dialect{c.Dialect}
	}
}

// mustPass reports whether a failure of c under d fails the test outright
// (rather than being tracked in the expected-failures list).
func mustPass(c Case, d quarry.Dialect) bool {
	return d == quarry.DialectGeneric || d == quarry.DialectSQLite
}

func failureKey(file string, c Case, d quarry.Dialect) string {
	exp := "reject"
	if c.Allow {
		exp = "allow"
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s", file, d, exp, c.Raw)
}

func TestCorpus(t *testing.T) {
	type count struct{ allow, reject, allowOK, rejectOK int }
	counts := map[quarry.Dialect]*count{}
	var tracked []string
	for _, file := range []string{"guard-corpus.tsv", "extra-cases.tsv"} {
		for _, c := range loadCases(t, file) {
			for _, d := range dialectsFor(c) {
				v := Check(c.SQL, Options{Dialect: d})
				k := counts[d]
				if k == nil {
					k = &count{}
					counts[d] = k
				}
				ok := v.Allowed == c.Allow
				if c.Allow {
					k.allow++
					if ok {
						k.allowOK++
					}
				} else {
					k.reject++
					if ok {
						k.rejectOK++
					}
				}
				if ok {
					continue
				}
				if mustPass(c, d) || file != "guard-corpus.tsv" {
					t.Errorf("%s:%d [%s] want allow=%v, got %s\n\tsql: %q\n\twhy: %s", file, c.Line, d, c.Allow, v, c.SQL, c.Why)
					continue
				}
				tracked = append(tracked, failureKey(file, c, d))
			}
		}
	}
	var ds []string
	for d := range counts {
		ds = append(ds, string(d))
	}
	sort.Strings(ds)
	for _, d := range ds {
		k := counts[quarry.Dialect(d)]
		t.Logf("%-8s allow %d/%d  reject %d/%d", d, k.allowOK, k.allow, k.rejectOK, k.reject)
	}
	sort.Strings(tracked)
	const listFile = "testdata/expected-failures.tsv"
	if goldentest.Update() {
		body := "# Corpus rows the lexical guard does not yet decide as expected.\n# Kept honest by TestCorpus: remove a row when it starts passing.\n"
		for _, l := range tracked {
			body += l + "\n"
		}
		if err := os.WriteFile(listFile, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(listFile)
	if err != nil {
		t.Fatal(err)
	}
	unlisted, passing := compareTracked(tracked, string(data))
	for _, l := range unlisted {
		t.Errorf("unlisted failure (fix the guard, or list it in %s): %s", listFile, l)
	}
	for _, l := range passing {
		t.Errorf("listed failure now passes; remove it from %s: %s", listFile, l)
	}
}

// compareTracked returns the failures missing from the list and the listed
// failures that no longer fail.
func compareTracked(tracked []string, list string) (unlisted, passing []string) {
	want := map[string]bool{}
	for _, l := range strings.Split(list, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			want[l] = true
		}
	}
	for _, l := range tracked {
		if !want[l] {
			unlisted = append(unlisted, l)
		}
		delete(want, l)
	}
	for l := range want {
		passing = append(passing, l)
	}
	sort.Strings(passing)
	return unlisted, passing
}
