package planner

import (
	"fmt"
	"strings"
	"time"
)

// byWhose reads "by <people> <who they are>" ("bookings by guests from
// France", "orders by customers in Germany"), which the grouping reading
// turned into one row per guest: in "how many … by guests from France"
// it says whose rows are counted, and the count is of theirs alone;
// elsewhere ("revenue by customers from Germany") both readings fit, and
// quarry asks which, with each written so that it plans one way only.
// nil where the question says no such thing or the plan groups by no
// table it names so.
func (p *Planner) byWhose(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Dimensions) == 0 {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s != "by" {
			continue
		}
		word := toks[i+1].s
		if singular(word) == word {
			continue // "by customer": one row each
		}
		entity := ""
		if ss, ok := p.lex.get(word); ok {
			for _, s := range strongest(only(ss, sEntity)) {
				entity = s.name
			}
		}
		if entity == "" || !qualifier(toks[i+2].s) || !groupsBy(pl, entity) {
			continue
		}
		whose := question[:toks[i].start] + "of" + question[toks[i].end:]
		if again := p.planQuestion(whose, asOf); again.Kind != KindMetric && again.Kind != KindRows || groupsBy(again, entity) {
			return nil
		} else if strings.HasPrefix(strings.ToLower(strings.TrimSpace(question)), "how many") {
			again.readAs(whose, fmt.Sprintf("%q read as whose rows are counted, not one row per %s", join(toks[i:i+3]), singular(word)))
			return again
		}
		each := question[:toks[i+1].start] + singular(word) + question[toks[i+1].end:]
		return clarify(fmt.Sprintf("“by %s %s …”: those %s' rows taken together, or one row per %s?", word, toks[i+2].s, word, singular(word)), whose, each)
	}
	return nil
}

// qualifier reports whether w starts what says which people are meant
// ("from France", "in Germany", "who signed up").
func qualifier(w string) bool {
	switch w {
	case "from", "in", "who", "that", "with", "based", "living", "located", "at":
		return true
	}
	return false
}

// groupsBy reports whether a plan groups by a column of entity.
func groupsBy(pl *Plan, entity string) bool {
	if pl.Query == nil {
		return false
	}
	for _, d := range pl.Query.Dimensions {
		if e, _, ok := strings.Cut(d.Name, "."); ok && strings.EqualFold(e, entity) {
			return true
		}
	}
	return false
}
