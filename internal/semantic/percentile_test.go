package semantic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestPercentileRefused(t *testing.T) {
	m := loadModel(t)
	cases := []struct {
		name string
		q    Query
		want string
	}{
		{"a sum", Query{Metrics: []string{"revenue"}, Percentile: 50}, "revenue is not such an average"},
		{"a count", Query{Metrics: []string{"orders"}, Percentile: 50}, "orders is not such an average"},
		{"a derived ratio", Query{Metrics: []string{"average_order_value"}, Percentile: 50}, "average_order_value is not such an average"},
		{"two metrics", Query{Metrics: []string{"pages_per_session", "avg_satisfaction"}, Percentile: 50}, "one metric at a time"},
		{"compared periods", Query{Metrics: []string{"pages_per_session"}, Compare: []Period{jan, feb}, Percentile: 50}, "cannot be compared"},
		{"a share", Query{Metrics: []string{"pages_per_session"}, Dimensions: []DimRef{{Name: "device"}}, Share: true, Percentile: 50}, "cannot be compared across periods, shared"},
		{"a filter on the metric", Query{Metrics: []string{"pages_per_session"}, Filters: []Filter{{Field: "pages_per_session", Op: OpGt, Values: []any{int64(2)}}}, Percentile: 50}, "filtered on a metric"},
		{"percentile 100", Query{Metrics: []string{"pages_per_session"}, Percentile: 100}, "between 1 and 99"},
		{"negative", Query{Metrics: []string{"pages_per_session"}, Percentile: -5}, "between 1 and 99"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err == nil || !strings.Contains(quarry.Message(err), tc.want) {
				t.Errorf("error %v, want one that says %q", err, tc.want)
			}
		})
	}
}

func TestAveragedValue(t *testing.T) {
	cases := []struct {
		expr, derived string
		want          string
		ok            bool
	}{
		{"AVG(t.x)", "", "t.x", true},
		{"avg( (t.a - t.b) * 24 )", "", "(t.a - t.b) * 24", true},
		{"AVG(DISTINCT t.x)", "", "", false},
		{"AVG(t.a) / AVG(t.b)", "", "", false},
		{"SUM(t.x)", "", "", false},
		{"", "{a} / {b}", "", false},
	}
	for _, tc := range cases {
		got, ok := AveragedValue(&Metric{Expr: tc.expr, Derived: tc.derived})
		if got != tc.want || ok != tc.ok {
			t.Errorf("AveragedValue(%q) = %q, %v; want %q, %v", tc.expr, got, ok, tc.want, tc.ok)
		}
	}
	names := map[string]string{}
	for _, n := range []string{"average_resolution_hours", "pages_per_session", "avg_satisfaction", "order_value_avg"} {
		names[n] = PercentileName(n, 50)
	}
	names["p90:pages_per_session"] = PercentileName("pages_per_session", 90)
	want := map[string]string{
		"average_resolution_hours": "median_resolution_hours", "pages_per_session": "median_pages_per_session",
		"avg_satisfaction": "median_satisfaction", "order_value_avg": "median_order_value", "p90:pages_per_session": "p90_pages_per_session",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("PercentileName (-want +got):\n%s", diff)
	}
}
