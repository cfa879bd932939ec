package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// whichNumber asks, of a comparison with a number and nothing it
// compares ("how many claims over $50,000", "orders over 500 last
// month"), which of the one named table's numbers it compares, where the
// table has more than one the number may be (an amount claimed and an
// amount approved; a total and a number of covers). Each option is the
// question with the column named, and is offered only where it plans to
// the rows counted or listed; nil where there is no such table or choice
// (found from outside: refused as "a comparison without a number or a
// measure", which says nothing of what to ask).
func (p *Planner) whichNumber(question string, asOf time.Time, toks []token, at int, entity string) *Plan {
	e := p.entity(entity)
	if e == nil {
		return nil
	}
	money := moneySaid(question[toks[at].start:])
	var opts, names []string
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || strings.EqualFold(c.Name, e.PrimaryKey) || p.isForeignKey(e.Name, c.Name) || flagName(c.Name) && !moneyName(c.Name) || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		if len(c.Values) > 0 && !slices.ContainsFunc(c.Values, func(v string) bool { return v != "0" && v != "1" }) {
			continue // holds 0 and 1 alone
		}
		if money && !moneyName(c.Name) && !p.moneyColumn(e.Name, c.Name) {
			continue // "over $50,000": an amount, not a count of covers
		}
		words := strings.Join(nameWords(c.Name), " ")
		if strings.Contains(strings.ToLower(question), " "+words+" ") {
			return nil // named already, and still bare
		}
		art := "a "
		switch last := lastWordOf(words); {
		case singular(last) != last:
			art = "" // "with covers over 500"
		case strings.ContainsRune("aeiou", rune(words[0])):
			art = "an "
		}
		read := question[:toks[at].start] + "with " + art + words + " " + question[toks[at].start:]
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric && again.Kind != KindRows || again.Query == nil {
			continue
		}
		counted := ""
		if again.Query.Rows != nil {
			counted = again.Query.Rows.Entity
		} else if len(again.Query.Metrics) == 1 {
			counted = p.metricEntity(again.Query.Metrics[0], again.AdHoc)
		}
		if !strings.EqualFold(counted, e.Name) {
			continue
		}
		opts, names = append(opts, read), append(names, words)
	}
	if len(opts) < 2 || len(opts) > 6 {
		return nil
	}
	if one := p.oneAmount(e.Name); one != "" {
		// The table's one amount first: "total or covers".
		i := slices.Index(names, strings.Join(nameWords(one), " "))
		if i > 0 {
			opts = append(append([]string{opts[i]}, opts[:i]...), opts[i+1:]...)
			names = append(append([]string{names[i]}, names[:i]...), names[i+1:]...)
		}
	}
	end := toks[at].end
	for _, t := range toks[at:] {
		end = t.end
		if isNumber(t.s) {
			break
		}
	}
	return clarify(fmt.Sprintf("Which number of each %s is %s: %s?", singular(strings.ToLower(display(e.Name))), strings.TrimSpace(question[toks[at].start:end]), orList(names)), opts...)
}

// moneyColumn reports whether the knowledge gives column of entity a
// currency unit (USD).
func (p *Planner) moneyColumn(entity, column string) bool {
	c := p.column(entity, column)
	return c != nil && len(c.Unit) == 3 && strings.ToUpper(c.Unit) == c.Unit
}

// whichAmount asks, of an average refused because it is of a table's rows
// ("average claim amount", "which cause has the highest average claim
// amount"), which of the table's amounts it is, where it has several and
// no one total (an amount claimed and an amount approved): each option
// the question with the table's word, and "amount" or "value" after it,
// in the column's words, offered only where it plans (found from outside:
// refused as "an average of claims is not something quarry can read").
func (p *Planner) whichAmount(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || pl.avgOf == "" {
		return nil
	}
	e := p.entity(pl.avgOf)
	if e == nil || p.oneAmount(e.Name) != "" {
		return nil
	}
	toks := tokenize(question)
	word := stemKey(lastWordOf(strings.ToLower(display(e.Name))))
	at, end := -1, -1
	for i, t := range toks {
		if stemKey(t.s) == word {
			at, end = i, i
			if i+1 < len(toks) && (toks[i+1].s == "amount" || toks[i+1].s == "value" || toks[i+1].s == "size") {
				end = i + 1
			}
			break
		}
	}
	if at < 0 {
		return nil
	}
	var opts, names []string
	for _, c := range e.Columns {
		if !c.Type.IsNumeric() || !moneyName(c.Name) && !p.moneyColumn(e.Name, c.Name) || p.isForeignKey(e.Name, c.Name) || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		words := strings.Join(nameWords(c.Name), " ")
		read := question[:toks[at].start] + words + question[toks[end].end:]
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric || again.Query == nil {
			continue
		}
		opts, names = append(opts, read), append(names, words)
	}
	if len(opts) < 2 || len(opts) > 6 {
		return nil
	}
	return clarify(fmt.Sprintf("Which amount of each %s: %s?", singular(strings.ToLower(display(e.Name))), orList(names)), opts...)
}
