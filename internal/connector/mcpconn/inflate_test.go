package mcpconn

import (
	"bytes"
	"compress/flate"
	"testing"

	"github.com/quarrydata/quarry/internal/connector/normalize"
)

// TestInflateTakesTheSizeAsAHintOnly: the server's "size" sizes the
// buffer, but neither a size that lies low nor one that asks for more
// than a result may hold changes what is read, and what is read stops
// one byte past normalize.MaxBytes whatever the size says.
func TestInflateTakesTheSizeAsAHintOnly(t *testing.T) {
	deflate := func(b []byte) []byte {
		var z bytes.Buffer
		w, _ := flate.NewWriter(&z, flate.BestSpeed)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	body := bytes.Repeat([]byte("quarry result "), 10_000)
	blob := deflate(body)
	for _, size := range []any{nil, "140000", float64(-1), float64(0), float64(10), float64(len(body)), float64(1 << 40)} {
		got, err := inflate(blob, size)
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("size %v: %d bytes, %v; want the %d bytes sent", size, len(got), err, len(body))
		}
	}
	huge := deflate(make([]byte, normalize.MaxBytes+100))
	got, err := inflate(huge, float64(1))
	if err != nil || len(got) != normalize.MaxBytes+1 {
		t.Errorf("a blob inflating past the bound: %d bytes, %v; want %d (one past the bound)", len(got), err, normalize.MaxBytes+1)
	}
}
