package planner

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// ownedRoute is the tables between a and b on a route of references,
// each by a key named after the table it points at (bookings.room_id,
// rooms.location_id), where that route is one of the shortest from a
// to b and the only such one; ok false otherwise. A booking's location
// is its room's: the staff who hosted it are people in roles
// (bookings.host_id, bookings.game_master_id), whose own location is
// another thing (found from outside: "bookings by location" was asked
// back "host or game master?", not the room's location a manager
// means).
//
// several says the caller knows of more than one way already (two links
// between one pair of tables); otherwise there must be two shortest
// ways between the tables themselves.
func (p *Planner) ownedRoute(a, b string, several bool) (via []string, ok bool) {
	a, b = lower(a), lower(b)
	if a == b {
		return nil, false
	}
	// The shortest route's length, any links.
	dist := map[string]int{a: 0}
	for queue := []string{a}; len(queue) > 0; queue = queue[1:] {
		x := queue[0]
		for _, y := range p.graph[x] {
			if _, seen := dist[y]; !seen {
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
	}
	n, reached := dist[b]
	if !reached {
		return nil, false
	}
	if !several && ways(p.graph, a, b, dist) < 2 {
		return nil, false // one way only: nothing to choose
	}
	// Every route of owned references up from a of that length.
	var found [][]string
	var walk func(x string, path []string)
	walk = func(x string, path []string) {
		if len(path) == n {
			if x == b {
				found = append(found, slices.Clone(path[:len(path)-1]))
			}
			return
		}
		for _, r := range p.m.Relationships {
			if lower(r.From) != x || r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne || lower(r.To) == x {
				continue
			}
			if e := p.entity(r.To); e == nil || e.Role != nil || !p.owns(r.To, r.From) || slices.Contains(path, lower(r.To)) {
				continue
			}
			walk(lower(r.To), append(path, lower(r.To)))
		}
	}
	walk(a, nil)
	if len(found) != 1 {
		return nil, false
	}
	return found[0], true
}

// byOwnedRoute takes, where a field's table is reached from base in
// more than one way, the one route of owned references (ownedRoute),
// and says so; false where there is no such route.
func (b *builder) byOwnedRoute(base, e string, several bool) bool {
	via, ok := b.p.ownedRoute(base, e, several)
	if !ok || len(via) == 0 {
		return false
	}
	var names []string
	added := false
	for _, v := range via {
		ent := b.p.entity(v)
		if ent == nil {
			return false
		}
		if !slices.ContainsFunc(b.q.Via, func(s string) bool { return strings.EqualFold(s, ent.Name) }) {
			b.q.Via, added = append(b.q.Via, ent.Name), true
		}
		names = append(names, display(ent.Name))
	}
	if !added {
		return true
	}
	b.und("%s of the %s through %s", display(e), display(base), strings.Join(names, ", "))
	return true
}

// ways counts the shortest ways from a to b over the tables' links, each
// table taken once (dist: each table's distance from a).
func ways(graph map[string][]string, a, b string, dist map[string]int) int {
	count := map[string]int{a: 1}
	order := []string{a}
	for i := 0; i < len(order); i++ {
		x := order[i]
		for _, y := range graph[x] {
			if dist[y] != dist[x]+1 {
				continue
			}
			if _, seen := count[y]; !seen {
				order = append(order, y)
			}
			count[y] += count[x]
		}
	}
	return count[b]
}
