package narrate

import "testing"

// TestChangeOfPercents: the change between two percents is in points, to
// one decimal as the percents are written, and never "-0.0".
func TestChangeOfPercents(t *testing.T) {
	m := column{ColumnInfo: ColumnInfo{Name: "conversion_rate", Format: FormatPercent}}
	for _, tt := range []struct {
		from, to float64
		want     string
	}{
		{0.04700, 0.04114, "Change between last year and this year, computed from those cells: -0.6 percentage points."},
		{0.041, 0.047, "Change between last year and this year, computed from those cells: +0.6 percentage points."},
		{0.0410, 0.04104, "Change between last year and this year, computed from those cells: 0.0 percentage points."},
		{0.04104, 0.0410, "Change between last year and this year, computed from those cells: 0.0 percentage points."},
	} {
		if got := (writer{}).change(tt.from, tt.to, m, "last year and this year"); got != tt.want {
			t.Errorf("%v → %v: %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
