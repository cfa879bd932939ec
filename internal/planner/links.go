package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Verbs of relationships. "car makers who produced a car in 1970",
// "languages spoken in Aruba", "teachers who teach math courses": a verb
// between two tables the question names says that their rows are linked,
// and nothing more. A word the knowledge does not otherwise know is read
// so when
//
//   - its stem is a verb the knowledge lists on a relationship
//     (Relationship.Verbs), or one of the few generic verbs of a link
//     (genericLinkVerbs), in any form ("spoken", "went through");
//   - a table is named on each side of it (by its name, a column of it, a
//     value of it or a measure of it), the two tables differ, and the join
//     graph links them by exactly one path of at most three joins, which
//     runs through a relationship that lists the verb unless the verb is
//     a generic one. Several paths, and the planner asks which is meant:
//     the rest of the plan could not keep to the one the verb names.
//
// The verb is then read as that link: the plan says so ("read
// \"produced\" as the link from car makers to cars") and the question is
// planned as if the verb were not there, so that the rows of the two
// tables are related through the joins the link names. A word that names
// a column, a value or a measure keeps that meaning (the scan reads known
// terms first); a verb that is none of these, or with no table on one
// side, stays unknown and the question is refused as before.

// genericLinkVerbs are verbs that name a link between two tables whatever
// the tables are, in their base form. Keep the list short: any other verb
// must be listed in the knowledge (docs/knowledge.md).
var genericLinkVerbs = []string{
	"have", "own", "make", "produce", "create", "write", "direct", "use", "contain", "include",
	"belong", "speak", "teach", "play", "go through", "receive", "take",
}

// maxLinkJoins is the longest path, in joins, that a verb is read as.
const maxLinkJoins = 3

// link is how a verb of the question was read.
type link struct {
	from, to string // the tables on either side, as the question orders them
}

// linkVerbAt reports the verb of a link that starts at toks[i]: one word,
// or a word and a particle ("went through"), whose stems are a verb the
// knowledge lists or a generic one. It returns the number of words.
func (p *Planner) linkVerbAt(toks []token, i int) (int, bool) {
	if !isAlpha(toks[i].s) || p.stop[toks[i].s] || p.kws[toks[i].s] != "" {
		return 0, false
	}
	if i+1 < len(toks) && isAlpha(toks[i+1].s) {
		if p.linkVerbs[stemKey(toks[i].s+" "+toks[i+1].s)] {
			return 2, true
		}
	}
	if p.linkVerbs[stemKey(toks[i].s)] {
		return 1, true
	}
	return 0, false
}

// buildLinkVerbs indexes the generic verbs and the knowledge's by stem.
func (p *Planner) buildLinkVerbs() {
	p.linkVerbs, p.genericVerbs = map[string]bool{}, map[string]bool{}
	for _, v := range genericLinkVerbs {
		p.linkVerbs[stemKey(v)] = true
		p.genericVerbs[stemKey(v)] = true
	}
	for _, r := range p.m.Relationships {
		for _, v := range r.Verbs {
			p.linkVerbs[stemKey(strings.ToLower(v))] = true
		}
	}
}

// readLinks reads each verb of a link found by the scan between the
// tables named on either side. A verb that reads as exactly one link
// becomes a word read past (with the link noted); one that links the
// tables several ways asks which; any other stays unknown.
func (p *Planner) readLinks(items []item) *Plan {
	for i := range items {
		it := &items[i]
		if it.linkVerb == "" {
			continue
		}
		left, right := p.sideEntities(items, i, -1), p.sideEntities(items, i, 1)
		if it.clauseEnd || right == nil && pronounBefore(items, i) {
			// "the courses they teach", "how many models does each maker
			// produce?": the verb ends its clause; its object is the term
			// before it or the one before that, and the other is its
			// subject.
			for j := i - 1; j >= 0; j-- {
				if items[j].kind == itTerm {
					right, left = left, p.sideEntities(items, j, -1)
					break
				}
			}
		}
		var found []link
		var several [][]pathStep
		for _, a := range left {
			for _, b := range right {
				if strings.EqualFold(a, b) {
					continue
				}
				paths := p.linkPaths(a, b, it.linkVerb, p.genericVerbs[it.linkVerb])
				switch {
				case len(paths) == 1:
					found = append(found, link{from: a, to: b})
				case len(paths) > 1 && several == nil:
					several = paths
				}
			}
		}
		switch {
		case several != nil:
			var opts []string
			for _, path := range several {
				opts = append(opts, pathText(path))
			}
			return clarify(fmt.Sprintf("%q links %s and %s in more than one way; which is meant?", it.text, display(several[0][0].from), display(several[0][len(several[0])-1].to)), opts...)
		case len(found) == 1:
			it.kind, it.link = itStop, &found[0]
			for j := i + 1; j < len(items); j++ {
				if items[j].kind == itTerm {
					items[j].linkObj = true
				}
				if items[j].kind != itStop {
					break
				}
			}
		default:
			it.kind = itUnknown
		}
	}
	return nil
}

// pronounBefore reports whether the verb at i follows a pronoun that
// stands for a table named earlier ("they", "it"), with an auxiliary
// between or not ("they have conducted").
func pronounBefore(items []item, i int) bool {
	for j := i - 1; j >= 0 && items[j].kind == itStop; j-- {
		switch items[j].text {
		case "they", "it", "he", "she":
			return true
		case "have", "has", "had", "do", "does", "did", "are", "is", "was", "were":
			continue
		}
		return false
	}
	return false
}

// sideEntities are the tables named by the nearest known term before
// (dir -1) or after (dir 1) item i: its own, a column's, a value's or a
// measure's.
func (p *Planner) sideEntities(items []item, i, dir int) []string {
	for j := i + dir; j >= 0 && j < len(items); j += dir {
		it := items[j]
		switch it.kind {
		case itStop, itKw, itNum, itDate:
			continue
		case itTerm:
		default:
			return nil
		}
		var out []string
		for _, s := range strongest(it.senses) {
			e := s.entity
			switch s.kind {
			case sEntity:
				e = s.name
			case sMetric:
				e = p.metricTable(s.name)
			}
			if e != "" && !containsFold(out, e) {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// metricTable is the entity a defined metric counts over.
func (p *Planner) metricTable(name string) string {
	for _, m := range p.m.Metrics {
		if strings.EqualFold(m.Name, name) {
			return m.Entity
		}
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// pathStep is one join of a path between two tables.
type pathStep struct {
	from, to string
	rel      *semantic.Relationship
}

// linkPaths are the paths of at most maxLinkJoins joins from a to b that
// visit no table twice. One path that a verb the knowledge lists does
// not run through (and that is not a generic verb) is none.
func (p *Planner) linkPaths(a, b, verb string, generic bool) [][]pathStep {
	var all [][]pathStep
	var walk func(at string, seen map[string]bool, path []pathStep)
	walk = func(at string, seen map[string]bool, path []pathStep) {
		if strings.EqualFold(at, b) {
			all = append(all, append([]pathStep(nil), path...))
			return
		}
		if len(path) == maxLinkJoins {
			return
		}
		for k := range p.m.Relationships {
			r := &p.m.Relationships[k]
			next := ""
			switch {
			case strings.EqualFold(r.From, at):
				next = r.To
			case strings.EqualFold(r.To, at):
				next = r.From
			default:
				continue
			}
			if seen[lower(next)] {
				continue
			}
			seen[lower(next)] = true
			walk(next, seen, append(path, pathStep{from: at, to: next, rel: r}))
			delete(seen, lower(next))
		}
	}
	walk(a, map[string]bool{lower(a): true}, nil)
	if len(all) == 1 && !generic && !pathHasVerb(all[0], verb) {
		return nil // a listed verb of another link
	}
	return all
}

func pathHasVerb(path []pathStep, verb string) bool {
	for _, s := range path {
		if relHasVerb(s.rel, verb) {
			return true
		}
	}
	return false
}

func relHasVerb(r *semantic.Relationship, verb string) bool {
	for _, v := range r.Verbs {
		if stemKey(strings.ToLower(v)) == verb {
			return true
		}
	}
	return false
}

// pathText is a path as an option of a question: "dogs.owner_id →
// owners, then …".
func pathText(path []pathStep) string {
	var parts []string
	for _, s := range path {
		r := s.rel
		parts = append(parts, fmt.Sprintf("%s.%s = %s.%s", r.From, r.FromColumn, r.To, r.ToColumn))
	}
	return "through " + strings.Join(parts, ", then ")
}

// linkText is how the plan says it read a verb.
func linkText(it item) string {
	return fmt.Sprintf("read %q as the link from %s to %s", it.text, display(it.link.from), display(it.link.to))
}

// withSome adds the existence filters of the tables named right after a
// verb read as a link ("dogs that went through a treatment"): the
// subject's rows that have a row of that table, directly or through the
// one table that links them. Conditions of the query on that table's own
// columns are conditions on those rows. A period is refused: quarry
// cannot tell whose date it is.
func (b *builder) withSome(pl *Plan) *Plan {
	if len(b.st.some) == 0 || pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	subject := ""
	if q := pl.Query; q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = b.p.metricEntity(q.Metrics[0], b.adhoc)
	}
	q := pl.Query
	if q.TimeRange != nil || len(q.Compare) > 0 {
		return b.fail("quarry cannot yet tell whether the period is of the rows asked about or of the rows they are linked to; ask without the period")
	}
	for _, ent := range b.st.some {
		if subject == "" || strings.EqualFold(subject, ent) {
			return b.fail(fmt.Sprintf("quarry could not tell which rows must have %s", display(ent)))
		}
		via := ent
		if !b.p.joinedDirectly(subject, ent) {
			via = b.p.bridge(subject, ent)
			if via == "" {
				return b.fail(fmt.Sprintf("quarry can tell which %s have %s only when %s refer to %s directly or through one table", display(subject), display(ent), display(ent), display(subject)))
			}
		}
		var where, keep []semantic.Filter
		for _, f := range q.Filters {
			if e, _, ok := strings.Cut(f.Field, "."); ok && strings.EqualFold(e, ent) && !f.OnRelated() {
				where = append(where, f)
			} else {
				keep = append(keep, f)
			}
		}
		if via != ent && len(where) > 0 {
			return b.fail(fmt.Sprintf("quarry cannot yet put conditions on %s through %s; ask for the %s by a column of their own", display(ent), display(via), display(subject)))
		}
		q.Filters = append(keep, semantic.Filter{Field: via, Op: semantic.OpSome, Where: where})
		if via != ent {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with a %s (which link them to %s)", subject, via, ent))
		} else if len(where) > 0 {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with a %s row where %s", subject, ent, whereText(where)))
		} else {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with a %s", subject, ent))
		}
		pl.Title += " with " + display(ent)
	}
	return pl
}
