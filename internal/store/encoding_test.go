package store_test

import (
	"os"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

// TestResultHashIsStable pins the canonical encoding: the hash of a fixed
// result never changes, since hashes are recorded in events.
func TestResultHashIsStable(t *testing.T) {
	body, err := quarry.EncodeTable(storetest.AllTypes())
	if err != nil {
		t.Fatal(err)
	}
	got := store.Hash(body) + "\n"
	const golden = "testdata/all_types.hash"
	if goldentest.Update() {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("hash = %s, golden %s: the canonical encoding changed", got, want)
	}
	// The hash covers columns and rows, not whether rows were cut off, and
	// not a time's zone.
	other := storetest.AllTypes()
	other.Truncated = false
	other.Rows[1][6] = other.Rows[1][6].(time.Time).UTC()
	b2, _ := quarry.EncodeTable(other)
	if store.Hash(b2)+"\n" != got {
		t.Error("hash depends on Truncated or on a time's location")
	}
	other.Rows[0][2] = int64(43)
	b3, _ := quarry.EncodeTable(other)
	if store.Hash(b3)+"\n" == got {
		t.Error("hash ignores a changed value")
	}
	other = storetest.AllTypes()
	other.Columns[0].Name = "renamed"
	b4, _ := quarry.EncodeTable(other)
	if store.Hash(b4)+"\n" == got {
		t.Error("hash ignores a column name")
	}
}

func FuzzDecodeTable(f *testing.F) {
	body, _ := quarry.EncodeTable(storetest.AllTypes())
	f.Add(body)
	f.Add([]byte("quarry-result/1\n"))
	f.Add([]byte("quarry-result/1\n\x01\x01a\x00\x00\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := quarry.DecodeTable(data)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes, and that encoding is a fixed point.
		once, err := quarry.EncodeTable(tab)
		if err != nil {
			t.Fatalf("decoded table does not re-encode: %v", err)
		}
		tab2, err := quarry.DecodeTable(once)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		twice, err := quarry.EncodeTable(tab2)
		if err != nil || string(twice) != string(once) {
			t.Fatalf("encoding is not stable: %v", err)
		}
	})
}
