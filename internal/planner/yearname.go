package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/planner/dates"
)

// Names that end in a year. Warehouses name copies of a table after a
// year (orders_2019), and "how many orders_2019" is not orders in 2019.
// A date written joined to a word by an underscore, or to the word after
// it, is part of a name, never a date (notDates). A year after a space
// that completes a table's name ("how many orders 2019" where orders_2019
// is a table) could be either, and is asked about (yearOrTable).

// notDates drops the dates of q that are joined to a word by an
// underscore ("orders_2019", "2019_orders").
func notDates(q string, rngs []dates.Range) []dates.Range {
	out := rngs[:0:0]
	for _, r := range rngs {
		if r.Start > 0 && q[r.Start-1] == '_' || r.End < len(q) && q[r.End] == '_' {
			continue
		}
		out = append(out, r)
	}
	return out
}

// valueDates drops, of the periods found, those that end a known value
// with the words before them: "Fall 2025" and "Spring 2026" are names
// of terms (terms.term_name), not the year 2025 after an unknown "fall"
// (found from outside: every question about a term named so refused).
func (p *Planner) valueDates(toks []token, rngs []dates.Range) []dates.Range {
	out := rngs[:0:0]
next:
	for _, r := range rngs {
		i := slices.IndexFunc(toks, func(t token) bool { return t.start == r.Start })
		j := slices.IndexFunc(toks, func(t token) bool { return t.end == r.End })
		for n := 1; i >= n && j >= i && n <= 3; n++ {
			if ss, ok := p.lex.get(join(toks[i-n : j+1])); ok && len(only(ss, sValue)) > 0 {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// yearOrTable asks, of a year right after words that with it name a
// table ("orders 2019" and the table orders_2019), which is meant: the
// table, or the rows of the words' own table in that year.
func (p *Planner) yearOrTable(q string, toks []token, rngs []dates.Range) *Plan {
	for _, r := range rngs {
		i := 0
		for i < len(toks) && toks[i].start != r.Start {
			i++
		}
		// A bare year: one token of four digits, after a space.
		if i == 0 || i >= len(toks) || toks[i].end != r.End || len(toks[i].s) != 4 || !isNumber(toks[i].s) || q[r.Start-1] != ' ' {
			continue
		}
		for n := min(i, p.lex.maxLen-1); n >= 1; n-- {
			words := join(toks[i-n : i+1])
			var table string
			for _, s := range p.lex.phrases[words] {
				if s.kind == sEntity && s.strength == strName {
					table = s.name
				}
			}
			if table == "" {
				continue
			}
			named := q[:toks[i-n].start] + table + q[r.End:]
			dated := q[:toks[i].start] + "in " + q[toks[i].start:]
			return clarify(fmt.Sprintf("Do you mean the table %s, or %s in %s?", table, strings.TrimSpace(q[toks[i-n].start:toks[i-1].end]), toks[i].s), named, dated)
		}
	}
	return nil
}
