package demo

import (
	"context"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// sessionShape: visits grow with the business, peak at the year end and
// rise at weekends, but, unlike orders, do not dip: the dip week is a
// checkout incident that shows as a drop in conversion.
func sessionShape() dayShape {
	return dayShape{
		growth:  1.0,
		weekday: [7]float64{1.15, 1.05, 1.0, 0.98, 0.98, 0.95, 1.12},
		season:  true,
		noise:   0.06,
	}
}

func sessionSources() []weighted {
	return []weighted{{"organic", 38}, {"ads", 24}, {"email", 12}, {"referral", 9}, {"social", 17}}
}

// conversionBySource is the base conversion of a session with more than
// one page view, in the order of sessionSources.
func conversionBySource() []float64 { return []float64{0.045, 0.05, 0.09, 0.08, 0.025} }

func (g *generator) writeSessions(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partSessions)
	cal := g.cal
	perDay := g.dayCounts(r, sessionShape(), nSessions)
	hours := shoppingHours()
	sources := sessionSources()
	srcPick := newPicker(weightsOf(sources, func(s weighted) float64 { return s.weight }))
	conv := conversionBySource()
	devices := []string{"desktop", "mobile", "tablet"}
	deviceConv := []float64{1.2, 0.8, 1.0}

	ins, err := prepareInsert(db, "web_sessions", 7)
	if err != nil {
		return nil, err
	}
	var ts []byte
	for day, n := range perDay {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := cal.progress(day)
		m := cal.date(day).Month()
		for _, sec := range secondsOfDay(r, hours, n) {
			src := srcPick.pick(r)
			known := 0.45
			if sources[src].name == "email" {
				known = 0.9
			}
			var cust int64
			if chance(r, known) {
				cust = g.customerOn(r, day)
			}
			dev := 0 // desktop
			switch x := r.Float64(); {
			case x < 0.38+0.17*t:
				dev = 1
			case x < 0.46+0.17*t:
				dev = 2
			}
			pages := int64(1)
			if !chance(r, 0.35) {
				pages = 2 + int64(r.ExpFloat64()*3.5)
			}
			p := 0.0
			if pages > 1 {
				p = conv[src] * deviceConv[dev] * min(2, 0.7+float64(pages)*0.08)
				if cust != 0 {
					p *= 1.4
				}
				if m == time.November || m == time.December {
					p *= 1.2
				}
				if cal.inDip(day) {
					p *= 0.35
				}
			}
			ins.int(ins.rows + 1)
			ins.optInt(cust, cust != 0)
			ts = cal.appendTimestamp(ts[:0], day, sec)
			ins.raw(ts)
			ins.text(sources[src].name)
			ins.text(devices[dev])
			ins.int(pages)
			ins.int(b2i(chance(r, p)))
			if err := ins.done(); err != nil {
				return nil, err
			}
		}
	}
	return []int64{ins.rows}, ins.close()
}
