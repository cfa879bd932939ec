package planner

import (
	"fmt"
	"strings"
)

// nestedPeriods refuses a period named inside another ("the last week of
// May 2026", "the first quarter of 2025", "the last day of May"), which
// the date phrases read as two periods to compare: answered, it set May
// against last week.
func (b *builder) nestedPeriods() *Plan {
	ds := b.st.dates
	for i := 1; i < len(ds); i++ {
		a, c := ds[i-1], ds[i]
		if a.End > c.Start || c.Start > len(b.st.raw) {
			continue
		}
		if between := strings.ToLower(strings.TrimSpace(b.st.raw[a.End:c.Start])); between == "of" || between == "of the" || between == "in" {
			return b.fail(fmt.Sprintf("quarry reads %q as two periods, not one inside the other; ask for its first and last day (“from YYYY-MM-DD to YYYY-MM-DD”) or for the whole period", b.st.raw[a.Start:c.End]))
		}
	}
	return nil
}
