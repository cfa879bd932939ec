package semantic

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDimRefReadsANameAlone: a model may write a dimension as its name
// ("customers.email") rather than an object; both read the same (found
// from outside: the run ended on a Go unmarshalling error).
func TestDimRefReadsANameAlone(t *testing.T) {
	var q Query
	if err := json.Unmarshal([]byte(`{"metrics":["orders"],"dimensions":["channel",{"name":"time","grain":"month"}]}`), &q); err != nil {
		t.Fatal(err)
	}
	want := []DimRef{{Name: "channel"}, {Name: "time", Grain: GrainMonth}}
	if diff := cmp.Diff(want, q.Dimensions); diff != "" {
		t.Errorf("dimensions (-want +got):\n%s", diff)
	}
	if err := json.Unmarshal([]byte(`{"dimensions":[3]}`), &q); err == nil {
		t.Error("a number read as a dimension")
	}
}
