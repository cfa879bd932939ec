package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Yes/no columns ("flags": is_active, refunded, IsOfficial 'T'/'F') are
// read as conditions on their rows where the question uses their word as
// an adjective or a state ("active employees", "inactive warehouses",
// "exceptions are unresolved"), never counted by their distinct values.

// flagValue returns the values meaning "yes" and "no" of a yes/no
// column, or nils: known values that are a yes/no pair (true/false, t/f,
// y/n, yes/no; 0/1 only where the name reads as a flag's, so that a
// quantity of 0 or 1 is none), or an integer column with none known named
// as one (is_active: 1 and 0).
func flagValue(c semantic.Column) (yes, no any) {
	if len(c.Values) == 0 && c.Type == quarry.TypeInt && semantic.FlagPrefixed(c.Name) {
		return int64(1), int64(0)
	}
	if len(c.Values) != 2 {
		return nil, nil
	}
	a, b := lower(c.Values[0]), lower(c.Values[1])
	for _, pair := range [][2]string{{"0", "1"}, {"false", "true"}, {"f", "t"}, {"n", "y"}, {"no", "yes"}} {
		for _, vs := range [][2]string{{a, b}, {b, a}} {
			if vs[0] == pair[0] && vs[1] == pair[1] {
				if pair[1] == "1" {
					if !semantic.FlagName(c.Name) {
						return nil, nil
					}
					return int64(1), int64(0)
				}
				if lower(c.Values[0]) == pair[1] {
					return c.Values[0], c.Values[1]
				}
				return c.Values[1], c.Values[0]
			}
		}
	}
	return nil, nil
}

// addFlagNegations reads the flag's adjective with un-, in- or non- as
// its no: "inactive" for is_active, "unresolved" for resolved. Only a
// flag's word is negated so: "unpaid" means nothing without a paid flag.
func (l *lexicon) addFlagNegations(name string, cs sense) {
	adj := semantic.FlagAdjective(name)
	if adj == "" || cs.flag == nil || cs.flagNo == nil {
		return
	}
	n := cs
	n.flag, n.flagNo = cs.flagNo, cs.flag
	n.strength = strAlias
	for _, prefix := range []string{"un", "in", "non"} {
		l.add(prefix+adj, n)
	}
}

// qualifies reports whether terms[i] can only qualify a noun that follows
// it: a value, a yes/no column, or a column right after a value of its own
// ("high priority").
func (b *builder) qualifies(terms []*term, i int) bool {
	t := terms[i]
	if len(only(t.cands, sValue)) > 0 && len(only(t.cands, sEntity, sMetric)) == 0 {
		return true
	}
	allFlags := len(t.cands) > 0
	for _, c := range t.cands {
		allFlags = allFlags && c.kind == sColumn && c.flag != nil
	}
	if allFlags {
		return true
	}
	if i > 0 && terms[i-1].pos == t.pos-1 {
		rows := len(only(t.cands, sEntity, sMetric)) > 0
		for _, v := range only(terms[i-1].cands, sValue) {
			for _, c := range t.cands {
				if rows && c.strength <= strAlias {
					// "cancelled orders": orders are the rows, not the
					// "order" of order_status (found from outside).
					continue
				}
				if (c.kind == sColumn || c.kind == sDim) && c.field == v.field {
					return true
				}
			}
		}
	}
	return false
}

// flagOfColumn reports whether q is a yes/no column of the one table of
// column t, used as its adjective: "how many official languages"
// (IsOfficial, Language) counts the languages that are official.
func flagOfColumn(q, t *term) bool {
	if len(q.cands) != 1 || q.cands[0].kind != sColumn || q.cands[0].flag == nil || len(t.cands) != 1 {
		return false
	}
	c := t.cands[0]
	return c.kind == sColumn && !c.key && c.flag == nil && strings.EqualFold(c.entity, q.cands[0].entity)
}

// flagFilter reads a yes/no column used as an adjective or a state of the
// rows as the condition it names: "discontinued products" is
// discontinued = 1; "not active", "inactive" (a sense whose yes is the
// flag's no) is_active = 0.
func (b *builder) flagFilter(t *term, s sense) {
	v := s.flag
	op := semantic.OpEq
	if t.neg && s.flagNo != nil {
		v = s.flagNo
	} else if t.neg {
		op = semantic.OpNe
	}
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: op, Values: []any{v}})
	b.und("filter %s %s %v", s.field, op, v)
	t.role = "filter"
}

// flagCount replans a count refused for counting a yes/no column said
// before the rows it qualifies, a value of another column ("how many
// neutered dogs", species Dog): as the rows that are so ("how many dogs
// that are neutered"). Found from outside: refused, though "how many
// dogs are neutered" was answered.
func (p *Planner) flagCount(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.flagCounted == "" {
		return nil
	}
	for _, t := range tokenize(question) {
		if t.s != pl.flagCounted {
			continue
		}
		rest := strings.Join(strings.Fields(question[:t.start]+" "+question[t.end:]), " ")
		rest = strings.TrimRight(rest, "?.! ")
		got := p.planWhole(rest+" that are "+pl.flagCounted, asOf)
		if got.Kind != KindMetric && pl.flagEntity != "" {
			// "how many refunds last year", of payments.is_refund: the
			// rows of its table that are so, where no other rows are
			// named (found from outside: COUNT(DISTINCT is_refund), 2).
			whole := strings.Join(strings.Fields(question[:t.start]+" "+display(pl.flagEntity)+" that are "+pl.flagCounted+" "+question[t.end:]), " ")
			got = p.planWhole(strings.TrimRight(whole, "?.! "), asOf)
		}
		if got.Kind != KindMetric {
			return nil
		}
		got.Understood = append(got.Understood, fmt.Sprintf("%q read as a condition on the rows counted", pl.flagCounted))
		return got
	}
	return nil
}
