package demo

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// orderShape: growth, the year-end peak, busier weekends and the dip week
// (a checkout incident about ten weeks before the anchor).
func orderShape() dayShape {
	return dayShape{
		growth:  1.2,
		weekday: [7]float64{1.3, 1.0, 0.97, 0.97, 1.0, 1.05, 1.25},
		season:  true,
		dip:     0.4,
		noise:   0.08,
	}
}

// itemsPerOrder is the distribution of line counts, 1 to 6, mean 2.5.
func itemsPerOrder() picker { return newPicker([]float64{0.28, 0.30, 0.20, 0.12, 0.06, 0.04}) }

// codeRate is the item discount a discount code gives.
func codeRate(code string) float64 {
	switch code {
	case "WELCOME10", "SUMMER10":
		return 0.10
	case "SPRING15", "HOLIDAY15":
		return 0.15
	case "VIP20":
		return 0.20
	case "BLACKFRIDAY25":
		return 0.25
	}
	return 0 // no code, or FREESHIP
}

func (g *generator) writeOrders(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partOrders)
	cal := g.cal
	perDay := g.dayCounts(r, orderShape(), nOrders)
	hours := shoppingHours()
	lines := itemsPerOrder()
	ordered := make([]bool, len(g.customers)) // has placed an order before

	orders, err := prepareInsert(db, "orders", 6)
	if err != nil {
		return nil, err
	}
	items, err := prepareInsert(db, "order_items", 6)
	if err != nil {
		return nil, err
	}
	var ts []byte
	picked := make([]int, 0, 8)
	for day, n := range perDay {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := cal.date(day)
		age := cal.days - 1 - day // days before the anchor
		t := cal.progress(day)
		for _, sec := range secondsOfDay(r, hours, n) {
			cust := g.customerOn(r, day)
			c := g.customers[cust-1]
			first := !ordered[cust-1]
			ordered[cust-1] = true

			status := orderStatus(r, age, cal.inDip(day))
			channel := "web"
			weekend := d.Weekday() == time.Saturday || d.Weekday() == time.Sunday
			switch x := r.Float64(); {
			case x < 0.22+0.16*t:
				channel = "mobile"
			case x < 0.22+0.16*t+0.14+b2f(weekend)*0.06:
				channel = "store"
			}
			code := discountCode(r, d, first, c.segment == "business")

			orders.int(int64(orders.rows + 1))
			orders.int(cust)
			ts = cal.appendTimestamp(ts[:0], day, sec)
			orders.raw(ts)
			orders.text(status)
			orders.text(channel)
			orders.optText(code)
			if err := orders.done(); err != nil {
				return nil, err
			}
			orderID := orders.rows

			picked = picked[:0]
			for range lines.pick(r) + 1 {
				pi, ok := g.productOn(r, day, picked)
				if !ok {
					break
				}
				picked = append(picked, pi)
				p := g.products[pi]
				qty := int64(1)
				switch x := r.Float64(); {
				case p.byTheDozen && x < 0.5:
					qty = 2 + r.Int64N(5)
				case x < 0.18:
					qty = 2
				case x < 0.24:
					qty = 3 + r.Int64N(2)
				}
				// Prices rose about 3% a year: the price at the time.
				years := float64(age) / 365.25
				price := round2(p.price / (1 + 0.03*years) * (1 + min(0.03, max(-0.03, 0.01*r.NormFloat64()))))
				discount := codeRate(code)
				switch {
				case p.discontinued && day >= p.stop-120:
					discount = []float64{0.3, 0.4, 0.5}[r.IntN(3)] // clearance
				case discount == 0 && chance(r, 0.05):
					discount = []float64{0.05, 0.1, 0.15, 0.2}[r.IntN(4)]
				}
				items.int(items.rows + 1)
				items.int(orderID)
				items.int(int64(pi + 1))
				items.int(qty)
				items.float(price)
				items.float(discount)
				if err := items.done(); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := orders.close(); err != nil {
		return nil, err
	}
	return []int64{orders.rows, items.rows}, items.close()
}

// productOn picks a product on sale on day i that is not in picked.
func (g *generator) productOn(r *rand.Rand, day int, picked []int) (int, bool) {
	for range 64 {
		pi := g.prodPick.pick(r)
		p := g.products[pi]
		if p.launch > day || day >= p.stop || slices.Contains(picked, pi) {
			continue
		}
		return pi, true
	}
	// Few products are on sale yet (the first days): take the first one
	// on sale, from a place that varies with the day, so that every order
	// gets the lines docs/demo.md promises.
	n := len(g.products)
	for k := range n {
		pi := (day*7919 + k) % n
		p := g.products[pi]
		if p.launch <= day && day < p.stop && !slices.Contains(picked, pi) {
			return pi, true
		}
	}
	return 0, false
}

// orderStatus: most orders complete; recent ones are still pending; some
// are refunded or cancelled, more of them in the dip week.
func orderStatus(r *rand.Rand, age int, dip bool) string {
	pending := 0.002
	switch {
	case age <= 2:
		pending = 0.7
	case age <= 6:
		pending = 0.35
	case age <= 13:
		pending = 0.1
	}
	cancelled := 0.035
	if dip {
		cancelled = 0.12
	}
	switch x := r.Float64(); {
	case x < pending:
		return "pending"
	case x < pending+cancelled:
		return "cancelled"
	case x < pending+cancelled+0.05 && age > 6:
		return "refunded"
	default:
		return "completed"
	}
}

// discountCode returns the code used on an order, or "" for none.
func discountCode(r *rand.Rand, d time.Time, first, business bool) string {
	m := d.Month()
	switch {
	case first && chance(r, 0.35):
		return "WELCOME10"
	case m == time.November && d.Day() >= 20 && chance(r, 0.35):
		return "BLACKFRIDAY25"
	case m == time.December && d.Day() <= 24 && chance(r, 0.15):
		return "HOLIDAY15"
	case business && chance(r, 0.2):
		return "VIP20"
	case (m == time.March || m == time.April || m == time.May) && chance(r, 0.06):
		return "SPRING15"
	case (m == time.June || m == time.July || m == time.August) && chance(r, 0.06):
		return "SUMMER10"
	case chance(r, 0.03):
		return "FREESHIP"
	}
	return ""
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
