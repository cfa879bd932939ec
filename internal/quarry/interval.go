package quarry

import (
	"fmt"
	"math"
	"strings"
)

// FormatInterval writes an interval (months, days, microseconds) in ISO
// 8601 duration form, as PostgreSQL's intervalstyle iso_8601 does, for
// every connector: P1Y2M3DT4H5M6.5S, each part with its own sign
// (P-1Y2M), PT0S for zero, seconds exact to the microsecond. Infinite
// intervals (PostgreSQL 17) are "infinity" and "-infinity".
func FormatInterval(months, days int32, us int64) string {
	switch {
	case months == math.MaxInt32 && days == math.MaxInt32 && us == math.MaxInt64:
		return "infinity"
	case months == math.MinInt32 && days == math.MinInt32 && us == math.MinInt64:
		return "-infinity"
	case months == 0 && days == 0 && us == 0:
		return "PT0S"
	}
	var b strings.Builder
	b.WriteByte('P')
	if y := months / 12; y != 0 {
		fmt.Fprintf(&b, "%dY", y)
	}
	if m := months % 12; m != 0 {
		fmt.Fprintf(&b, "%dM", m)
	}
	if days != 0 {
		fmt.Fprintf(&b, "%dD", days)
	}
	if us != 0 {
		b.WriteByte('T')
		h, rest := us/3_600_000_000, us%3_600_000_000
		m, rest := rest/60_000_000, rest%60_000_000
		if h != 0 {
			fmt.Fprintf(&b, "%dH", h)
		}
		if m != 0 {
			fmt.Fprintf(&b, "%dM", m)
		}
		if rest != 0 {
			sec := rest / 1_000_000
			frac := rest % 1_000_000
			if frac < 0 {
				frac = -frac
			}
			if rest < 0 && sec == 0 {
				b.WriteByte('-')
			}
			fmt.Fprintf(&b, "%d", sec)
			if frac != 0 {
				b.WriteString(strings.TrimRight(fmt.Sprintf(".%06d", frac), "0"))
			}
			b.WriteByte('S')
		}
	}
	return b.String()
}
