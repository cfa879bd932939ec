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

// TestSpelledGroups: a grouping's spellings of one value are one group,
// named by the first, in the SELECT and the GROUP BY alike; a group of
// values that are not one value, or of one, is refused.
func TestSpelledGroups(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	if err := conn.Exec(`INSERT INTO orders (id, customer_id, ordered_at, status, channel) VALUES (901, 1, '2025-03-01', 'completed', 'Web'), (902, 1, '2025-03-02', 'completed', 'WEB ')`); err != nil {
		t.Fatal(err)
	}
	q := Query{Metrics: []string{"orders"}, Dimensions: []DimRef{{Name: "channel", Spellings: [][]string{{"web", "WEB ", "Web"}}}}}
	sameAsHand(t, m, conn, q,
		"SELECT CASE WHEN channel IN ('web', 'WEB ', 'Web') THEN 'web' ELSE channel END AS c, count(*) FROM orders GROUP BY c ORDER BY c",
		"CASE WHEN orders.channel IN ('web', 'WEB ', 'Web') THEN 'web' ELSE orders.channel END")
	for _, bad := range [][]string{{"web", "store"}, {"web"}} {
		q.Dimensions[0].Spellings = [][]string{bad}
		if _, err := Compile(m, q, "sqlite"); err == nil {
			t.Errorf("spellings %q compiled", bad)
		}
	}
}
