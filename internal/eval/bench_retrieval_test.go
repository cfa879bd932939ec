package eval

import (
	"testing"

	"github.com/quarrydata/quarry/internal/retrieval"
)

// BenchmarkRetrievalBuild builds the retrieval index of the synthetic
// 10,000-table catalog.
func BenchmarkRetrievalBuild(b *testing.B) {
	cat, _ := SyntheticCatalog(10000, 0, 1)
	ts := retrieval.FromCatalog(cat, nil)
	b.ResetTimer()
	for b.Loop() {
		retrieval.Build(retrieval.Input{Tables: ts})
	}
}

// BenchmarkRetrievalSearch searches the synthetic 10,000-table catalog
// with its generated questions, one at a time.
func BenchmarkRetrievalSearch(b *testing.B) {
	cat, cases := SyntheticCatalog(10000, 200, 1)
	ix := retrieval.Build(retrieval.Input{Tables: retrieval.FromCatalog(cat, nil)})
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ix.Search(cases[i%len(cases)].Question, retrieval.Options{})
		i++
	}
}
