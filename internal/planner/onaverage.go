package planner

import (
	"fmt"
	"strings"
	"time"
)

// onAverage replans "how many lessons did each student have on
// average" (or "on average, how many lessons does a student take") as
// the average per entity it asks for: "average number of lessons per
// student", with what follows the verb (a period) kept. Nil where the
// question is not of that shape, names no one table after its
// determiner, or is not answered so (found from outside: "an average of
// nothing named after it").
func (p *Planner) onAverage(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	avg := -1
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].s == "on" && toks[i+1].s == "average" {
			avg = i
		}
	}
	if avg < 0 {
		return nil
	}
	many := -1
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].s == "how" && toks[i+1].s == "many" {
			many = i
			break
		}
	}
	if many < 0 {
		return nil
	}
	// The rows counted, up to the auxiliary verb.
	aux := -1
	for i := many + 2; i < len(toks); i++ {
		switch toks[i].s {
		case "did", "does", "do", "will", "would", "has", "have", "had", "is", "are", "was", "were":
			aux = i
		}
		if aux >= 0 {
			break
		}
	}
	if aux <= many+2 || aux+2 >= len(toks) {
		return nil
	}
	j := aux + 1
	switch toks[j].s {
	case "each", "a", "an", "the", "every", "one", "per", "our":
		j++ // "did students have": the table alone
	}
	// The table each row of which the average is per, by its longest name.
	entity, n := p.perEntity(toks[j:])
	end := j + n
	if entity == "" || end >= len(toks) {
		return nil
	}
	// What follows the verb after it ("have", "take"), without "on
	// average".
	var rest []string
	for i := end + 1; i < len(toks); i++ {
		if i == avg || i == avg+1 {
			continue
		}
		rest = append(rest, question[toks[i].start:toks[i].end])
	}
	read := strings.TrimSpace(fmt.Sprintf("average number of %s per %s %s", question[toks[many+2].start:toks[aux-1].end], question[toks[j].start:toks[end-1].end], strings.Join(rest, " ")))
	again := p.planQuestion(read, asOf)
	if again.Kind != KindMetric || again.Query == nil {
		return nil
	}
	again.readAs(read, fmt.Sprintf("%q read as the average per %s", "on average", singular(strings.ToLower(display(entity)))))
	return again
}
