package planner

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

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
		limit := max(1, len(u)/3)
		for _, t := range p.terms() {
			// An edit distance is at least the difference in length:
			// pairs too far apart for the limit are not measured (a
			// schema of a thousand tables holds thousands of terms).
			d := limit + 1
			if gap(u, t) <= limit {
				d = distance(u, t)
			}
			for _, w := range strings.Fields(t) {
				if gap(u, w) < limit {
					d = min(d, distance(u, w)+1)
				}
				if len(u) >= 4 && (strings.HasPrefix(w, u) || strings.HasPrefix(u, w) && len(w) >= 4) {
					d = min(d, 1)
				}
			}
			if d <= limit {
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

// gap is the difference in length of two strings.
func gap(a, b string) int {
	if len(a) > len(b) {
		return len(a) - len(b)
	}
	return len(b) - len(a)
}

// distance is the edit distance between two short strings; long ones are
// treated as far apart, so suggestions stay cheap on long questions.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	return suggest.Distance(a, b)
}

// correct returns question with each unknown word that has one known
// term within a small distance replaced by it, when at least one has and
// the corrected question plans; "" otherwise. "revnue by chanel" →
// "revenue by channel"; "avrage order value" → "average order value",
// where "value" was unknown only because its phrase was misspelt.
func (p *Planner) correct(question string, unknown []string, asOf time.Time) string {
	if len(unknown) == 0 {
		return ""
	}
	out, fixed := question, false
	for _, u := range unknown {
		if len(u) < 3 || strings.ContainsFunc(u, func(r rune) bool { return !unicode.IsLetter(r) }) {
			return ""
		}
		term := p.closest(u)
		if term == "" {
			// A word of a phrase the misspelling broke ("value" of
			// "avrage order value"): kept as written, and the
			// corrected question must plan with it.
			continue
		}
		re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(u) + `\b`)
		if err != nil || !re.MatchString(out) {
			return ""
		}
		out, fixed = re.ReplaceAllLiteralString(out, term), true
	}
	if !fixed {
		return ""
	}
	switch p.replan(out, asOf).Kind {
	case KindMetric, KindRows, KindVerified:
		return out
	}
	return ""
}

// closest is the known term nearest to the word u: at most one edit per
// three letters away, one word before several ("channel" before
// "marketing channel"), and "" when two are equally near.
func (p *Planner) closest(u string) string {
	u = strings.ToLower(u)
	best, bestD, tie := "", max(1, len(u)/3)+1, false
	for _, t := range p.correctable() {
		if strings.Contains(t, " ") {
			continue
		}
		if len(t) > 64 {
			continue
		}
		if negates(u, t) {
			continue // "unpaid" is not a misspelt "paid"
		}
		switch d := suggest.Typos(u, t); {
		case d == 0:
			return ""
		case d < bestD:
			best, bestD, tie = t, d, false
		case d == bestD && t != best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// correctable are the words a misspelt one may be corrected to: the
// model's terms, and the question's own words of four letters or more
// ("mnth" is month, "avrage" average), which correct then plans.
func (p *Planner) correctable() []string {
	out := slices.Clip(p.terms()) // appended to: never the shared array
	for k := range p.kws {
		if len(k) >= 4 && !strings.ContainsFunc(k, func(r rune) bool { return !unicode.IsLetter(r) }) {
			out = append(out, k)
		}
	}
	return out
}

// negates reports whether word is term with a prefix that negates it
// ("unpaid", "inactive", "nonprofit", "disabled" of "abled"), or the
// other way round: a correction must never turn a word into its opposite.
func negates(word, term string) bool {
	for _, pre := range []string{"un", "in", "im", "il", "ir", "non", "non-", "dis", "not"} {
		if strings.TrimPrefix(word, pre) == term && word != term || strings.TrimPrefix(term, pre) == word && word != term {
			return true
		}
	}
	return false
}
