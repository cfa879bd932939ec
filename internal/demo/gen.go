package demo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// Random streams, one per part of the data.
const (
	partCustomers = iota + 1
	partProducts
	partOrders
	partSubscriptions
	partEmployees
	partTickets
	partSessions
)

// Row counts of the contract.
const (
	nCustomers     = 5000
	nDuplicates    = 12
	nProducts      = 200
	nOrders        = 60000
	nSubscriptions = 2500
	nTickets       = 8000
	nSessions      = 300000
)

type customer struct {
	name, email, country, city, segment string
	signup                              int // day index
	referredBy                          int64
}

type product struct {
	name, category string
	price, cost    float64
	launch         int // day index
	discontinued   bool
	stop           int // first day index it no longer sells
	weight         float64
	byTheDozen     bool // often bought several at a time (groceries)
}

type employee struct {
	dept    string
	support bool
	eng     bool
}

// generator holds what the tables need from one another.
type generator struct {
	seed      int64
	cal       calendar
	customers []customer // index i is id i+1, in signup order
	signedBy  []int      // signedBy[day] = customers signed up by that day
	products  []product  // index i is id i+1
	prodPick  picker
	employees []employee // index i is id i+1
}

func newGenerator(opts Options) *generator {
	return &generator{seed: opts.Seed, cal: newCalendar(opts.Anchor)}
}

// run generates and inserts every table, in creation order.
func (g *generator) run(ctx context.Context, db *sqlite3.Conn) ([]TableStat, error) {
	steps := []func(context.Context, *sqlite3.Conn) ([]int64, error){
		g.writeCustomers, g.writeProducts, g.writeOrders, g.writePlans,
		g.writeSubscriptions, g.writeEmployees, g.writeTickets, g.writeSessions,
	}
	var counts []int64
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := step(ctx, db)
		if err != nil {
			return nil, err
		}
		counts = append(counts, n...)
	}
	stats := make([]TableStat, len(tableNames))
	for i, name := range tableNames {
		stats[i] = TableStat{Name: name, Rows: counts[i]}
	}
	return stats, nil
}

// picker chooses an index with probability proportional to its weight.
type picker struct{ cum []float64 }

func newPicker(weights []float64) picker {
	cum := make([]float64, len(weights))
	s := 0.0
	for i, w := range weights {
		s += w
		cum[i] = s
	}
	return picker{cum: cum}
}

func (p picker) pick(r *rand.Rand) int {
	x := r.Float64() * p.cum[len(p.cum)-1]
	return min(sort.SearchFloat64s(p.cum, x), len(p.cum)-1)
}

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// between returns a uniform float in [lo, hi).
func between(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// dayCounts spreads total events over the calendar following shape, with
// day-to-day noise from r.
func (g *generator) dayCounts(r *rand.Rand, shape dayShape, total int) []int {
	w := make([]float64, g.cal.days)
	for i := range w {
		w[i] = max(0.05, g.cal.weight(i, shape, r.NormFloat64()))
	}
	return spread(w, total)
}

// secondsOfDay returns n sorted seconds of the day, following an hourly
// profile.
func secondsOfDay(r *rand.Rand, hours picker, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = hours.pick(r)*3600 + r.IntN(3600)
	}
	slices.Sort(s)
	return s
}

// shoppingHours is the hourly profile of orders and visits: quiet at night,
// busy at lunch and in the evening.
func shoppingHours() picker {
	return newPicker([]float64{
		0.6, 0.35, 0.2, 0.15, 0.15, 0.25, 0.6, 1.2, 1.8, 2.2, 2.5, 2.7,
		3.2, 3.0, 2.6, 2.5, 2.6, 2.9, 3.4, 3.9, 4.2, 3.8, 2.6, 1.4,
	})
}

// officeHours is the hourly profile of support tickets.
func officeHours() picker {
	return newPicker([]float64{
		0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 1.5, 3.0, 3.6, 3.8, 3.6,
		3.0, 3.4, 3.5, 3.3, 3.0, 2.4, 1.6, 1.2, 1.0, 0.8, 0.5, 0.3,
	})
}

// customerOn picks a customer (an id) who had signed up by day i. Early
// customers are somewhat more loyal.
func (g *generator) customerOn(r *rand.Rand, i int) int64 {
	n := g.signedBy[min(max(i, 0), g.cal.days-1)]
	if n == 0 {
		return 0
	}
	if chance(r, 0.3) {
		u := r.Float64()
		return int64(float64(n)*u*u) + 1
	}
	return int64(r.IntN(n)) + 1
}

func (g *generator) writeCustomers(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partCustomers)
	cal := g.cal
	// Signups grow over time, with an opening month that brings the first
	// few hundred members.
	w := make([]float64, cal.days)
	for i := range w {
		w[i] = max(0.05, cal.weight(i, dayShape{growth: 2, weekday: flatWeek(), noise: 0.2}, r.NormFloat64()))
		if i < 30 {
			w[i] += 6
		}
	}
	perDay := spread(w, nCustomers)
	g.customers = make([]customer, 0, nCustomers)
	g.signedBy = make([]int, cal.days)
	countryPick := newPicker(weightsOf(countries, func(c country) float64 { return c.weight }))
	used := make(map[string]bool, nCustomers)
	for day, n := range perDay {
		for range n {
			c := customer{signup: day}
			first := firstNames[r.IntN(len(firstNames))]
			last := lastNames[r.IntN(len(lastNames))]
			c.name = first + " " + last
			co := countries[countryPick.pick(r)]
			c.country, c.city = co.name, co.cities[r.IntN(len(co.cities))]
			c.segment = "consumer"
			domain := emailDomains[r.IntN(len(emailDomains))]
			if chance(r, 0.15) {
				c.segment = "business"
				domain = companyWords[r.IntN(len(companyWords))] + ".example"
			}
			local := strings.ToLower(first + "." + last)
			c.email = local + "@" + domain
			for k := 2; used[c.email]; k++ {
				c.email = local + itoa(k) + "@" + domain
			}
			used[c.email] = true
			if len(g.customers) > 50 && day >= 30 && chance(r, 0.18) {
				c.referredBy = int64(r.IntN(len(g.customers))) + 1
			}
			g.customers = append(g.customers, c)
		}
		g.signedBy[day] = len(g.customers)
	}
	// A few people signed up twice: same e-mail, a new id, sometimes a new
	// city.
	taken := map[int]bool{}
	for len(taken) < 2*nDuplicates {
		dup, orig := 1000+r.IntN(nCustomers-1000), r.IntN(1000)
		if taken[dup] || taken[orig] {
			continue
		}
		taken[dup], taken[orig] = true, true
		o, c := g.customers[orig], &g.customers[dup]
		c.name, c.email, c.segment = o.name, o.email, o.segment
		if chance(r, 0.5) {
			c.country, c.city = o.country, o.city
		}
	}

	ins, err := prepareInsert(db, "customers", 8)
	if err != nil {
		return nil, err
	}
	for i, c := range g.customers {
		ins.int(int64(i + 1))
		ins.text(c.name)
		ins.text(c.email)
		ins.text(c.country)
		ins.text(c.city)
		ins.text(c.segment)
		ins.text(cal.label(c.signup))
		ins.optInt(c.referredBy, c.referredBy != 0)
		if err := ins.done(); err != nil {
			return nil, err
		}
	}
	return []int64{ins.rows}, ins.close()
}

func (g *generator) writeProducts(ctx context.Context, db *sqlite3.Conn) ([]int64, error) {
	r := newRand(g.seed, partProducts)
	cal := g.cal
	per := nProducts / len(categories)
	g.products = make([]product, 0, nProducts)
	for _, cat := range categories {
		// Distinct brand and item pairs, in a seeded order.
		var combos [][2]int
		for b := range cat.brands {
			for it := range cat.items {
				combos = append(combos, [2]int{b, it})
			}
		}
		r.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		for _, cb := range combos[:per] {
			it := cat.items[cb[1]]
			p := product{category: cat.name, byTheDozen: cat.name == "Grocery"}
			if cat.name == "Books" {
				p.name = it.name + " (" + cat.brands[cb[0]] + ")"
			} else {
				p.name = cat.brands[cb[0]] + " " + it.name
			}
			p.price = pricePoint(it.price * between(r, 0.8, 1.3))
			if cat.name == "Books" && cat.brands[cb[0]] == "Paperback" {
				p.price = pricePoint(it.price * 0.6)
			}
			p.cost = round2(p.price * between(r, 0.4, 0.72))
			p.weight = cat.weight * math.Exp(0.7*r.NormFloat64())
			g.products = append(g.products, p)
		}
	}
	// Most of the catalogue opened with the shop; the rest launched over
	// time, a dozen of them in the anchor's year.
	yearStart := cal.index(cal.anchor.AddDate(0, 0, 1-cal.anchor.YearDay()))
	order := r.Perm(len(g.products))
	for k, pi := range order {
		p := &g.products[pi]
		switch {
		case k < 150:
			p.launch = r.IntN(min(45, cal.days))
		case k < 188 || yearStart >= cal.days-1:
			p.launch = 60 + r.IntN(max(1, yearStart-60))
		default:
			p.launch = yearStart + r.IntN(cal.days-yearStart)
		}
		p.launch = min(p.launch, cal.days-1)
		p.stop = cal.days + 1
	}
	// Some early products were discontinued; they stopped selling during
	// the last year and sell off their stock at a markdown before that.
	for _, pi := range order[:16] {
		p := &g.products[pi]
		p.discontinued = true
		p.stop = max(p.launch+90, cal.days-60-r.IntN(240))
	}
	weights := make([]float64, len(g.products))
	for i, p := range g.products {
		weights[i] = p.weight
	}
	g.prodPick = newPicker(weights)

	ins, err := prepareInsert(db, "products", 7)
	if err != nil {
		return nil, err
	}
	for i, p := range g.products {
		ins.int(int64(i + 1))
		ins.text(p.name)
		ins.text(p.category)
		ins.float(p.price)
		ins.float(p.cost)
		ins.text(cal.label(p.launch))
		ins.int(b2i(p.discontinued))
		if err := ins.done(); err != nil {
			return nil, err
		}
	}
	return []int64{ins.rows}, ins.close()
}

// pricePoint rounds a price to a shop price ending in .99 (or .49 under 10).
func pricePoint(v float64) float64 {
	if v < 10 {
		return math.Max(0.99, math.Floor(v*2)/2+0.49)
	}
	return math.Floor(v) + 0.99
}

func flatWeek() [7]float64 { return [7]float64{1, 1, 1, 1, 1, 1, 1} }

func weightsOf[T any](xs []T, f func(T) float64) []float64 {
	w := make([]float64, len(xs))
	for i, x := range xs {
		w[i] = f(x)
	}
	return w
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
