package knowledge

import (
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// spanSample is the fewest sampled rows with both dates of a start and
// an end that say how long the span between them runs.
const spanSample = 20

// instant reads a sampled value as a moment: a time the driver gives,
// or text written as an ISO date or date and time.
func instant(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case string:
		s := strings.TrimSpace(x)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", time.DateOnly} {
			if t, err := time.Parse(layout, s); err == nil {
				return t, true
			}
		}
	case []byte:
		return instant(string(x))
	}
	return time.Time{}, false
}

// spanCounter counts, for each two sampled date columns, the rows that
// hold both and those where the second comes less than a day after the
// first.
type spanCounter struct {
	both, sameDay [][]int
}

func newSpanCounter(n int) *spanCounter {
	s := &spanCounter{both: make([][]int, n), sameDay: make([][]int, n)}
	for i := range n {
		s.both[i], s.sameDay[i] = make([]int, n), make([]int, n)
	}
	return s
}

// row counts one sampled row's moments (ok false where a column holds
// none).
func (s *spanCounter) row(at []time.Time, ok []bool) {
	for i := range at {
		for j := range at {
			if i == j || !ok[i] || !ok[j] {
				continue
			}
			s.both[i][j]++
			if d := at[i].Sub(at[j]); d >= 0 && d < 24*time.Hour {
				s.sameDay[i][j]++
			}
		}
	}
}

// shares is, for column i, the share of rows holding both where i came
// less than a day after each other column, by that column's name; only
// over spanSample rows or more.
func (s *spanCounter) shares(i int, names []string) map[string]float64 {
	var out map[string]float64
	for j, n := range s.both[i] {
		if j == i || n < spanSample {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[names[j]] = float64(s.sameDay[i][j]) / float64(n)
	}
	return out
}

// shortSpans makes a table's start and end, where nearly every sampled
// end comes less than a day after its start (a trip's started_at and
// ended_at, a call's), the times of an event: such a row is a thing that
// happened then, not a state held from one to the other, as a
// membership's or a lease's are. Counted in a period ("how many trips
// last month") they are the trips of it (found from outside, on a bike
// share: every count of trips in a period refused for want of "new", and
// asked whether only trips not ended yet were meant).
func shortSpans(e *semantic.Entity, stats map[string]labelStats) {
	start, end := -1, -1
	for i, c := range e.Columns {
		switch c.TimeRole {
		case semantic.TimeRoleStart:
			if start >= 0 {
				return
			}
			start = i
		case semantic.TimeRoleEnd:
			if end >= 0 {
				return
			}
			end = i
		}
	}
	if start < 0 || end < 0 {
		return
	}
	if st, ok := stats[e.Columns[end].Name]; !ok || st.sameDay[e.Columns[start].Name] < 0.9 {
		return
	}
	e.Columns[start].TimeRole, e.Columns[end].TimeRole = semantic.TimeRoleEvent, semantic.TimeRoleEvent
}
