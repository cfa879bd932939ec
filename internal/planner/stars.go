package planner

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// starsSaid finds "5 star reviews", "5-star hotels" and "reviews with 4
// stars": a rating said in stars.
var starsSaid = sync.OnceValue(func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		regexp.MustCompile(`(?i)\b([1-9]|10)[ -]stars?\s+([a-z_]+)`),
		regexp.MustCompile(`(?i)\b(with|of|rated|given)\s+([1-9]|10)\s+stars?\b`),
	}
})

// readStars writes a rating said in stars as a condition on the one
// column the knowledge names a rating ("how many 5 star reviews" → "how
// many reviews with a rating of 5"), where "star" is no word the
// knowledge knows (found from outside: "5, star" not understood). With
// no such column, or several named differently, the question is left as
// written.
func (p *Planner) readStars(q string) (string, string) {
	if len(p.lex.known["star"])+len(p.lex.known["stars"]) > 0 {
		return q, ""
	}
	word := ""
	for _, e := range p.m.Entities {
		for _, c := range e.Columns {
			if !c.Type.IsNumeric() {
				continue
			}
			for _, w := range nameWords(c.Name) {
				if w == "rating" || w == "stars" || w == "star" {
					name := strings.ReplaceAll(lower(c.Name), "_", " ")
					if word != "" && word != name {
						return q, ""
					}
					word = name
				}
			}
		}
	}
	if word == "" {
		return q, ""
	}
	res := starsSaid()
	before := q
	q = res[1].ReplaceAllStringFunc(q, func(s string) string {
		m := res[1].FindStringSubmatch(s)
		lead := "with"
		if strings.EqualFold(m[1], "of") {
			lead = "of"
		}
		return lead + " a " + word + " of " + m[2]
	})
	q = res[0].ReplaceAllStringFunc(q, func(s string) string {
		// "5 star reviews": the word after names the rows ("1 star
		// last month" does not).
		m := res[0].FindStringSubmatch(s)
		if w := lower(m[2]); len(p.lex.known[w])+len(p.lex.known[singular(w)]) == 0 {
			return s
		}
		return m[2] + " with a " + word + " of " + m[1]
	})
	if q == before {
		return q, ""
	}
	return q, fmt.Sprintf("stars read as the %s", word)
}
