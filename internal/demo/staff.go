package demo

import (
	"context"
	"math"

	"github.com/ncruces/go-sqlite3"
)

// writeEmployees writes the company: a chief executive, department heads
// reporting to them, and each position reporting to the holders of the
// position above it in the department, in turn.
func (g *generator) writeEmployees(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partEmployees)
	cal := g.cal
	ins, err := prepareInsert(db, "employees", 7)
	if err != nil {
		return nil, err
	}
	var ceo int64
	for _, d := range departments {
		holders := make([][]int64, len(d.positions)) // ids per position
		for pi, p := range d.positions {
			for k := range p.n {
				id := int64(len(g.employees) + 1)
				holders[pi] = append(holders[pi], id)
				var manager int64
				switch {
				case p.reportsTo >= 0:
					above := holders[p.reportsTo]
					manager = above[k%len(above)]
				case ceo != 0:
					manager = ceo
				default:
					ceo = id
				}
				// Leaders joined early; everyone else over the years.
				hired := r.IntN(min(60, cal.days))
				if p.reportsTo >= 0 {
					hired = r.IntN(max(1, cal.days-30))
				}
				salary := math.Round(between(r, p.salary[0], p.salary[1])/500) * 500
				first := firstNames[r.IntN(len(firstNames))]
				last := lastNames[r.IntN(len(lastNames))]
				g.employees = append(g.employees, employee{
					dept:    d.name,
					support: d.name == "Customer Support" && pi > 0,
					eng:     d.name == "Engineering" && pi > 0,
				})
				ins.int(id)
				ins.text(first + " " + last)
				ins.text(p.title)
				ins.text(d.name)
				ins.optInt(manager, manager != 0)
				ins.text(cal.label(hired))
				ins.float(salary)
				if err := ins.done(); err != nil {
					return nil, err
				}
			}
		}
	}
	return []int64{ins.rows}, ins.close()
}

// writeTickets: tickets follow the customer base and the year-end rush, are
// fewer at weekends, and are resolved faster the more urgent they are;
// recent ones are still open, and a few old ones were never closed.
func (g *generator) writeTickets(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partTickets)
	cal := g.cal
	shape := dayShape{growth: 1.4, weekday: [7]float64{0.55, 1.1, 1.05, 1.0, 1.0, 0.95, 0.6}, season: true, noise: 0.12}
	perDay := g.dayCounts(r, shape, nTickets)
	hours := officeHours()
	catPick := newPicker(weightsOf(ticketCategories, func(c weighted) float64 { return c.weight }))
	priorities := []string{"low", "normal", "high", "urgent"}
	prioPick := newPicker([]float64{0.30, 0.45, 0.18, 0.07})
	meanHours := []float64{96, 48, 20, 6}
	var agents, engineers []int64
	for i, e := range g.employees {
		if e.support {
			agents = append(agents, int64(i+1))
		}
		if e.eng {
			engineers = append(engineers, int64(i+1))
		}
	}
	end := int64(cal.days) * 86400 // the first second after the anchor day

	ins, err := prepareInsert(db, "support_tickets", 8)
	if err != nil {
		return nil, err
	}
	var ts []byte
	for day, n := range perDay {
		for _, sec := range secondsOfDay(r, hours, n) {
			cat := ticketCategories[catPick.pick(r)].name
			prio := prioPick.pick(r)
			opened := int64(day)*86400 + int64(sec)
			resolve := int64((0.5 + r.ExpFloat64()) * meanHours[prio] * 3600)
			closed := opened + resolve
			open := closed >= end || chance(r, 0.006)
			var assignee int64
			switch {
			case open && chance(r, 0.4), !open && chance(r, 0.03):
				// unassigned
			case cat == "Technical issue" && chance(r, 0.4):
				assignee = engineers[r.IntN(len(engineers))]
			default:
				assignee = agents[r.IntN(len(agents))]
			}
			ins.int(ins.rows + 1)
			ins.int(g.customerOn(r, day))
			ins.optInt(assignee, assignee != 0)
			ts = cal.appendTimestamp(ts[:0], day, sec)
			ins.raw(ts)
			if open {
				ins.null()
			} else {
				ts = cal.appendTimestamp(ts[:0], int(closed/86400), int(closed%86400))
				ins.raw(ts)
			}
			ins.text(priorities[prio])
			ins.text(cat)
			// About half of the closed tickets got a rating; slow ones
			// rate worse.
			if !open && chance(r, 0.55) {
				slow := float64(resolve) / (meanHours[prio] * 3600)
				score := 5 - int(math.Round((slow-0.5)*1.2+r.NormFloat64()*0.8))
				ins.int(int64(min(5, max(1, score))))
			} else {
				ins.null()
			}
			if err := ins.done(); err != nil {
				return nil, err
			}
		}
	}
	return []int64{ins.rows}, ins.close()
}
