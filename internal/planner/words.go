package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// nestedPeriods refuses a period named inside another ("the last week of
// May 2026", "the first quarter of 2025", "the last day of May"), which
// the date phrases read as two periods to compare: answered, it set May
// against last week.
func (b *builder) nestedPeriods() *Plan {
	ds := b.st.dates
	// Overlapping periods ("December last year", "2025 vs December
	// 2025"): compared, the rows of both would count in the first only.
	for i := range ds {
		for _, c := range ds[i+1:] {
			a := ds[i]
			if a.From != "" && a.To != "" && c.From != "" && c.To != "" && a.From < c.To && c.From < a.To {
				inner := a
				if c.Days() < a.Days() {
					inner = c
				}
				return b.fail(fmt.Sprintf("%q and %q overlap, and quarry compares only periods that do not; ask for one period (“%s”) or for two that do not overlap", a.Label, c.Label, inner.Label))
			}
		}
	}
	for i := 1; i < len(ds); i++ {
		a, c := ds[i-1], ds[i]
		if a.End > c.Start || c.Start > len(b.st.raw) {
			continue
		}
		if between := strings.ToLower(strings.TrimSpace(b.st.raw[a.End:c.Start])); between == "of" || between == "of the" || between == "in" {
			return b.fail(fmt.Sprintf("quarry reads %q as two periods, not one inside the other; ask for its first and last day (“from YYYY-MM-DD to YYYY-MM-DD”) or for the whole period", b.st.raw[a.Start:c.End]))
		}
	}
	return nil
}

// filterTitle is a filter as the title says it: "web", "not Electronics or
// Books", "discontinued" (a yes/no column's yes), "more than 5".
func filterTitle(f semantic.Filter) string {
	if f.OnRelated() {
		// "with refunded orders", "without web orders", "refunded
		// orders more than 2".
		what := display(f.Field)
		var conds []string
		for _, w := range f.Where {
			if (w.Op == semantic.OpGe || w.Op == semantic.OpLt) && len(w.Values) == 1 && isDateValue(w.Values[0]) {
				continue // the period, which the title names on its own
			}
			conds = append(conds, filterTitle(w))
		}
		if len(conds) > 0 {
			what = strings.Join(conds, ", ") + " " + what
		}
		switch {
		case f.Count && f.Op == semantic.OpEq && len(f.Values) == 1:
			if n, ok := semantic.NumberOf(f.Values[0]); ok && n == 1 {
				if i := strings.LastIndex(what, " ") + 1; singular(what[i:]) != "" {
					what = what[:i] + singular(what[i:])
				}
			}
			return fmt.Sprintf("exactly %v %s", f.Values[0], what) // not "orders 2"
		case f.Count:
			g := f
			g.Count, g.Where, g.Field = false, nil, what
			return filterTitle(g)
		case f.Op == semantic.OpNone:
			return "without " + what
		default:
			return "with " + what
		}
	}
	_, col, _ := strings.Cut(f.Field, ".")
	if col == "" {
		col = f.Field
	}
	switch f.Op {
	case semantic.OpNull:
		// "not closed" for closed_at, as OpNotNull's "closed"
		for _, suffix := range []string{" at", " on", " date"} {
			if d := display(col); strings.HasSuffix(d, suffix) && pastForm(strings.TrimSuffix(d, suffix)) {
				return "not " + strings.TrimSuffix(d, suffix)
			}
		}
		return "no " + display(col) // "orders (no discount code)"
	case semantic.OpNotNull:
		// "closed" for closed_at, "shipped" for shipped_on
		for _, suffix := range []string{" at", " on", " date"} {
			if d := display(col); strings.HasSuffix(d, suffix) && pastForm(strings.TrimSuffix(d, suffix)) {
				return strings.TrimSuffix(d, suffix)
			}
		}
		return "with " + display(col)
	}
	// A value held in several spellings ('ELECTRONICS', 'Electronics',
	// 'electronics') is named once.
	spelled := semantic.SpellingsOf(f.Values)
	vals := make([]string, len(spelled))
	yes, no := len(f.Values) > 0, len(f.Values) > 0
	for i, v := range spelled {
		vals[i] = v.Value
		switch strings.ToLower(vals[i]) {
		case "true", "yes":
			no = false
		case "false", "no":
			yes = false
		case "t", "y":
			// A letter is a flag's only where the column is named as one
			// ("sex = 'F'" is not "not sex").
			no = false
			yes = yes && flagName(f.Field)
		case "f", "n":
			yes = false
			no = no && flagName(f.Field)
		case "1":
			no = false
			yes = yes && flagName(f.Field)
		case "0":
			yes = false
			no = no && flagName(f.Field)
		default:
			yes, no = false, false
		}
	}
	op := ""
	switch f.Op {
	case semantic.OpNe, semantic.OpNotIn:
		op = "not "
		yes, no = no, yes
	case semantic.OpEq, semantic.OpIn:
	case semantic.OpGt:
		op = "more than "
	case semantic.OpGe:
		op = "at least "
	case semantic.OpLt:
		op = "less than "
	case semantic.OpLe:
		op = "at most "
	default:
		op = string(f.Op) + " "
	}
	if dated := len(f.Values) > 0; dated {
		// A bound on a date reads as one: "signup date before 2026-01-01".
		for _, v := range f.Values {
			dated = dated && isDateValue(v)
		}
		if dated {
			switch f.Op {
			case semantic.OpGt:
				op = "after "
			case semantic.OpGe:
				op = "on or after "
			case semantic.OpLt:
				op = "before "
			case semantic.OpLe:
				op = "on or before "
			}
		}
	}
	switch {
	case yes && (f.Op == semantic.OpEq || f.Op == semantic.OpNe || f.Op == semantic.OpIn || f.Op == semantic.OpNotIn):
		return display(col)
	case no && (f.Op == semantic.OpEq || f.Op == semantic.OpNe || f.Op == semantic.OpIn || f.Op == semantic.OpNotIn):
		return "not " + display(col)
	}
	switch f.Op {
	case semantic.OpGt, semantic.OpGe, semantic.OpLt, semantic.OpLe:
		if f.Against != "" {
			return display(col) + " " + op + "the " + semantic.AgainstName(f.Against)
		}
		return display(col) + " " + op + strings.Join(vals, " or ")
	}
	if len(vals) == 1 && isNumber(vals[0]) {
		return display(col) + " " + op + vals[0] // "pages 1", not "1"
	}
	return op + strings.Join(vals, " or ")
}

// copulaRE is the verb that separates the rows a share is of from its
// condition: "what share of UK orders were refunded".
var copulaRE = lazyRE(`\b(were|are|is|was|have been|has been|got|get)\b`)

// splitShare splits a share's filters into its condition (the numerator:
// after the verb, "were refunded") and the rows it is a share of (both
// sides: before the verb, "UK orders"). One filter with no verb is the
// condition ("percentage of refunded orders"). It reports false when it
// cannot tell.
func (b *builder) splitShare(fs []semantic.Filter) (num, pop []semantic.Filter, ok bool) {
	low := strings.ToLower(b.st.raw)
	loc := copulaRE().FindStringIndex(low)
	if loc == nil {
		return fs, nil, len(fs) == 1
	}
	var placed []semantic.Filter // after the verb, behind "in", "on", "for" …
	for _, f := range fs {
		at := filterPos(low, f)
		switch {
		case at < 0:
			return nil, nil, false
		case at < loc[0]:
			pop = append(pop, f)
		case populationWords[lastWord(low[:at])] && !qualifiesVerb(low[loc[1]:at], f):
			placed = append(placed, f)
		default:
			num = append(num, f)
		}
	}
	if len(num) > 0 {
		// "what percent of orders are refunded in Germany": the
		// condition right after the verb, the rows it is a share of
		// behind a preposition after it (found from outside: the
		// share of all orders refunded and German, 0.6% for 5.1%).
		return num, append(pop, placed...), true
	}
	return placed, pop, len(placed) > 0
}

// qualifiesVerb reports whether filter f, behind a preposition after a
// share's verb, says how the verb was done: its column is named for the
// verb ("paid in cash", orders.payment_method), so it is part of the
// condition, not the rows the share is of (found from outside: "what
// percentage of orders were paid in cash" read as the share of cash
// orders that were paid, 100% for 13.4%, at 1.00).
func qualifiesVerb(between string, f semantic.Filter) bool {
	_, col, _ := strings.Cut(f.Field, ".")
	for _, t := range tokenize(between) {
		v := stemWord(t.s)
		if len(v) < 3 || !isAlpha(v) {
			continue
		}
		for _, w := range nameWords(col) {
			if strings.HasPrefix(stemWord(w), v) {
				return true
			}
		}
	}
	return false
}

// populationWords introduce, after a share's condition, the rows the
// share is taken of: "… refunded in Germany", "… cancelled on web".
var populationWords = map[string]bool{"in": true, "on": true, "for": true, "among": true, "within": true, "at": true, "via": true, "through": true}

// groupedShare reads which of a grouped share's filters are its condition
// (the numerator in each group) and which the rows it is a share of (both
// sides). A filter is the condition when it comes before the share word
// ("mobile share of orders", "refunded orders as a share of all orders"),
// after a verb ("were refunded", "come from ads"), or right after "from",
// "that", "which" or "who" ("share of orders from mobile", "percentage of
// sessions that converted"), or straight after the rows it qualifies
// ("percent of orders refunded"); it is the rows the share is of after
// "for", "among" or "within", or before the rows' name ("share of UK
// orders by channel"). No filter at all is each group's part of the total.
// It reports false when a filter fits neither.
func (b *builder) groupedShare(fs []semantic.Filter) ([]semantic.Filter, bool) {
	if len(fs) == 0 {
		return nil, true
	}
	low := strings.ToLower(b.st.raw)
	shareAt := shareWordRE().FindStringIndex(low)
	if shareAt == nil {
		// "cancelled rate by clinic", read as a share (valueRate).
		shareAt = rateWordRE().FindStringIndex(low)
	}
	if shareAt == nil {
		return nil, false
	}
	copula := copulaRE().FindStringIndex(low[shareAt[1]:])
	var cases []semantic.Filter
	for _, f := range fs {
		at := b.termPos(low, f)
		if at < 0 {
			at = filterPos(low, f)
		}
		if at < 0 {
			return nil, false
		}
		before := lastWord(low[:at])
		switch {
		case at < shareAt[0]:
			cases = append(cases, f)
		case copula != nil && at >= shareAt[1]+copula[1]:
			cases = append(cases, f)
		case before == "from" || before == "that" || before == "which" || before == "who":
			cases = append(cases, f)
		case before == "for" || before == "among" || before == "within":
		case before == "of" || before == "all":
			// "share of UK orders": the rows the share is of.
		case b.rowsWord(before):
			// "percent of orders refunded": the rows, then the condition.
			cases = append(cases, f)
		default:
			return nil, false
		}
	}
	return cases, true
}

// subsetBeforeShare reports whether the metric is named before the share
// word ("refund % by channel", "gross profit % by channel"), where the
// share may be a rate in each group (refunds of orders, profit of revenue)
// as well as each group's part of the total; "share of refunds by channel"
// names the parts.
func (b *builder) subsetBeforeShare(metric string) bool {
	if b.p.m.Metric(metric) == nil {
		return false
	}
	low := strings.ToLower(b.st.raw)
	share := shareWordRE().FindStringIndex(low)
	if share == nil {
		return false
	}
	for _, t := range b.st.terms {
		if t.it == nil || !hasMetric(t.cands, metric) {
			continue
		}
		if at := wordAt(low, t.it.text, 0); at >= 0 && at < share[0] {
			return true
		}
	}
	return false
}

func hasMetric(ss []sense, name string) bool {
	for _, s := range ss {
		if s.kind == sMetric && strings.EqualFold(s.name, name) {
			return true
		}
	}
	return false
}

// topShareRE is a share taken of a ranking's top rows together.
var topShareRE = lazyRE(`\b(from|of|by|for) (the )?(top|bottom|first|last|largest|biggest|smallest) \d+\b`)

// asShareRE is "X as a share of Y".
var asShareRE = lazyRE(`\bas an? (share|percentage|percent|proportion|fraction|part) of\b`)

// rateWordRE is a word that asks for a rate, read as a share where a
// value's rate is (valueRate: "cancelled rate by clinic").
var rateWordRE = lazyRE(`\b(rate|ratio)\b`)

// shareWordRE is a word that asks for a share.
var shareWordRE = lazyRE(`\b(share|percentage|percent|proportion|fraction|part)\b|%`)

// lastWord is the last word of s.
func lastWord(s string) string {
	fs := strings.Fields(strings.TrimRight(s, " '’"))
	if len(fs) == 0 {
		return ""
	}
	return strings.Trim(fs[len(fs)-1], ",.;:'’")
}

// rowsWord reports whether w names the rows a measure counts or sums: a
// table or a metric of the model.
func (b *builder) rowsWord(w string) bool {
	for _, s := range b.p.lex.senses(w) {
		if s.kind == sEntity || s.kind == sMetric {
			return true
		}
	}
	return false
}

// sameFilter reports whether two filters are the same condition.
func sameFilter(a, b semantic.Filter) bool {
	return a.Field == b.Field && a.Op == b.Op && fmt.Sprint(a.Values) == fmt.Sprint(b.Values)
}

// termPos is where in low the question says the value f keeps, by the
// words of the term read as it ("cancellation" for status 'cancelled',
// dateRate); -1 where no term was.
func (b *builder) termPos(low string, f semantic.Filter) int {
	// "no-show" is read as the words "no show": compared with the marks
	// between words as spaces, each one character as before.
	spaced := strings.NewReplacer("-", " ", "_", " ")
	low = spaced.Replace(low)
	for _, t := range b.st.terms {
		if t.it == nil || len(t.cands) != 1 || t.cands[0].kind != sValue || !strings.EqualFold(t.cands[0].field, f.Field) {
			continue
		}
		if !slices.ContainsFunc(f.Values, func(v any) bool { return strings.EqualFold(fmt.Sprint(v), t.cands[0].value) }) {
			continue
		}
		if at := wordAt(low, spaced.Replace(strings.ToLower(t.it.text)), 0); at >= 0 {
			return at
		}
	}
	return -1
}

// filterPos is where a filter's value (or, for a yes/no column, its
// column's name) is in the question, or -1.
func filterPos(low string, f semantic.Filter) int {
	var words []string
	for _, v := range f.Values {
		words = append(words, strings.ToLower(fmt.Sprint(v)))
	}
	_, col, _ := strings.Cut(f.Field, ".")
	if col == "" {
		col = f.Field
	}
	words = append(words, strings.Split(strings.ToLower(col), "_")...)
	for _, w := range words {
		if len(w) < 2 {
			continue
		}
		if m := regexp.MustCompile(`\b` + regexp.QuoteMeta(w)).FindStringIndex(low); m != nil {
			return m[0]
		}
	}
	return -1
}

// shareText is a share's condition as a reader says it: "refunded",
// "Billing", "discontinued".
func shareText(fs []semantic.Filter) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		_, col, ok := strings.Cut(f.Field, ".")
		if !ok {
			col = f.Field
		}
		t := filterTitle(f)
		switch {
		case (f.Op == semantic.OpEq || f.Op == semantic.OpIn) && t != display(col):
			t = display(col) + " is " + t // "country is Germany"
		case f.Op == semantic.OpNotNull:
			t = display(col) + " is set" // "discount code is set"
		case f.Op == semantic.OpNull:
			t = display(col) + " is empty"
		}
		parts[i] = t
	}
	return strings.Join(parts, " and ")
}

// flagName reports whether a column's name reads as a yes/no flag
// ("discontinued", "is_active", "has_coupon"), whose 1 means yes.
func flagName(field string) bool {
	_, col, ok := strings.Cut(field, ".")
	if !ok {
		col = field
	}
	return semantic.FlagName(col)
}

// sharesWord reports whether a phrase and an entity's name have a word of
// three letters or more in common ("customer support", support_tickets).
func sharesWord(phrase, entity string) bool {
	names := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(entity), func(r rune) bool { return r == '_' || r == ' ' }) {
		names[singular(w)] = true
	}
	for _, w := range strings.Fields(strings.ToLower(phrase)) {
		if len(w) >= 3 && names[singular(w)] {
			return true
		}
	}
	return false
}

// display is a name as a sentence writes it: "unit price", "MRR".
func display(name string) string {
	// "nordics travel passengers" of nordics_travel__passengers: one
	// space however many underscores.
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' })
	for i, w := range words {
		if semantic.IsAcronym(w) {
			words[i] = strings.ToUpper(w)
		}
	}
	return strings.Join(words, " ")
}
