package demo

import (
	"context"
	"math"
	"slices"

	"github.com/ncruces/go-sqlite3"
)

type plan struct {
	name  string
	price float64
}

func plans() []plan { return []plan{{"Basic", 4.99}, {"Plus", 9.99}, {"Premium", 19.99}} }

func (g *generator) writePlans(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	ins, err := prepareInsert(db, "plans", 3)
	if err != nil {
		return nil, err
	}
	for i, p := range plans() {
		ins.int(int64(i + 1))
		ins.text(p.name)
		ins.float(p.price)
		if err := ins.done(); err != nil {
			return nil, err
		}
	}
	return []int64{ins.rows}, ins.close()
}

type subscription struct {
	customer   int64
	plan       int64
	start, end int // day indexes; end < 0 when it has not ended
	status     string
}

// writeSubscriptions: members join some time after signing up, cheaper
// plans churn faster, and some cancelled members come back on another plan.
// Only cancelled subscriptions have an end date; active and paused ones run
// on.
func (g *generator) writeSubscriptions(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partSubscriptions)
	cal := g.cal
	planPick := newPicker([]float64{0.5, 0.35, 0.15})
	meanLife := []float64{420, 600, 800}
	var subs []subscription
	for _, ci := range r.Perm(len(g.customers)) {
		if len(subs) >= nSubscriptions {
			break
		}
		start := g.customers[ci].signup + int(r.ExpFloat64()*120)
		for start < cal.days && len(subs) < nSubscriptions {
			s := subscription{customer: int64(ci + 1), plan: int64(planPick.pick(r) + 1), start: start, end: -1}
			life := 30 + int(r.ExpFloat64()*meanLife[s.plan-1])
			switch {
			case start+life < cal.days:
				s.end, s.status = start+life, "cancelled"
			case chance(r, 0.1):
				s.status = "paused"
			default:
				s.status = "active"
			}
			subs = append(subs, s)
			if s.end < 0 || !chance(r, 0.25) {
				break
			}
			start = s.end + 1 + int(math.Min(r.ExpFloat64()*40, 300))
		}
	}
	slices.SortStableFunc(subs, func(a, b subscription) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return int(a.customer - b.customer)
	})

	ins, err := prepareInsert(db, "subscriptions", 6)
	if err != nil {
		return nil, err
	}
	for i, s := range subs {
		ins.int(int64(i + 1))
		ins.int(s.customer)
		ins.int(s.plan)
		ins.text(cal.label(s.start))
		if s.end >= 0 {
			ins.text(cal.label(s.end))
		} else {
			ins.null()
		}
		ins.text(s.status)
		if err := ins.done(); err != nil {
			return nil, err
		}
	}
	return []int64{ins.rows}, ins.close()
}
