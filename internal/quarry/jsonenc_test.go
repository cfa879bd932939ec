package quarry

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAppendJSONIsMarshal checks that AppendJSON writes what json.Marshal
// writes, for the fast paths and the fallback.
func TestAppendJSONIsMarshal(t *testing.T) {
	vals := []any{
		nil, true, false, int64(0), int64(-42), int64(math.MaxInt64), int64(math.MinInt64),
		0.0, math.Copysign(0, -1), 1.5, -2.25, 0.1 + 0.2, 1e20, 1e21, 123456789e15, 1e-6, 9.99e-7, 1e-9, -3e-10, 5e-324,
		math.MaxFloat64, math.SmallestNonzeroFloat64, float64(1 << 53), 15.54, 100000.0,
		"", "plain", "customer 42", "2023-11-14 22:56:02", `quote "q"`, `back\slash`, "<b>&</b>", "tab\tnew\nline",
		"é ünïcode", "\u2028\u2029", "bad \xff utf8", "\x00\x1f",
		[]byte("bytes"), json.RawMessage(`{"a":[1,2]}`), []any{int64(1), "x"}, int32(7), uint8(3), float32(1.25),
		time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC),
	}
	for _, v := range vals {
		want, wantErr := json.Marshal(v)
		got, err := AppendJSON([]byte("x"), v)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%#v: error %v, want %v", v, err, wantErr)
			continue
		}
		if err == nil {
			if diff := cmp.Diff("x"+string(want), string(got)); diff != "" {
				t.Errorf("%#v (-json.Marshal +AppendJSON):\n%s", v, diff)
			}
		}
		if s, ok := v.(string); ok && JSONStringLen(s) != len(want) {
			t.Errorf("JSONStringLen(%q) = %d, want %d", s, JSONStringLen(s), len(want))
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := AppendJSON(nil, f); err == nil {
			t.Errorf("%v: no error, json.Marshal refuses it", f)
		}
	}
}

func FuzzAppendJSONFloat(f *testing.F) {
	f.Add(1.5)
	f.Add(1e-7)
	f.Add(1e21)
	f.Fuzz(func(t *testing.T, x float64) {
		want, err := json.Marshal(x)
		if err != nil {
			return
		}
		if got := AppendJSONFloat(nil, x); string(got) != string(want) {
			t.Errorf("%v: %s, want %s", x, got, want)
		}
	})
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add("plain")
	f.Add("<&>\"\\\x00é")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got, _ := AppendJSON(nil, s); string(got) != string(want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	})
}
