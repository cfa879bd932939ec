package planner

import (
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/suggest"
)

// suggest returns the known terms closest to the unknown words.
func (p *Planner) suggest(unknown []string) []string {
	type scored struct {
		term string
		d    int
	}
	var out []string
	seen := map[string]bool{}
	for _, u := range unknown {
		if len(u) < 3 {
			continue
		}
		var cands []scored
		for _, t := range p.lex.terms {
			d := distance(u, t)
			for _, w := range strings.Fields(t) {
				d = min(d, distance(u, w)+1)
				if len(u) >= 4 && (strings.HasPrefix(w, u) || strings.HasPrefix(u, w) && len(w) >= 4) {
					d = min(d, 1)
				}
			}
			if d <= max(1, len(u)/3) {
				cands = append(cands, scored{t, d})
			}
		}
		sort.SliceStable(cands, func(i, j int) bool {
			if cands[i].d != cands[j].d {
				return cands[i].d < cands[j].d
			}
			return cands[i].term < cands[j].term
		})
		for i, c := range cands {
			if i == 3 {
				break
			}
			if !seen[c.term] {
				seen[c.term] = true
				out = append(out, c.term)
			}
		}
	}
	if len(out) == 0 {
		for i, m := range p.m.Metrics {
			if i == 5 {
				break
			}
			out = append(out, display(m.Name))
		}
	}
	return out
}

// distance is the edit distance between two short strings; long ones are
// treated as far apart, so suggestions stay cheap on long questions.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	return suggest.Distance(a, b)
}
