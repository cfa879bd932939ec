package demo

import (
	"math"
	"time"
)

// calendar is the demo history: every day from the first day of the month
// 35 months before the anchor's month up to and including the anchor day.
type calendar struct {
	start  time.Time // first day, UTC midnight
	anchor time.Time // last day, UTC midnight
	days   int       // number of days, anchor included
	labels []string  // "YYYY-MM-DD" for each day index
	dip    [2]int    // day indexes [from, to) of the order dip week
}

// newCalendar builds the calendar for an anchor. Only the anchor's year,
// month and day in its own location count.
func newCalendar(anchor time.Time) calendar {
	y, m, d := anchor.Date()
	a := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	start := time.Date(y, m-35, 1, 0, 0, 0, 0, time.UTC)
	n := int(a.Sub(start).Hours()/24+0.5) + 1
	c := calendar{start: start, anchor: a, days: n, labels: make([]string, n)}
	for i := range n {
		c.labels[i] = start.AddDate(0, 0, i).Format(time.DateOnly)
	}
	// The dip: the Monday-to-Sunday week that holds the day ten weeks
	// before the anchor.
	ten := n - 1 - 70
	wd := (int(c.date(ten).Weekday()) + 6) % 7 // Monday = 0
	c.dip = [2]int{ten - wd, ten - wd + 7}
	return c
}

// date returns the date of day index i.
func (c calendar) date(i int) time.Time { return c.start.AddDate(0, 0, i) }

// index returns the day index of t (which may lie outside the calendar).
func (c calendar) index(t time.Time) int {
	y, m, d := t.Date()
	u := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return int(math.Floor(u.Sub(c.start).Hours()/24 + 0.5))
}

// label formats any day index as "YYYY-MM-DD", also outside the calendar.
func (c calendar) label(i int) string {
	if i >= 0 && i < c.days {
		return c.labels[i]
	}
	return c.date(i).Format(time.DateOnly)
}

// inDip reports whether day i lies in the order dip week.
func (c calendar) inDip(i int) bool { return i >= c.dip[0] && i < c.dip[1] }

// progress is the position of day i in the history, 0 at the start and 1 at
// the anchor.
func (c calendar) progress(i int) float64 {
	if c.days <= 1 {
		return 1
	}
	return float64(i) / float64(c.days-1)
}

// seasonal is the month-of-year factor: a November–December peak and a
// quiet January–February.
func seasonal(m time.Month) float64 {
	switch m {
	case time.January, time.February:
		return 0.85
	case time.March, time.April, time.July, time.August:
		return 0.95
	case time.October:
		return 1.05
	case time.November:
		return 1.45
	case time.December:
		return 1.6
	default:
		return 1
	}
}

// dayShape describes how a kind of activity varies over days.
type dayShape struct {
	growth  float64    // total growth over the history: the anchor day weighs 1+growth times the first
	weekday [7]float64 // factor per time.Weekday (Sunday = 0)
	season  bool       // apply the November–December peak
	dip     float64    // factor in the dip week (0 means none)
	noise   float64    // relative day-to-day noise
}

// weight is the expected relative activity on day i.
func (c calendar) weight(i int, s dayShape, noise float64) float64 {
	d := c.date(i)
	w := 1 + s.growth*c.progress(i)
	w *= s.weekday[d.Weekday()]
	if s.season {
		w *= seasonal(d.Month())
		if d.Month() == time.November && d.Weekday() == time.Friday && d.Day() >= 23 && d.Day() <= 29 {
			w *= 2.2 // the day after the fourth Thursday
		}
		if d.Month() == time.December && d.Day() == 25 {
			w *= 0.5
		}
	}
	if s.dip > 0 && c.inDip(i) {
		w *= s.dip
	}
	return w * (1 + s.noise*noise)
}

// spread distributes total events over the days in proportion to weights,
// by largest remainder, so the sum is exactly total.
func spread(weights []float64, total int) []int {
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	counts := make([]int, len(weights))
	if sum <= 0 || total <= 0 {
		return counts
	}
	rem := make([]float64, len(weights))
	given := 0
	for i, w := range weights {
		x := w / sum * float64(total)
		counts[i] = int(x)
		rem[i] = x - float64(counts[i])
		given += counts[i]
	}
	for given < total {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		counts[best]++
		rem[best] = -1
		given++
	}
	return counts
}

// appendTimestamp appends "YYYY-MM-DD HH:MM:SS" for day i and a second of
// the day to b.
func (c calendar) appendTimestamp(b []byte, i, sec int) []byte {
	b = append(b, c.label(i)...)
	b = append(b, ' ')
	b = append2(b, sec/3600)
	b = append(b, ':')
	b = append2(b, sec/60%60)
	b = append(b, ':')
	return append2(b, sec%60)
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
