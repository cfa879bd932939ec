package store

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// allTypes is a result holding every value type a Table may hold.
func allTypes() *quarry.Table {
	berlin := time.FixedZone("CEST", 2*3600)
	return &quarry.Table{
		Columns: []quarry.Column{
			{Name: "nothing", Type: quarry.TypeUnknown},
			{Name: "flag", Type: quarry.TypeBool, DBType: "BOOLEAN"},
			{Name: "n", Type: quarry.TypeInt, DBType: "INTEGER"},
			{Name: "x", Type: quarry.TypeFloat, DBType: "REAL"},
			{Name: "name", Type: quarry.TypeText, DBType: "TEXT"},
			{Name: "blob", Type: quarry.TypeBytes, DBType: "BLOB"},
			{Name: "at", Type: quarry.TypeTimestamp, DBType: "TIMESTAMP"},
			{Name: "doc", Type: quarry.TypeJSON, DBType: "JSON"},
		},
		Rows: [][]any{
			{nil, true, int64(42), 3.5, "Germany", []byte{0, 1, 0xff}, time.Date(2026, 6, 30, 23, 59, 59, 123456789, time.UTC), json.RawMessage(`{"a":[1,2]}`)},
			{nil, false, int64(math.MinInt64), math.Inf(-1), "", []byte{}, time.Date(1969, 7, 20, 20, 17, 40, 0, berlin), json.RawMessage(`null`)},
			{"", nil, int64(math.MaxInt64), math.Copysign(0, -1), "naïve ✓ \x00 text", []byte(nil), time.Date(9999, 12, 31, 0, 0, 0, 1, time.UTC), nil},
			{int64(0), true, nil, math.SmallestNonzeroFloat64, "'; DROP TABLE results; --", []byte("bytes"), time.Time{}, json.RawMessage(`"s"`)},
		},
		Truncated: true,
	}
}

// normalised is what Result documents it returns for allTypes.
func normalised() *quarry.Table {
	t := allTypes()
	t.Rows[1][6] = t.Rows[1][6].(time.Time).UTC()
	t.Rows[2][5] = []byte{}
	return t
}

func TestResultsRoundTripEveryValueType(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	id, hash, err := s.SaveResult(ctx, "r_01RES", allTypes())
	if err != nil {
		t.Fatal(err)
	}
	if id != "res_r_01RES" || !strings.HasPrefix(hash, "sha256:") || len(hash) != len("sha256:")+64 {
		t.Errorf("id %q hash %q", id, hash)
	}
	got, err := s.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Compare floats bit for bit (so -0 and 0 differ) and times as written.
	opts := cmp.Options{
		cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }),
		cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }),
	}
	if diff := cmp.Diff(normalised(), got, opts); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	for i, row := range got.Rows {
		for j, v := range row {
			w := normalised().Rows[i][j]
			if (v == nil) != (w == nil) {
				t.Errorf("row %d col %d: nil-ness changed: %#v vs %#v", i, j, v, w)
			}
		}
	}
	// NaN survives as NaN.
	id2, _, err := s.SaveResult(ctx, "r_01RES", &quarry.Table{Columns: []quarry.Column{{Name: "x"}}, Rows: [][]any{{math.NaN()}, {float32(1.5)}, {int32(-3)}, {uint8(200)}}})
	if err != nil {
		t.Fatal(err)
	}
	if id2 != "res_r_01RES_2" {
		t.Errorf("second result of a run has ID %q, want res_r_01RES_2", id2)
	}
	got2, err := s.Result(ctx, id2)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := got2.Rows[0][0].(float64); !ok || !math.IsNaN(f) {
		t.Errorf("NaN came back as %#v", got2.Rows[0][0])
	}
	if diff := cmp.Diff([]any{1.5, int64(-3), int64(200)}, []any{got2.Rows[1][0], got2.Rows[2][0], got2.Rows[3][0]}); diff != "" {
		t.Errorf("normalised numbers (-want +got):\n%s", diff)
	}
	if got2.Truncated {
		t.Error("Truncated came back true")
	}
}

// TestResultHashIsStable pins the canonical encoding: the hash of a fixed
// result never changes, since hashes are recorded in events.
func TestResultHashIsStable(t *testing.T) {
	body, err := encodeTable(allTypes())
	if err != nil {
		t.Fatal(err)
	}
	got := hashOf(body) + "\n"
	const golden = "testdata/all_types.hash"
	if *update {
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
	other := allTypes()
	other.Truncated = false
	other.Rows[1][6] = other.Rows[1][6].(time.Time).UTC()
	b2, _ := encodeTable(other)
	if hashOf(b2)+"\n" != got {
		t.Error("hash depends on Truncated or on a time's location")
	}
	other.Rows[0][2] = int64(43)
	b3, _ := encodeTable(other)
	if hashOf(b3)+"\n" == got {
		t.Error("hash ignores a changed value")
	}
	other = allTypes()
	other.Columns[0].Name = "renamed"
	b4, _ := encodeTable(other)
	if hashOf(b4)+"\n" == got {
		t.Error("hash ignores a column name")
	}
}

func TestSaveResultRefusesBadTables(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	tests := map[string]*quarry.Table{
		"nil table":     nil,
		"short row":     {Columns: []quarry.Column{{Name: "a"}, {Name: "b"}}, Rows: [][]any{{int64(1)}}},
		"unknown type":  {Columns: []quarry.Column{{Name: "a"}}, Rows: [][]any{{struct{}{}}}},
		"huge unsigned": {Columns: []quarry.Column{{Name: "a"}}, Rows: [][]any{{uint64(math.MaxUint64)}}},
	}
	for name, tab := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := s.SaveResult(ctx, "r_bad", tab)
			wantKind(t, err, quarry.KindInternal)
		})
	}
	_, _, err := s.SaveResult(ctx, "", &quarry.Table{})
	wantKind(t, err, quarry.KindInternal)
}

func TestResultNotFoundAndDamaged(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	_, err := s.Result(ctx, "res_nope")
	wantKind(t, err, quarry.KindNotFound)

	id, _, err := s.SaveResult(ctx, "r_dmg", &quarry.Table{Columns: []quarry.Column{{Name: "n"}}, Rows: [][]any{{int64(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if _, err := db.Exec(`UPDATE results SET body = CAST(replace(CAST(body AS TEXT), 'quarry', 'QUARRY') AS BLOB) WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	_, err = s.Result(ctx, id)
	wantKind(t, err, quarry.KindInternal)
	if !strings.Contains(err.Error(), "damaged") {
		t.Errorf("message = %v", err)
	}
}

func TestEmptyResult(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	in := &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{}}
	id, _, err := s.SaveResult(ctx, "r_empty", in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzDecodeTable(f *testing.F) {
	body, _ := encodeTable(allTypes())
	f.Add(body)
	f.Add([]byte(resultHeader))
	f.Add([]byte(resultHeader + "\x01\x01a\x00\x00\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := decodeTable(data)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes, and that encoding is a fixed point.
		once, err := encodeTable(tab)
		if err != nil {
			t.Fatalf("decoded table does not re-encode: %v", err)
		}
		tab2, err := decodeTable(once)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		twice, err := encodeTable(tab2)
		if err != nil || string(twice) != string(once) {
			t.Fatalf("encoding is not stable: %v", err)
		}
	})
}
