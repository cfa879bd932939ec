package mcpserver

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestEncodeResultIsMarshal checks that the connector server's result
// encoding is json.Marshal's, byte for byte.
func TestEncodeResultIsMarshal(t *testing.T) {
	cols := []Column{{Name: "id", Type: quarry.TypeInt, DBType: "INTEGER"}, {Name: "x <y>", Type: quarry.TypeText}}
	for _, res := range []Result{
		{Columns: cols, Rows: [][]any{}, RowCount: 0},
		{Columns: cols, Rows: nil},
		{Columns: nil, Rows: [][]any{nil, {}}},
		{Columns: cols, Rows: [][]any{
			{int64(1), "plain"}, {nil, "é <&> \"q\" \n"}, {1.5, 1e-9}, {true, false},
			{[]byte{0, 1}, json.RawMessage(`{"k": [1, 2]}`)}, {time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), []any{"a", int64(2)}},
			{quarry.JSONValue(math.Inf(1)), int64(math.MinInt64)},
		}, RowCount: 7, Truncated: true},
	} {
		want, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeResult(&res)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("(-json.Marshal +encodeResult):\n%s", diff)
		}
	}
}
