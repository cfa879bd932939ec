package narrate

import (
	"math"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		f              float64
		format, symbol string
		want           string
	}{
		{1234567.891, FormatCurrency, "$", "$1,234,567.89"},
		{1234567.891, FormatCurrency, "", "1,234,567.89"},
		{-1234.5, FormatCurrency, "$", "-$1,234.50"},
		{-0.001, FormatCurrency, "$", "$0.00"},
		{0.1234, FormatPercent, "", "12.3%"},
		{12.5, FormatPercent, "", "1,250.0%"},
		{-0.05, FormatPercent, "", "-5.0%"},
		{1234.6, FormatInteger, "", "1,235"},
		{999, FormatInteger, "", "999"},
		{1000, FormatNumber, "", "1,000"},
		{1234.5678, FormatNumber, "", "1,234.57"},
		{3.14159, "", "", "3.14"},
		{0.012345, "", "", "0.01235"},
		{0.5, "", "", "0.5"},
		{0, "", "", "0"},
		{-12345678, "", "", "-12,345,678"},
		{1e-14, "", "", "1e-14"},
		{math.NaN(), "", "", "NaN"},
		{math.Inf(-1), FormatCurrency, "$", "-Infinity"},
		// Money held in cents is shown as money (found from outside:
		// "total late fees" shown as 1,447,500 for $14,475.00).
		{1447500, FormatCents, "$", "$14,475.00"},
		{1922135, FormatCents, "", "19,221.35"},
		{1018168.34, FormatCents, "€", "€10,181.68"},
		{-250, FormatCents, "$", "-$2.50"},
		{-0.4, FormatCents, "$", "$0.00"},
	}
	for _, tt := range tests {
		if got := Number(tt.f, tt.format, tt.symbol); got != tt.want {
			t.Errorf("Number(%v, %q, %q) = %q, want %q", tt.f, tt.format, tt.symbol, got, tt.want)
		}
	}
}

func TestValue(t *testing.T) {
	month := ColumnInfo{Name: "m", Role: RoleDimension, Format: FormatDate, Grain: "month"}
	tests := []struct {
		v    any
		c    ColumnInfo
		want string
	}{
		{nil, ColumnInfo{}, "NULL"},
		{"Germany", ColumnInfo{}, "Germany"},
		{int64(1234567), ColumnInfo{}, "1,234,567"},
		{1234.5, ColumnInfo{Format: FormatCurrency}, "$1,234.50"},
		{"1234.5", ColumnInfo{Format: FormatCurrency}, "$1,234.50"},                                 // a decimal as text
		{"123456789012345678901", ColumnInfo{Format: FormatInteger}, "123,456,789,012,345,678,901"}, // beyond float64
		{"-1234", ColumnInfo{Format: FormatNumber}, "-1,234"},
		{"2025-03-01", month, "2025-03"},
		{"2025-03-01", ColumnInfo{Grain: "quarter"}, "2025-Q1"},
		{"2025-08-01 00:00:00", ColumnInfo{Grain: "year"}, "2025"},
		{"2025-03", month, "2025-03"},
		{time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC), ColumnInfo{Grain: "day"}, "2025-03-04"},
		{time.Date(2025, 3, 4, 5, 6, 0, 0, time.UTC), ColumnInfo{}, "2025-03-04 05:06"},
		{true, ColumnInfo{}, "true"},
		{[]byte("ab"), ColumnInfo{}, "ab"},
	}
	for _, tt := range tests {
		if got := Value(tt.v, tt.c, "$"); got != tt.want {
			t.Errorf("Value(%#v, %+v) = %q, want %q", tt.v, tt.c, got, tt.want)
		}
	}
}

func TestLooksLikeDate(t *testing.T) {
	for s, want := range map[string]bool{
		"2025": true, "2025-01": true, "2025-Q3": true, "2025-W07": true, "2025-01-31": true,
		"1234": false, "Germany": false, "2025-Q5": false, "20250": false, "": false,
	} {
		if got := looksLikeDate(s); got != want {
			t.Errorf("looksLikeDate(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestColumnsFrom(t *testing.T) {
	got := ColumnsFrom([]semantic.OutColumn{{Name: "month", Role: semantic.RoleDimension, Format: "date", Grain: "month"}})
	want := []ColumnInfo{{Name: "month", Role: RoleDimension, Format: FormatDate, Grain: "month"}}
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("ColumnsFrom = %+v, want %+v", got, want)
	}
}

// TestNumberRoundsTheDecimalValue checks that figures round half away
// from zero on the decimal value, not on the binary float below it, so
// that the text, the table and the chart agree.
func TestNumberRoundsTheDecimalValue(t *testing.T) {
	for _, c := range []struct {
		f      float64
		format string
		want   string
	}{
		{209829.205, FormatCurrency, "$209,829.21"},
		{2.675, FormatNumber, "2.68"},
		{-1.005, FormatCurrency, "-$1.01"},
		{0.12345, FormatPercent, "12.3%"},
		{0.12355, FormatPercent, "12.4%"},
		{999.995, FormatCurrency, "$1,000.00"},
		{2.5, FormatInteger, "3"},
	} {
		if got := Number(c.f, c.format, "$"); got != c.want {
			t.Errorf("Number(%v, %s) = %q, want %q", c.f, c.format, got, c.want)
		}
	}
}
