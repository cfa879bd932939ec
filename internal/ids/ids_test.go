package ids

import (
	"bytes"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

func TestNewKnownValues(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		now    time.Time
		rnd    []byte
		want   string
	}{
		{"zero", "r", time.UnixMilli(0), make([]byte, 10), "r_00000000000000000000000000"},
		{"max random", "r", time.UnixMilli(0), bytes.Repeat([]byte{0xff}, 10), "r_0000000000ZZZZZZZZZZZZZZZZ"},
		{"max time", "", time.UnixMilli(int64(ulid.MaxTime())), make([]byte, 10), "7ZZZZZZZZZ0000000000000000"},
		// The ULID specification's example time: 1469918176385 ms → 01ARYZ6S41.
		{"ulid example", "s", time.UnixMilli(1469918176385), make([]byte, 10), "s_01ARYZ6S410000000000000000"},
		{"before epoch", "r", time.UnixMilli(-5), make([]byte, 10), "r_00000000000000000000000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := New(tt.prefix, tt.now, bytes.NewReader(tt.rnd))
			if got != tt.want {
				t.Errorf("New = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSortableByTime(t *testing.T) {
	base := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	var got []string
	for i := range 200 {
		got = append(got, New("r", base.Add(time.Duration(i)*time.Millisecond), rand.Reader))
	}
	if !slices.IsSorted(got) {
		t.Errorf("IDs made in time order do not sort in time order: %v", got[:5])
	}
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Fatalf("duplicate ID %s", id)
		}
		seen[id] = true
		if len(id) != 2+Len || !strings.HasPrefix(id, "r_") {
			t.Fatalf("malformed ID %q", id)
		}
		for _, c := range id[2:] {
			if !strings.ContainsRune(ulid.Encoding, c) {
				t.Fatalf("ID %q has %q outside Crockford base32", id, c)
			}
		}
	}
}

func TestTimeRoundTrip(t *testing.T) {
	for _, ms := range []int64{0, 1, 1469918176385, 1782820800123, int64(ulid.MaxTime())} {
		id := New("run", time.UnixMilli(ms), rand.Reader)
		got, ok := Time(id)
		if !ok || got.UnixMilli() != ms {
			t.Errorf("Time(%s) = %v, %v; want %d ms", id, got, ok, ms)
		}
	}
	for _, bad := range []string{"", "r_", "r_0000", "r_8ZZZZZZZZZ0000000000000000", "r_0000000000000000000000000I", "r_000000000000000000000000000"} {
		if _, ok := Time(bad); ok {
			t.Errorf("Time(%q) reported ok", bad)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestNewPanicsWithoutRandomness(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New did not panic on a failing reader")
		}
	}()
	New("r", time.Now(), failingReader{})
}
