package valueindex

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// namesDB writes a table of n distinct two-word names (and a city each)
// and returns its path and model.
func namesDB(tb testing.TB, n int) (string, *semantic.Model) {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`INSERT INTO people(name, city) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "('%s %s', 'City %s')", syllables(i%1000), syllables(i/1000+1000), syllables(i%500))
	}
	path := makeDB(tb, `CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT)`, b.String())
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "people", PrimaryKey: "id",
		Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, textCol("name"), textCol("city")}}}}
	return path, m
}

// syllables spells i as a made-up word ("Bakodi").
func syllables(i int) string {
	cons, vow := "bdfgklmnprstvz", "aeiou"
	var b strings.Builder
	for range 3 {
		b.WriteByte(cons[i%len(cons)])
		i /= len(cons)
		b.WriteByte(vow[i%len(vow)])
		i /= len(vow)
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// BenchmarkLookup times one question against an index of 100,000 names
// (and 500 cities), with a value found.
func BenchmarkLookup(b *testing.B) {
	path, m := namesDB(b, 100000)
	ixPath := filepath.Join(b.TempDir(), "values.db")
	st, err := Build(context.Background(), source(b, path, m), m, ixPath, Limits{PerColumn: 200000})
	if err != nil {
		b.Fatal(err)
	}
	ix, err := Open(ixPath)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	name := syllables(17) + " " + syllables(1000+42)
	q := "how many orders did " + name + " place in City " + syllables(17) + " last year, by month and channel?"
	ctx := context.Background()
	f, err := ix.Lookup(ctx, q)
	if err != nil || len(f.Values) != 2 {
		b.Fatalf("%q: %v %v", q, f.Values, err)
	}
	b.ReportMetric(float64(st.Values), "values")
	b.ResetTimer()
	for b.Loop() {
		if _, err := ix.Lookup(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild times building the index of a table of 200,000
// distinct names.
func BenchmarkBuild(b *testing.B) {
	path, m := namesDB(b, 200000)
	src := source(b, path, m)
	ixPath := filepath.Join(b.TempDir(), "values.db")
	for b.Loop() {
		if _, err := Build(context.Background(), src, m, ixPath, Limits{PerColumn: 200000}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzLookup: any question is looked up without error, and every value
// found is named, as its words, in the question as read.
func FuzzLookup(f *testing.F) {
	ix, _, _ := buildShop(f, Limits{})
	for _, q := range []string{"customers in zurich", "orders ORD-1042 and A-113", "the USA, the UK", "New  York!York", "\"São Paulo\"", "ü\xff\"^*", "a—b «c» ord-1042's"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got, err := ix.Lookup(context.Background(), q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		read := " " + wordsOf(got.Question) + " "
		for _, v := range got.Values {
			w := wordsOf(v.Value)
			if w == "" || !strings.Contains(read, " "+w+" ") {
				t.Errorf("%q read as %q: found %q, not in it", q, got.Question, v.Value)
			}
		}
	})
}
