package semantic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// edge is one relationship read in one direction.
type edge struct {
	rel     int    // index in Model.Relationships (declaration order)
	from    string // entity on this side
	to      string // entity reached
	fromCol string
	toCol   string
	fanOut  bool // reading it duplicates the from-side rows (one_to_many, many_to_many)
}

// joinStep is one join on a path: reach edge.to from edge.from.
type joinStep = edge

// joinTree holds, for every entity reachable from a root, the shortest
// path to it: fewest joins, then fewest fan-out steps, then the
// relationships declared first.
type joinTree struct {
	root  string
	steps map[string]joinStep // entity → the step that reaches it
	cost  map[string]pathCost
	notes map[string]string // entity → why its path was a choice
	// choices are, for an entity whose path was a choice, the
	// relationship used and each one passed over, one choice per route
	// passed over: a city reached through an order's customer, its
	// courier or its restaurant is two choices.
	choices map[string][]JoinChoice
	// ties are the routes of equal cost into an entity, in the order
	// they were found, the one used among them.
	ties map[string][][]int
}

// JoinChoice is a join the compiler chose between two routes that reach
// the same entity equally well: Used and Other,
// the relationships that enter it, by index in Model.Relationships, and
// the whole routes from the query's entity (UsedPath, OtherPath, which end
// with them): two routes may part before their last step (claims to
// regions through the policy's agent or through its holder), and
// preferring the other route is preferring every relationship on it.
//
// Named are the tables the query names on the route used, where they
// decided it (Query.Via, a filter or a grouping on them): none on the
// other route. Without them the route used is the one declared first.
type JoinChoice struct {
	Used      int      `json:"used"`
	Other     int      `json:"other"`
	UsedPath  []int    `json:"used_path,omitempty"`
	OtherPath []int    `json:"other_path,omitempty"`
	Named     []string `json:"named,omitempty"`
	// Longer says the other route is one join longer than the one used,
	// each a chain of references to one row (loans to branches by the
	// member's home branch, or, one join more, by the branch of the
	// copy's book): the compiler takes the shorter, but a question may
	// mean either. Preferring cannot take the longer route; a control
	// query goes through its tables (Query.Via) instead.
	Longer bool `json:"longer,omitempty"`
}

// in is the choice made on a copy of a model whose relationship i is
// orig[i] of the model's own, told by the model's indices: every field
// kept but Named, which is the caller's to decide.
func (c JoinChoice) in(orig []int) JoinChoice {
	back := func(rels []int) []int {
		r := make([]int, len(rels))
		for i, rel := range rels {
			r[i] = orig[rel]
		}
		return r
	}
	c.Used, c.Other, c.UsedPath, c.OtherPath, c.Named = orig[c.Used], orig[c.Other], back(c.UsedPath), back(c.OtherPath), nil
	return c
}

// same reports whether two choices are the same choice.
func (c JoinChoice) same(o JoinChoice) bool {
	return c.Used == o.Used && c.Other == o.Other && slices.Equal(c.UsedPath, o.UsedPath) && slices.Equal(c.OtherPath, o.OtherPath) && slices.Equal(c.Named, o.Named) && c.Longer == o.Longer
}

type pathCost struct {
	hops, fanOuts int
	key           []int // relationship indices along the path
}

func (a pathCost) less(b pathCost) bool {
	if a.hops != b.hops {
		return a.hops < b.hops
	}
	if a.fanOuts != b.fanOuts {
		return a.fanOuts < b.fanOuts
	}
	for i := range a.key {
		if i >= len(b.key) {
			return false
		}
		if a.key[i] != b.key[i] {
			return a.key[i] < b.key[i]
		}
	}
	return len(a.key) < len(b.key)
}

func fanOutOf(c Cardinality, forward bool) bool {
	switch c {
	case ManyToMany:
		return true
	case OneToMany:
		return forward
	case ManyToOne:
		return !forward
	}
	return false
}

// edges lists the relationships of m in both directions, in declaration
// order. Self-references are left out: an entity never joins itself.
func (m *Model) edges() map[string][]edge {
	adj := make(map[string][]edge, len(m.Entities))
	// Entity by name in one pass, not a scan per relationship.
	entity := m.EntityIndex().Get
	for i, r := range m.Relationships {
		from, to := entity(r.From), entity(r.To)
		if from == nil || to == nil || from.Name == to.Name {
			continue
		}
		adj[from.Name] = append(adj[from.Name], edge{rel: i, from: from.Name, to: to.Name, fromCol: r.FromColumn, toCol: r.ToColumn, fanOut: fanOutOf(r.Cardinality, true)})
		adj[to.Name] = append(adj[to.Name], edge{rel: i, from: to.Name, to: from.Name, fromCol: r.ToColumn, toCol: r.FromColumn, fanOut: fanOutOf(r.Cardinality, false)})
	}
	return adj
}

// buildJoinTree finds the best path from root to every reachable entity,
// breadth first.
func (m *Model) buildJoinTree(root string, adj map[string][]edge) *joinTree {
	n := len(adj) // every entity it can reach, at most: sized once, not grown
	t := &joinTree{root: root, steps: make(map[string]joinStep, n), cost: make(map[string]pathCost, n), notes: map[string]string{}, choices: map[string][]JoinChoice{}, ties: map[string][][]int{}}
	t.cost[root] = pathCost{}
	frontier := []string{root}
	for len(frontier) > 0 {
		var next []string
		seen := map[string]bool{}
		for _, e := range frontier {
			base := t.cost[e]
			for _, ed := range adj[e] {
				if ed.to == root {
					continue
				}
				old, ok := t.cost[ed.to]
				if ok && old.hops < base.hops+1 {
					if old.hops == base.hops && old.fanOuts == 0 && base.fanOuts == 0 && !ed.fanOut && t.steps[ed.to].rel != ed.rel {
						t.longer(m, ed, old, base)
					}
					continue // reached by a shorter path already
				}
				c := pathCost{hops: base.hops + 1, fanOuts: base.fanOuts, key: base.then(ed.rel)}
				if ed.fanOut {
					c.fanOuts++
				}
				if ok && old.hops == c.hops && old.fanOuts == c.fanOuts {
					prev := m.Relationships[t.steps[ed.to].rel]
					alt := m.Relationships[ed.rel]
					if !sameKey(prev, alt) {
						best := old
						if c.less(old) {
							best = c
						}
						t.tie(m, ed.to, old.key, c.key, best.key)
					}
				}
				if !ok || c.less(old) {
					t.cost[ed.to] = c
					t.steps[ed.to] = ed
					if !seen[ed.to] {
						seen[ed.to] = true
						next = append(next, ed.to)
					}
				}
			}
		}
		frontier = next
	}
	t.preferChains(m, adj)
	return t
}

// preferChains joins each entity the tree reaches only through a step
// that repeats rows (invoices to a customer's sites) by the one shortest
// chain of references to one row instead, where there is one, at most
// two joins longer (invoices to their work order's asset's site): every
// row then meets one row of it, and a total grouped by it adds each row
// once (found from outside: invoices by site region through the
// customer's several sites, each invoice in every region of them, at
// confidence 1.00).
func (t *joinTree) preferChains(m *Model, adj map[string][]edge) {
	fanned := false
	for _, c := range t.cost {
		fanned = fanned || c.fanOuts > 0
	}
	if !fanned {
		return
	}
	// One breadth-first walk from the root along references to one row
	// only: each entity's shortest such chain, and whether it is the only
	// one that short.
	type reach struct {
		hops int
		step edge // the step into it
		one  bool // no other chain as short
	}
	chains := map[string]reach{t.root: {one: true}}
	for frontier := []string{t.root}; len(frontier) > 0; {
		var next []string
		for _, at := range frontier {
			base := chains[at]
			for _, ed := range adj[at] {
				if ed.fanOut || ed.to == t.root {
					continue
				}
				old, seen := chains[ed.to]
				switch {
				case !seen:
					chains[ed.to] = reach{hops: base.hops + 1, step: ed, one: base.one}
					next = append(next, ed.to)
				case old.hops == base.hops+1 && (old.step.rel != ed.rel || old.step.from != ed.from):
					old.one = false // a second chain as short: not this one's to pick
					chains[ed.to] = old
				}
			}
		}
		frontier = next
	}
	var targets []string
	for target, c := range t.cost {
		if r, ok := chains[target]; ok && c.fanOuts > 0 && r.one && r.hops <= c.hops+2 {
			targets = append(targets, target)
		}
	}
	slices.Sort(targets) // one answer whatever the map's order
	for _, target := range targets {
		var path []edge
		for e := target; e != t.root; e = chains[e].step.from {
			path = append(path, chains[e].step)
		}
		slices.Reverse(path)
		var key []int
		for i, ed := range path {
			key = append(key, ed.rel)
			t.steps[ed.to] = ed
			t.cost[ed.to] = pathCost{hops: i + 1, key: slices.Clone(key)}
		}
		t.notes[target] = fmt.Sprintf("%s reached through a chain of references to one row (%s), not a shorter way that meets several of its rows", target, chainText(m, path))
	}
}

// chainText is a chain of joins in words.
func chainText(m *Model, path []edge) string {
	var out []string
	for _, ed := range path {
		out = append(out, relText(m.Relationships[ed.rel]))
	}
	return strings.Join(out, ", ")
}

// tie records route, found as good as the route old into entity to,
// and makes to's choices again: one for each route of the ties but best,
// the one used, that enters to by another key.
func (t *joinTree) tie(m *Model, to string, old, route, best []int) {
	ties := t.ties[to]
	if len(ties) == 0 {
		ties = [][]int{slices.Clone(old)}
	}
	ties = append(ties, route)
	t.ties[to] = ties
	used := m.Relationships[best[len(best)-1]]
	var chs []JoinChoice
	var others []string
	for _, k := range ties {
		r := m.Relationships[k[len(k)-1]]
		if slices.Equal(k, best) || sameKey(used, r) || slices.ContainsFunc(chs, func(c JoinChoice) bool { return sameKey(m.Relationships[c.Other], r) }) {
			continue
		}
		chs = append(chs, JoinChoice{Used: best[len(best)-1], Other: k[len(k)-1], UsedPath: slices.Clone(best), OtherPath: slices.Clone(k)})
		others = append(others, relText(r))
	}
	if len(chs) == 0 {
		return
	}
	t.choices[to] = chs
	t.notes[to] = fmt.Sprintf("%s reached through %s, the relationship declared first; %s would also join it", to, relText(used), strings.Join(others, " or "))
}

// longer records, where no choice was made for ed.to yet, the route that
// reaches it by ed one join after the shorter one it has (cost old):
// both chains of references to one row, entering it by another key.
func (t *joinTree) longer(m *Model, ed edge, old, base pathCost) {
	if len(t.choices[ed.to]) > 0 {
		return
	}
	if len(old.key) == 1 {
		// The rows' own reference ("orders by restaurant":
		// orders.restaurant_id) is what they belong to; the restaurant
		// of the staff an order names (its manager's) is another thing,
		// no second reading of the question (found from outside: every
		// grouping of orders by restaurant warned, at 0.85).
		return
	}
	prev, alt := m.Relationships[t.steps[ed.to].rel], m.Relationships[ed.rel]
	if sameKey(prev, alt) {
		return
	}
	t.choices[ed.to] = []JoinChoice{{Used: t.steps[ed.to].rel, Other: ed.rel, UsedPath: slices.Clone(old.key), OtherPath: base.then(ed.rel), Longer: true}}
	t.notes[ed.to] = fmt.Sprintf("%s reached through %s, the shorter route; %s, one join further, would also join it", ed.to, relText(prev), relText(alt))
}

// sameKey reports whether two relationships join by the same columns.
func sameKey(a, b Relationship) bool {
	return a.From == b.From && a.FromColumn == b.FromColumn && a.To == b.To && a.ToColumn == b.ToColumn
}

// then is the key of the path one relationship further, rel.
func (a pathCost) then(rel int) []int {
	return append(append(make([]int, 0, len(a.key)+1), a.key...), rel)
}

func relText(r Relationship) string {
	return r.From + "." + r.FromColumn + " = " + r.To + "." + r.ToColumn
}

// path returns the joins from the root to target, root side first.
func (t *joinTree) path(target string) ([]joinStep, error) {
	if target == t.root {
		return nil, nil
	}
	if _, ok := t.steps[target]; !ok {
		return nil, quarry.Errorf(quarry.KindConfig, "no relationship joins %s to %s; add one under relationships in the knowledge folder", t.root, target)
	}
	var rev []joinStep
	for e := target; e != t.root; {
		s := t.steps[e]
		rev = append(rev, s)
		e = s.from
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, nil
}

// joinPlan is the set of joins a SELECT needs, in join order.
type joinPlan struct {
	steps   []joinStep
	fanOut  bool
	notes   []string
	choices []JoinChoice
}

// plan collects the joins reaching every entity in need, each once, in a
// deterministic order (by the order need lists them, root side first).
func (t *joinTree) plan(need []string) (joinPlan, error) {
	var p joinPlan
	have := map[string]bool{t.root: true}
	for _, n := range need {
		steps, err := t.path(n)
		if err != nil {
			return p, err
		}
		for _, s := range steps {
			if have[s.to] {
				continue
			}
			have[s.to] = true
			p.steps = append(p.steps, s)
			p.fanOut = p.fanOut || s.fanOut
			if note, ok := t.notes[s.to]; ok {
				p.notes = append(p.notes, note)
			}
			p.choices = append(p.choices, t.choices[s.to]...)
		}
	}
	return p, nil
}

// Preferring returns a copy of m whose relationships rels are declared
// first, in that order, so that the compiler joins through them wherever
// another route is as good: the other route of a JoinChoice (OtherPath).
// CompileAsDeclared reads the copy's routes as declared, even where a
// query names a table on another.
func (m *Model) Preferring(rels ...int) *Model {
	c := *m
	first := make([]int, 0, len(rels))
	for _, rel := range rels {
		if rel >= 0 && rel < len(m.Relationships) && !slices.Contains(first, rel) {
			first = append(first, rel)
		}
	}
	if len(first) == 0 {
		return &c
	}
	c.Relationships = make([]Relationship, 0, len(m.Relationships))
	for _, rel := range first {
		c.Relationships = append(c.Relationships, m.Relationships[rel])
	}
	for i, r := range m.Relationships {
		if !slices.Contains(first, i) {
			c.Relationships = append(c.Relationships, r)
		}
	}
	return &c
}
