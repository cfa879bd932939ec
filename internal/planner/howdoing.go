package planner

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/semantic"
)

// howDoingRE matches "how's business", "how is Germany doing": how
// something is doing, group 1 the something.
var howDoingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*how(?:'s|’s|s| is| are| was| were)\s+(.+?)\s*(?:doing|going|looking|performing|coming along)?\s*[?.!]*\s*$`)
})

// verbAfterRE matches a verb after "did we", "do you" …: group 1.
var verbAfterRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:did|do|does|will|can|could|should|would)\s+(?:we|you|they|i|he|she|it)\s+([a-z]+)`)
})

// valueMisread refuses a plan that reads a word the question uses
// otherwise as a value (found from outside, on the demo):
//   - "how's business": how something is doing, answered as the number
//     of customers in the business segment, at full confidence; a count
//     of a table the question never names, with a value its only
//     condition, answers no "how is it doing";
//   - "what did we book last month": the verb after "did we", read as
//     the Books category.
//
// nil where it reads no such thing.
func (p *Planner) valueMisread(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	values := filterValues(pl.Query.Filters)
	if m := verbAfterRE().FindStringSubmatch(question); m != nil {
		verb := strings.ToLower(m[1])
		for _, v := range values {
			if stemWord(verb) == stemWord(strings.ToLower(v.value)) {
				return p.unanswered(&state{}, fmt.Sprintf("%q after %q is what was done, not the value %q of %s; name the rows or the measure (“how many … last month”)", verb, strings.ToLower(strings.TrimSpace(m[0][:len(m[0])-len(m[1])])), v.value, v.field))
			}
		}
	}
	m := howDoingRE().FindStringSubmatch(question)
	if m == nil || strings.HasPrefix(strings.ToLower(m[1]), "many ") || strings.HasPrefix(strings.ToLower(m[1]), "much ") || !p.countsOnly(pl) || len(values) == 0 || len(values) != len(pl.Query.Filters) {
		return nil
	}
	entity := p.metricEntity(pl.Query.Metrics[0], pl.AdHoc)
	if e := p.entity(entity); e == nil || p.namesTable(m[1], e) {
		return nil // "how are German customers doing": the customers, counted
	}
	return p.unanswered(&state{}, fmt.Sprintf("“%s” asks how something is doing, and quarry read %q only as a value of %s; name the measure and what it is of (“revenue from %s customers this year”)", strings.TrimSpace(question), values[0].value, values[0].field, values[0].value))
}

// fieldValue is a value a filter compares with, and its field.
type fieldValue struct{ field, value string }

// filterValues are the text values the equality filters compare with,
// those on related rows included.
func filterValues(fs []semantic.Filter) []fieldValue {
	var out []fieldValue
	for _, f := range fs {
		if f.Op == semantic.OpEq || f.Op == semantic.OpIn {
			for _, v := range f.Values {
				if s, ok := v.(string); ok {
					out = append(out, fieldValue{f.Field, s})
				}
			}
		}
		out = append(out, filterValues(f.Where)...)
	}
	return out
}

// namesTable reports whether text names e by a form of its name or a
// synonym.
func (p *Planner) namesTable(text string, e *semantic.Entity) bool {
	for _, t := range tokenize(text) {
		for _, s := range only(p.lex.senses(t.s), sEntity) {
			if strings.EqualFold(s.name, e.Name) {
				return true
			}
		}
	}
	return false
}
