package planner

import (
	"fmt"
	"strings"
)

// Best and worst. "The best refund rate" is the lowest, "the worst
// resolution time" the longest: which way a measure is good is not in its
// numbers. The planner reads "best" as the highest and "worst" as the
// lowest only of a metric whose knowledge says higher is better
// (better: higher), the other way round for better: lower, and otherwise
// asks which is meant, with the question written both ways. "Best
// selling" and "best seller" rank what sold most; a question that also
// says most, least, highest, lowest, top or bottom has said its direction.

// judged corrects or asks about the direction of a plan whose question
// ranks by "best" or "worst"; nil when it has nothing to say.
func (p *Planner) judged(question string, pl *Plan) *Plan {
	if pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	toks := tokenize(question)
	at, word := -1, ""
	for i, t := range toks {
		switch t.s {
		case "most", "least", "highest", "lowest", "top", "bottom", "largest", "smallest", "fewest", "biggest", "greatest", "max", "min", "maximum", "minimum":
			return nil
		case "best", "worst":
			if i+1 < len(toks) && (strings.HasPrefix(toks[i+1].s, "sell") || toks[i+1].s == "sold") {
				continue // "best selling", "best seller": what sold most
			}
			at, word = i, t.s
		}
	}
	if at < 0 || len(pl.Query.Order) != 1 {
		return nil
	}
	o := &pl.Query.Order[0]
	better := ""
	if mt := p.model(pl).Metric(o.Field); mt != nil {
		better = mt.Better
	}
	switch better {
	case "higher", "lower":
		desc := (word == "best") == (better == "higher")
		if pl.Query.Limit > 0 {
			// The title says which end the question asked for, not
			// which end of the numbers that is.
			was := fmt.Sprintf(", %s %d", map[bool]string{true: "top", false: "bottom"}[o.Desc], pl.Query.Limit)
			pl.Title = strings.Replace(pl.Title, was, fmt.Sprintf(", %s %d", word, pl.Query.Limit), 1)
		}
		// The reading said the order before it was turned round.
		was, now := "order by "+o.Field+" "+map[bool]string{true: "desc", false: "asc"}[o.Desc], "order by "+o.Field+" "+map[bool]string{true: "desc", false: "asc"}[desc]
		for i, u := range pl.Understood {
			if u == was {
				pl.Understood[i] = now
			}
		}
		o.Desc = desc
		dir := map[bool]string{true: "highest", false: "lowest"}[desc]
		pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as the %s %s (%s is better)", word, dir, o.Field, better))
		return nil
	}
	measure := strings.ReplaceAll(o.Field, "_", " ")
	if _, col, ok := strings.Cut(measure, "."); ok {
		measure = col
	}
	high := question[:toks[at].start] + "highest" + question[toks[at].end:]
	low := question[:toks[at].start] + "lowest" + question[toks[at].end:]
	cl := clarify(fmt.Sprintf("Is a higher %s better or worse? Ask for the highest or the lowest.", measure), high, low)
	cl.Reason = fmt.Sprintf("%q depends on which way %s is good, which the knowledge does not say (better: higher or lower on the metric)", word, measure)
	return cl
}
