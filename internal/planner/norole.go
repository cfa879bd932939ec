package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A link named by its role, missing: "tickets with no assignee", "how
// many tickets are unassigned", "employees without a manager". The role
// names a many-to-one link (the relationship's name, its key column's
// name less "_id", or a synonym of that column), and the rows that have
// none are those whose key column is empty: the question is read with
// the column's own words ("tickets with no assignee id"), which the
// planner reads as "is empty". Self links ("manager") and tables linked
// twice (origin and destination) read so too, as the column says which
// link is meant.

// noneWord reports whether a word before a role says it is missing.
func noneWord(w string) bool { return w == "no" || w == "without" }

// byMissingRole replans question with each missing role written as its
// key column; nil when no unknown word is such a role, or the question
// so read does not plan.
func (p *Planner) byMissingRole(question string, asOf time.Time, unknown []string) *Plan {
	if len(unknown) == 0 || len(question) > maxRewritten {
		return nil // a question rewritten past any length a person writes: stop
	}
	unknownWord := map[string]bool{}
	for _, u := range unknown {
		for _, w := range strings.Fields(u) {
			unknownWord[w] = true
		}
	}
	toks := tokenize(question)
	var b strings.Builder
	var notes []string
	last := 0
	for i, t := range toks {
		if !unknownWord[t.s] {
			continue
		}
		var col, from string
		switch {
		case strings.HasPrefix(t.s, "un") && strings.HasSuffix(t.s, "ed") && len(t.s) > 6:
			// "unassigned": the one doing it is missing (assignee,
			// assigner).
			stem := strings.TrimSuffix(strings.TrimPrefix(t.s, "un"), "ed")
			for _, role := range []string{stem + "ee", stem + "er", stem + "or", stem + "eer"} {
				if r := p.roleColumn(role); r != nil {
					col, from = "with no "+strings.Join(words(r.FromColumn), " "), r.From+"."+r.FromColumn
					break
				}
			}
		case i > 0 && (noneWord(toks[i-1].s) || i > 1 && noneWord(toks[i-2].s) && isArticle(toks[i-1].s)):
			if r := p.roleColumn(t.s); r != nil {
				col, from = strings.Join(words(r.FromColumn), " "), r.From+"."+r.FromColumn
			}
		}
		if col == "" || strings.HasPrefix(strings.ToLower(question[t.start:]), strings.TrimPrefix(col, "with no ")) {
			// Written as the column already: read so once, never again
			// (the replanned question would be rewritten without end).
			continue
		}
		b.WriteString(question[last:t.start])
		b.WriteString(col)
		last = t.end
		notes = append(notes, fmt.Sprintf("%q read as %s is empty", t.s, from))
	}
	if len(notes) == 0 {
		return nil
	}
	b.WriteString(question[last:])
	read := b.String()
	pl := p.planWhole(read, asOf)
	if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query == nil {
		return nil
	}
	if pl.Read == "" {
		pl.Read = read
	}
	pl.Understood = append(pl.Understood, notes...)
	pl.Notes = append(pl.Notes, notes...)
	return pl
}

// maxRewritten bounds the length of a question the planner rewrites in
// other words of the knowledge.
const maxRewritten = 2000

func isArticle(w string) bool { return w == "a" || w == "an" || w == "any" }

// roleColumn is the one many-to-one link whose role is word: its name,
// its key column's name less "_id", or a synonym of the column, compared
// word by word; nil when none or more than one column is so named.
func (p *Planner) roleColumn(word string) *semantic.Relationship {
	var hit *semantic.Relationship
	for i := range p.m.Relationships {
		r := &p.m.Relationships[i]
		if r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany {
			continue
		}
		e := p.entity(r.From)
		if e == nil || e.Column(r.FromColumn) == nil {
			continue
		}
		base := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(r.FromColumn), "_id"), "id")
		names := []string{r.Name, base}
		// "destination" for destination_warehouse_id: the role less the
		// table it points at.
		if to := strings.ToLower(singular(r.To)); strings.HasSuffix(base, "_"+to) {
			names = append(names, strings.TrimSuffix(base, "_"+to))
		}
		names = append(names, e.Column(r.FromColumn).Synonyms...)
		named := false
		for _, n := range names {
			n = strings.Join(words(n), " ")
			named = named || n != "" && (n == word || n == singular(word))
		}
		if !named {
			continue
		}
		if hit != nil && !(strings.EqualFold(hit.From, r.From) && strings.EqualFold(hit.FromColumn, r.FromColumn)) {
			return nil
		}
		hit = r
	}
	return hit
}
