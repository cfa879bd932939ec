package narrate

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestChooseChart(t *testing.T) {
	text, num, integer := quarry.TypeText, quarry.TypeFloat, quarry.TypeInt
	tbl := func(cols []quarry.Column, rows ...[]any) *quarry.Table {
		return &quarry.Table{Columns: cols, Rows: rows}
	}
	c := func(name string, typ quarry.Type) quarry.Column { return quarry.Column{Name: name, Type: typ} }
	var many [][]any
	for i := range MaxBars + 1 {
		many = append(many, []any{fmt.Sprintf("c%d", i), float64(i)})
	}
	tests := []struct {
		name  string
		t     *quarry.Table
		infos []ColumnInfo
		want  ChartSpec
	}{
		{"nil", nil, nil, ChartSpec{}},
		{"empty", tbl([]quarry.Column{c("n", num)}), nil, ChartSpec{}},
		{"figure", tbl([]quarry.Column{c("revenue", num)}, []any{12.5}),
			[]ColumnInfo{{Name: "revenue", Role: RoleMetric, Format: FormatCurrency}},
			ChartSpec{Kind: ChartFigure, Title: "T", Y: "revenue", Format: FormatCurrency, Series: []Series{{Name: "revenue", Values: []float64{12.5}}}}},
		{"figure with its label", tbl([]quarry.Column{c("country", text), c("revenue", num)}, []any{"Germany", 12.5}), nil,
			ChartSpec{Kind: ChartFigure, Title: "T", X: "country", Y: "revenue", Format: FormatNumber, Labels: []string{"Germany"}, Series: []Series{{Name: "revenue", Values: []float64{12.5}}}}},
		{"one row, two numbers", tbl([]quarry.Column{c("a", num), c("b", num)}, []any{1.0, 2.0}), nil, ChartSpec{}},
		{"bar in the given order, NULL left out", tbl([]quarry.Column{c("country", text), c("orders", integer)},
			[]any{"b", int64(1)}, []any{"a", int64(5)}, []any{"c", nil}), nil,
			ChartSpec{Kind: ChartBar, Title: "T", X: "country", Y: "orders", Format: FormatInteger, Labels: []string{"b", "a"}, Series: []Series{{Name: "orders", Values: []float64{1, 5}}}}},
		{"share preferred", tbl([]quarry.Column{c("channel", text), c("revenue", num), c("revenue_share", num)},
			[]any{"web", 6.0, 0.6}, []any{"store", 4.0, 0.4}),
			[]ColumnInfo{{Name: "channel", Role: RoleDimension}, {Name: "revenue", Role: RoleMetric}, {Name: "revenue_share", Role: RoleShare}},
			ChartSpec{Kind: ChartBar, Title: "T", X: "channel", Y: "revenue share", Format: FormatPercent, Labels: []string{"web", "store"}, Series: []Series{{Name: "revenue_share", Values: []float64{0.6, 0.4}}}}},
		{"too many bars", tbl([]quarry.Column{c("k", text), c("v", num)}, many...), nil, ChartSpec{}},
		{"line from a grain", tbl([]quarry.Column{c("month", text), c("revenue", num), c("orders", num)},
			[]any{"2025-01-01", 1.0, 3.0}, []any{"2025-02-01", 2.0, 4.0}),
			[]ColumnInfo{{Name: "month", Role: RoleDimension, Grain: "month", Format: FormatDate}, {Name: "revenue", Role: RoleMetric, Format: FormatCurrency}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}},
			ChartSpec{Kind: ChartLine, Title: "T", X: "month", Y: "revenue", Format: FormatCurrency, Labels: []string{"2025-01", "2025-02"}, Series: []Series{{Name: "revenue", Values: []float64{1, 2}}}}},
		{"line from date-like text without roles", tbl([]quarry.Column{c("day", text), c("n", integer)},
			[]any{"2025-01-01", int64(1)}, []any{"2025-01-02", int64(2)}), nil,
			ChartSpec{Kind: ChartLine, Title: "T", X: "day", Y: "n", Format: FormatInteger, Labels: []string{"2025-01-01", "2025-01-02"}, Series: []Series{{Name: "n", Values: []float64{1, 2}}}}},
		{"line per category", tbl([]quarry.Column{c("q", quarry.TypeDate), c("ch", text), c("n", integer)},
			[]any{"2025-01-01", "a", int64(1)}, []any{"2025-01-01", "b", int64(2)}, []any{"2025-04-01", "a", int64(3)}, []any{"2025-04-01", "b", int64(4)}),
			[]ColumnInfo{{Name: "q", Role: RoleDimension, Grain: "quarter"}},
			ChartSpec{Kind: ChartLine, Title: "T", X: "q", Y: "n", Format: FormatInteger, Labels: []string{"2025-Q1", "2025-Q2"},
				Series: []Series{{Name: "a", Values: []float64{1, 3}}, {Name: "b", Values: []float64{2, 4}}}}},
		{"line per category with a gap", tbl([]quarry.Column{c("q", quarry.TypeDate), c("ch", text), c("n", integer)},
			[]any{"2025-01-01", "a", int64(1)}, []any{"2025-01-01", "b", int64(2)}, []any{"2025-04-01", "a", int64(3)}), nil, ChartSpec{}},
		{"compared periods are bars", tbl([]quarry.Column{c("period", text), c("revenue", num)}, []any{"January", 1.0}, []any{"February", 2.0}),
			[]ColumnInfo{{Name: "period", Role: RolePeriod}, {Name: "revenue", Role: RoleMetric}},
			ChartSpec{Kind: ChartBar, Title: "T", X: "period", Y: "revenue", Format: FormatNumber, Labels: []string{"January", "February"}, Series: []Series{{Name: "revenue", Values: []float64{1, 2}}}}},
		{"compared periods by channel", tbl([]quarry.Column{c("period", text), c("channel", text), c("n", integer)},
			[]any{"Jan", "web", int64(1)}, []any{"Jan", "store", int64(2)}, []any{"Feb", "web", int64(3)}, []any{"Feb", "store", int64(4)}),
			[]ColumnInfo{{Name: "period", Role: RolePeriod}, {Name: "channel", Role: RoleDimension}, {Name: "n", Role: RoleMetric, Format: FormatInteger}},
			ChartSpec{Kind: ChartBar, Title: "T", X: "channel", Y: "n", Format: FormatInteger, Labels: []string{"web", "store"},
				Series: []Series{{Name: "Jan", Values: []float64{1, 2}}, {Name: "Feb", Values: []float64{3, 4}}}}},
		{"scatter", tbl([]quarry.Column{c("x", num), c("y", integer)}, []any{1.0, int64(2)}, []any{3.0, nil}, []any{5.0, int64(6)}), nil,
			ChartSpec{Kind: ChartScatter, Title: "T", X: "x", Y: "y", Format: FormatInteger, Series: []Series{{Name: "x", Values: []float64{1, 5}}, {Name: "y", Values: []float64{2, 6}}}}},
		{"three numbers", tbl([]quarry.Column{c("a", num), c("b", num), c("c", num)}, []any{1.0, 2.0, 3.0}, []any{1.0, 2.0, 3.0}), nil, ChartSpec{}},
		{"text only", tbl([]quarry.Column{c("a", text)}, []any{"x"}, []any{"y"}), nil, ChartSpec{}},
		{"three dimensions", tbl([]quarry.Column{c("a", text), c("b", text), c("d", text), c("n", num)}, []any{"x", "y", "z", 1.0}, []any{"x", "y", "w", 1.0}), nil, ChartSpec{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ChooseChart(tt.t, tt.infos, "T")
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ChooseChart mismatch (-want +got):\n%s", d)
			}
		})
	}
}
