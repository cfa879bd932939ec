package chart

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/narrate"
)

func flagString(name, value, usage string) *string { return flag.String(name, value, usage) }

// specs has one chart of each kind, and the awkward cases.
func specs() map[string]narrate.ChartSpec {
	return map[string]narrate.ChartSpec{
		"bar": {Kind: narrate.ChartBar, Title: "Revenue by country in 2025", X: "country", Y: "revenue", Format: narrate.FormatCurrency, Currency: "$",
			Labels: []string{"Germany", "France", "Spain", "Italy", "United Kingdom of Great Britain", "Poland"},
			Series: []narrate.Series{{Name: "revenue", Values: []float64{412345.5, 300100.25, 210000, 99000.1, 45000, 500}}}},
		"bar_grouped": {Kind: narrate.ChartBar, Title: "Orders by channel", X: "channel", Y: "orders", Format: narrate.FormatInteger,
			Labels: []string{"store", "web"},
			Series: []narrate.Series{{Name: "January 2025", Values: []float64{120, 300}}, {Name: "February 2025", Values: []float64{110, 340}}}},
		"line": {Kind: narrate.ChartLine, Title: "Revenue by month in 2025", X: "month", Y: "revenue", Format: narrate.FormatCurrency, Currency: "$",
			Labels: []string{"2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12"},
			Series: []narrate.Series{{Name: "revenue", Values: []float64{81000, 79500.5, 90210, 95000, 101000, 99000, 120500.75, 118000, 110000, 105000, 112000, 130250}}}},
		"line_series": {Kind: narrate.ChartLine, Title: "Orders by quarter and channel", X: "quarter", Y: "orders", Format: narrate.FormatInteger,
			Labels: []string{"2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"},
			Series: []narrate.Series{{Name: "store", Values: []float64{120, 110, 90, 95}}, {Name: "web", Values: []float64{300, 340, 390, 450}}}},
		"line_percent": {Kind: narrate.ChartLine, Title: "Conversion rate by week", X: "week", Y: "conversion rate", Format: narrate.FormatPercent,
			Labels: []string{"2025-01-06", "2025-01-13", "2025-01-20", "2025-01-27", "2025-02-03", "2025-02-10"},
			Series: []narrate.Series{{Name: "conversion_rate", Values: []float64{0.031, 0.034, 0.029, 0.036, 0.041, 0.038}}}},
		"line_daily": dailySpec(),
		"bar_many":   manyBarsSpec(),
		"figure": {Kind: narrate.ChartFigure, Title: "Revenue in 2025", Y: "revenue", Format: narrate.FormatCurrency, Currency: "$",
			Series: []narrate.Series{{Name: "revenue", Values: []float64{1234567.891}}}},
		"scatter": {Kind: narrate.ChartScatter, Title: "Unit price and quantity", X: "unit price", Y: "quantity", Format: narrate.FormatInteger,
			Series: []narrate.Series{{Name: "unit_price", Values: []float64{9.99, 19.5, 4.25, 120, 55, 72.5, 31}},
				{Name: "quantity", Values: []float64{3, 1, 7, 1, 2, 2, 4}}}},
	}
}

func TestRenderTerminalGolden(t *testing.T) {
	for name, spec := range specs() {
		t.Run(name, func(t *testing.T) {
			for _, w := range []int{80, 40} {
				got := RenderTerminal(spec, w)
				for i, line := range splitLines(got) {
					if n := width(line); n > w {
						t.Errorf("width %d: line %d is %d wide: %q", w, i, n, line)
					}
				}
				goldentest.Assert(t, filepath.Join("testdata", "terminal", name+"."+itoa(w)+".golden"), []byte(got))
			}
		})
	}
}

func TestRenderTerminalNone(t *testing.T) {
	for _, spec := range []narrate.ChartSpec{{}, {Kind: narrate.ChartBar}, {Kind: "pie", Series: []narrate.Series{{Values: []float64{1}}}}} {
		if got := RenderTerminal(spec, 80); got != "" {
			t.Errorf("RenderTerminal(%+v) = %q, want nothing", spec, got)
		}
	}
}

func TestBar(t *testing.T) {
	tests := []struct {
		v, top float64
		cells  int
		want   string
	}{
		{10, 10, 4, "████"},
		{5, 10, 4, "██"},
		{1, 10, 4, "▍"},    // 3.2 eighths → 3
		{0.01, 10, 4, "▏"}, // never invisible
		{0, 10, 4, ""},
		{-3, 10, 4, ""},
		{7.5, 10, 1, "▊"},
	}
	for _, tt := range tests {
		if got := bar(tt.v, tt.top, tt.cells); got != tt.want {
			t.Errorf("bar(%v, %v, %d) = %q, want %q", tt.v, tt.top, tt.cells, got, tt.want)
		}
	}
}

func TestCompact(t *testing.T) {
	tests := []struct {
		v              float64
		format, symbol string
		want           string
	}{
		{1260000, narrate.FormatCurrency, "$", "$1.3M"},
		{12500, "", "", "12.5K"},
		{9999, "", "", "9999"},
		{0.25, narrate.FormatPercent, "", "25%"},
		{-2e9, "", "", "-2B"},
		{0.0123, "", "", "0.012"},
		{3.5, "", "", "3.5"},
		{0, narrate.FormatCurrency, "€", "€0"},
		{126000000, narrate.FormatCents, "$", "$1.3M"},
		{1250, narrate.FormatCents, "£", "£12.5"},
		// A round tick is never misstated, and rounding is on the
		// decimal value, as in the answer's text and table.
		{1250000, "", "", "1.25M"},
		{0.0025, narrate.FormatPercent, "", "0.25%"},
		{-0.125, narrate.FormatPercent, "", "-12.5%"},
		{1234567, "", "", "1.2M"},
		{2.675, "", "", "2.68"},
		{0.0125, "", "", "0.013"},
		{0.00001, "", "", "0.00001"},
		{-0.0001, narrate.FormatPercent, "", "0%"},
	}
	for _, tt := range tests {
		if got := compact(tt.v, tt.format, tt.symbol); got != tt.want {
			t.Errorf("compact(%v, %q) = %q, want %q", tt.v, tt.format, got, tt.want)
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// dailySpec is 60 days of sessions: more labels than fit on an axis.
func dailySpec() narrate.ChartSpec {
	spec := narrate.ChartSpec{Kind: narrate.ChartLine, Title: "Sessions by day, last 60 days", X: "day", Y: "sessions", Format: narrate.FormatInteger}
	s := narrate.Series{Name: "sessions"}
	for i := range 60 {
		day := 1 + i%30
		month := 3 + i/30
		spec.Labels = append(spec.Labels, "2025-0"+itoa(month)+"-"+pad2(day))
		s.Values = append(s.Values, float64(400+(i*37)%120+i*3))
	}
	spec.Series = []narrate.Series{s}
	return spec
}

// manyBarsSpec is 25 categories with long names.
func manyBarsSpec() narrate.ChartSpec {
	spec := narrate.ChartSpec{Kind: narrate.ChartBar, Title: "Items sold by product", X: "product", Y: "items sold", Format: narrate.FormatInteger}
	s := narrate.Series{Name: "items_sold"}
	for i := range 25 {
		spec.Labels = append(spec.Labels, "Product with a long name "+itoa(i+1))
		s.Values = append(s.Values, float64(5000-i*180))
	}
	spec.Series = []narrate.Series{s}
	return spec
}

func pad2(n int) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}
