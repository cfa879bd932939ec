package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

// BenchmarkState is the backends' shared append benchmark (the postgres
// backend runs the same one).
func BenchmarkState(b *testing.B) {
	storetest.Bench(b, func(t testing.TB) store.State {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), ".quarry", "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// BenchmarkOpenAndRecordRun measures what one `quarry run` adds: opening
// an existing state database and recording a five-event run.
func BenchmarkOpenAndRecordRun(b *testing.B) {
	path := filepath.Join(b.TempDir(), ".quarry", "state.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	b.ResetTimer()
	for i := range b.N {
		s, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := storetest.RecordRun(s, fmt.Sprintf("r_%09d", i), "run", storetest.T0.Add(time.Duration(i)*time.Second), true); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuns measures listing the 20 newest runs of 2,000.
func BenchmarkRuns(b *testing.B) {
	path := filepath.Join(b.TempDir(), ".quarry", "state.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range 2000 {
		if _, err := storetest.RecordRun(s, fmt.Sprintf("r_%09d", i), "run", storetest.T0.Add(time.Duration(i)*time.Second), true); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		runs, err := s.Runs(context.Background(), store.RunFilter{Limit: 20})
		if err != nil || len(runs) != 20 {
			b.Fatal(len(runs), err)
		}
	}
}
