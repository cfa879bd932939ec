package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// valueFilters turns value terms into filters, joining values of one
// column written "A and B" or "A or B" into one IN filter.
func (b *builder) valueFilters() *Plan {
	var last *semantic.Filter
	var lastField, lastText string
	for _, t := range b.st.terms {
		if t.role != "value" {
			continue
		}
		s, pl := b.spelledAs(t)
		if pl != nil {
			return pl
		}
		if t.hasNum {
			// A comparison landed on a value ("over 100 Electronics"):
			// say so rather than drop the number. It compares nothing
			// the question names, and bareAmount may read it as the
			// amount of the rows ("invoices over 400 issued this year",
			// issued a status; found from outside: refused).
			pl := b.fail(fmt.Sprintf("quarry could not tell what “%s %s” compares; put it right after the column, such as “price over %s”", t.op, numText(t.num), numText(t.num)))
			pl.bareComparison = true
			return pl
		}
		if b.subject == "" {
			b.subject = s.entity
		}
		if pl := b.calledOther(t, s); pl != nil {
			return pl
		}
		if date := b.valueNamesEvent(t, s); date != "" {
			t.role = "context"
			b.undoneOut(t, s, date)
			if len(b.st.dates) == 0 {
				// No period: the rows that had the event, whatever
				// their state now.
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.entity + "." + date, Op: semantic.OpNotNull})
				if len(b.st.grains) > 0 || b.st.trend {
					b.eventGrain = s.entity + "." + date
				}
				b.und("%q read as the event of %s.%s: the %s rows that have one, not their %s %q", t.it.text, s.entity, date, s.entity, s.column, s.value)
				continue
			}
			if e := b.p.entity(s.entity); e == nil || !strings.EqualFold(e.TimeColumn, date) {
				b.eventDate = s.entity + "." + date
			}
			b.und("%q read as the event that dated the %s rows (%s.%s), not their %s %q", t.it.text, s.entity, s.entity, date, s.column, s.value)
			continue
		}
		if !b.p.reachable(b.subject, s.entity) {
			return b.fail(fmt.Sprintf("%q is a value of %s.%s, which is not related to %s", t.it.text, s.entity, s.column, b.subject))
		}
		if pl := b.ownLinkNamed(t, s); pl != nil {
			return pl
		}
		op := semantic.OpEq
		if t.neg {
			op = semantic.OpNe
		}
		if last != nil && t.conj && lastField == s.field && last.Op == op {
			if op == semantic.OpEq && b.bothValues(lastText, t.it.text) {
				if b.bothOfSome(last, s) {
					last = nil
					continue
				}
				// "orders that were refunded and cancelled": no row is
				// both (found from outside: it was read as either).
				return b.fail(fmt.Sprintf("a row has one value of %s, so it cannot be both %s and %s; say “%s or %s” for either", s.field, lastText, t.it.text, lastText, t.it.text))
			}
			last.Values = append(last.Values, s.value)
			b.und("or %s = %s", s.field, s.value)
			continue
		}
		// "except Electronics and Books", "not in Germany or France": the
		// negation covers the whole list of one column's values (found
		// from outside: only the first was negated and the rest became
		// "only").
		if last != nil && t.conj && lastField == s.field && (last.Op == semantic.OpNe || last.Op == semantic.OpNotIn) && op == semantic.OpEq {
			last.Op = semantic.OpNotIn
			last.Values = append(last.Values, s.value)
			b.und("nor %s = %s", s.field, s.value)
			continue
		}
		if merged := b.compareValues(s, op); merged {
			continue
		}
		said := false
		for _, f := range b.q.Filters {
			if f.Field == s.field && f.Op == semantic.OpEq && op == semantic.OpEq {
				if len(f.Values) == 1 && strings.EqualFold(fmt.Sprint(f.Values[0]), s.value) {
					// "tickets with status submitted were submitted last
					// month": the one value, said again.
					said = true
					break
				}
				return b.fail(fmt.Sprintf("the question names two values of %s (%v and %s); say “%v or %s” to include both", s.field, f.Values[0], s.value, f.Values[0], s.value))
			}
		}
		if said {
			t.role = "context"
			continue
		}
		field := s.field
		if ro := b.selfRole(t, s); ro != nil {
			field = ro.Name + "." + s.column
			if !hasString(b.q.Via, ro.Name) {
				b.q.Via = append(b.q.Via, ro.Name)
			}
			b.und("%q read as the %s's %s (%s), not the %s row's own", t.it.text, display(ro.Name), s.column, ro.Role.Via(), singular(display(s.entity)))
		}
		if op == semantic.OpNe {
			undone, never := b.undoneAfter(s), b.neverDone(s)
			if len(undone)+len(never) > 0 {
				// "unpaid invoices": not paid, nor paid and refunded,
				// nor void or written off, which are owed by no one.
				vs := append(append([]any{s.value}, undone...), never...)
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpNotIn, Values: vs})
				last, lastField, lastText = &b.q.Filters[len(b.q.Filters)-1], field, t.it.text
				if len(undone) > 0 {
					b.und("not %s keeps out the %s rows whose %s is %v too: those were %s first", s.value, s.entity, s.column, undone, s.value)
				}
				if len(never) > 0 {
					b.und("not %s keeps out the %s rows whose %s is %v too: those will never be %s", s.value, s.entity, s.column, never, s.value)
					b.notes = append(b.notes, fmt.Sprintf("not %s leaves out the %s marked %s, which never will be", s.value, display(s.entity), orValues(never)))
				}
				continue
			}
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: op, Values: []any{s.value}})
		last, lastField, lastText = &b.q.Filters[len(b.q.Filters)-1], field, t.it.text
		b.und("filter %s %s %s", field, op, s.value)
	}
	return nil
}

// bothOfSome reads two values of a column of a table the subject's rows
// must have rows of, said "both A and B" ("sellers who have listings in
// both books and toys"), as a row of each: last, the filter on the first,
// becomes the condition of having a row of it, and one of having a row of
// s's value is added; withSome adds no bare condition on that table (found
// from outside: refused, as a row cannot be both). It reports whether it
// did.
func (b *builder) bothOfSome(last *semantic.Filter, s sense) bool {
	if !containsFold(b.st.some, s.entity) || last.Field != s.field || len(last.Values) != 1 {
		return false
	}
	first := last.Values[0]
	*last = semantic.Filter{Field: s.entity, Op: semantic.OpSome, Where: []semantic.Filter{{Field: s.field, Op: semantic.OpEq, Values: []any{first}}}}
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.entity, Op: semantic.OpSome, Where: []semantic.Filter{{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}}}})
	b.st.bothOf = append(b.st.bothOf, s.entity)
	b.und("with %s rows of both %s = %v and %s = %s", s.entity, s.field, first, s.field, s.value)
	return true
}

// undoneAfter are the values of s's column that say what s's value says
// happened was then undone ('refunded' beside 'paid', 'returned' beside
// 'delivered'): a row so marked had that happen, so "not paid", "unpaid"
// keeps it out too (found from outside: 593 unpaid invoices, 217 of them
// refunded, at 1.00).
func (b *builder) undoneAfter(s sense) []any { return b.othersOfDone(s, reversal) }

// neverDone are the values of s's column that say what s's value says
// will never happen ('uncollectible', 'cancelled' beside 'paid'): a row
// so marked is no more owed than a paid one, so "unpaid", "not paid"
// keeps it out too (found from outside: 65 invoices written off counted
// as unpaid and overdue).
func (b *builder) neverDone(s sense) []any {
	return b.othersOfDone(s, func(v string) bool { return !reversal(v) && neverState(v) })
}

// othersOfDone are the other values of s's column that keep says of it,
// where s's value says something went through ('paid'); nil otherwise.
func (b *builder) othersOfDone(s sense, keep func(string) bool) []any {
	if !doneState(s.value) {
		return nil
	}
	e := b.p.entity(s.entity)
	if e == nil {
		return nil
	}
	c := e.Column(s.column)
	if c == nil {
		return nil
	}
	var out []any
	for _, v := range c.Values {
		if !semantic.SameSpelling(v, s.value) && keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// orValues is values quoted and joined by "or": 'void' or 'uncollectible'.
func orValues(values []any) string {
	var out []string
	for _, v := range values {
		out = append(out, fmt.Sprintf("'%v'", v))
	}
	return strings.Join(out, " or ")
}

// neverState reports whether a status value says a row was let go before
// it went through (semantic.CalledOff: cancelled, written off), other
// than void, which every count leaves out already (realRows), and a
// decision (rejected, declined), which a status of money does not hold.
func neverState(v string) bool {
	f := semantic.Fold(v)
	return semantic.CalledOff(v) && f != "void" && f != "voided" && !semantic.DecisionState(f)
}

// doneState reports whether a status value says money or goods went
// through: what a refund or a return undoes.
func doneState(v string) bool {
	for _, w := range semantic.NameWords(v) {
		switch w {
		case "paid", "charged", "captured", "settled", "collected", "delivered", "shipped", "sold", "purchased", "fulfilled":
			return true
		}
	}
	return false
}

// reversal reports whether a status value says what went through was
// undone: refunded, returned, reversed, charged back.
func reversal(v string) bool {
	for _, w := range semantic.NameWords(v) {
		switch w {
		case "refunded", "refund", "returned", "reversed", "chargeback", "chargedback", "reversal":
			return true
		}
	}
	n := strings.ToLower(v)
	return strings.Contains(n, "charged back") || strings.Contains(n, "charged_back")
}

// selfRole is the role of a table's link to itself that the term right
// before t names, by the link's key column or by the role's word, when t
// is a value of that same table: "customers referred by Priya Dawson" are
// those whose referrer is named Priya Dawson, not the customers of that
// name (found from outside: namesakes listed at confidence 1), and so is
// "customers whose referrer is Priya Dawson". nil otherwise: a value said
// elsewhere is the row's own ("customers in Germany referred by …").
func (b *builder) selfRole(t *term, s sense) *semantic.Entity {
	i := slices.Index(b.st.terms, t)
	if i < 1 || s.column == "" {
		return nil
	}
	prev := b.st.terms[i-1]
	if !oneBreath(b.st.text, prev.it.text, t.it.text) {
		return nil
	}
	for j := range b.p.m.Entities {
		e := &b.p.m.Entities[j]
		ro := e.Role
		if ro == nil || !strings.EqualFold(ro.Of, ro.From) || !strings.EqualFold(ro.Of, s.entity) {
			continue
		}
		for _, c := range prev.cands {
			switch {
			case participleAlias(prev, c):
				// "referred in Germany": the participle alone names no
				// one; "referred by someone in Germany" does.
			case c.kind == sColumn && strings.EqualFold(c.entity, ro.From) && strings.EqualFold(c.column, ro.FromColumn),
				c.kind == sEntity && strings.EqualFold(c.name, e.Name):
				return e
			}
		}
	}
	return nil
}

// roleBeforeValue reports whether t names a table's link to itself by
// its key column, with a value of that table said next, which selfRole
// reads as the linked row's: "referred by" of "how many customers were
// referred by Grace Dawson" says whose name it is, and is no column to
// show or group by (found from outside: refused as a column left over).
func (b *builder) roleBeforeValue(t *term) bool {
	i := slices.Index(b.st.terms, t)
	if i < 0 || i+1 >= len(b.st.terms) {
		return false
	}
	next := b.st.terms[i+1]
	if len(next.cands) == 0 || next.cands[0].kind != sValue {
		return false
	}
	if b.selfRole(next, next.cands[0]) != nil {
		return true
	}
	// "refund requests approved by Helga Brandt": the one link of the
	// rows to staff, named by its key column before a name of staff.
	s := t.cands[0]
	return s.kind == sColumn && s.key && !participleAlias(t, s) && b.p.linksToValue([]sense{s}, next.cands) && oneBreath(b.st.text, t.it.text, next.it.text)
}

// sameRoot reports whether two stems are one word's: equal, or one the
// start of the other at five letters or more ("referr" of referral and
// "refer" of referred, which Snowball stems apart).
func sameRoot(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || len(a) >= 5 && strings.HasPrefix(b, a)
}

// byParticiple reports whether t is the participle alone of the subject's
// link column named for who did it to each row (referred_by, managed_by):
// "how many customers were referred" are those whose link is set, not
// the column listed (found from outside: "referred" unknown).
func (b *builder) byParticiple(t *term, s sense) bool {
	return b.linkParticiple(t, s) && b.passive(t.it.text)
}

// participleAlias reports whether t is the participle alone that names
// a link column named for who did it ("invited" of invited_by).
func participleAlias(t *term, s sense) bool {
	return s.kind == sColumn && s.key && pastForm(t.it.text) && !strings.Contains(t.it.text, " ") && strings.EqualFold(s.column, t.it.text+"_by")
}

// linkParticiple reports whether t is the participle alone of the
// subject's link column named for who did it, in either voice.
func (b *builder) linkParticiple(t *term, s sense) bool {
	return participleAlias(t, s) && strings.EqualFold(s.entity, b.subject) && len(t.aggs) == 0 && !t.byMode && !t.sortBy && !t.hasNum && !t.neg && !b.roleBeforeValue(t)
}

// passive reports whether the participle w is said in the passive voice
// ("were referred", "customers referred by …"): the rows it was done to.
// "Customers who have referred someone" did it (found from outside: read
// as those referred, 276 for 210, at 1.00).
func (b *builder) passive(w string) bool {
	ws := strings.Fields(strings.Map(func(r rune) rune {
		if r == ',' || r == '?' || r == '.' || r == '!' {
			return ' '
		}
		return r
	}, lower(b.st.raw)))
	i := slices.Index(ws, w)
	if i < 0 {
		return false
	}
	if i+1 < len(ws) && ws[i+1] == "by" {
		return true
	}
	for j := i - 1; j >= 0; j-- {
		switch ws[j] {
		case "not", "never", "ever", "also", "already", "all", "recently", "first":
			continue
		case "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "gotten":
			return true
		}
		return false
	}
	return false
}

// oneBreath reports whether the question says b of a in one breath: "a
// referrer in Germany", "whose referrer is in Germany", not "a referrer
// and are in Germany" nor "with a referrer are in Germany", where b is
// said of the subject.
func oneBreath(text, a, b string) bool {
	text = " " + lower(text) + " "
	at := strings.Index(text, " "+a+" ")
	if at < 0 {
		return false
	}
	rest := text[at+len(a)+1:]
	end := strings.Index(rest, " "+b+" ")
	if end < 0 {
		return false
	}
	between := rest[:end+1]
	has := func(ws ...string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(between, w) })
	}
	if strings.ContainsAny(between, ",;") || has(" and ", " or ", " but ", " while ", " who ", " that ") {
		return false
	}
	return lastWord(strings.TrimSpace(text[:at])) == "whose" || !has(" is ", " are ", " was ", " were ", " live ", " lives ", " lived ")
}

// compareValues reads "orders from Germany vs France": two values of one
// column in a comparison become an IN filter grouped by that column.
func (b *builder) compareValues(s sense, op semantic.Op) bool {
	if !b.st.compare || len(b.st.dates) > 1 || op != semantic.OpEq || b.rows {
		return false
	}
	for i := range b.q.Filters {
		f := &b.q.Filters[i]
		if f.Field == s.field && f.Op == semantic.OpEq {
			f.Values = append(f.Values, s.value)
			if !hasString(b.groups, s.field) {
				b.groups = append(b.groups, s.field)
			}
			b.st.compare = false
			b.und("compare %s %v", s.field, f.Values)
			return true
		}
	}
	return false
}

// bothValues reports whether two values of one column are said of the same
// rows at once: joined by "and" after "both" or straight after a copula
// ("that were refunded and cancelled", "who are business and consumer"),
// not listed as either ("customers in Germany and France").
func (b *builder) bothValues(first, second string) bool {
	low := strings.ToLower(b.st.raw)
	i := wordAt(low, first, 0)
	if i < 0 {
		return false
	}
	j := wordAt(low, second, i+len(first))
	if j < 0 || !strings.Contains(" "+low[i+len(first):j]+" ", " and ") {
		return false
	}
	switch lastWord(low[:i]) {
	case "both", "were", "are", "is", "was", "been", "be":
		return true
	}
	return false
}

// negatedValueOf reports whether the question excludes a value of field
// ("other than WELCOME10", "not Germany").
func (b *builder) negatedValueOf(field string) bool {
	for _, u := range b.st.terms {
		if u.neg && len(u.cands) > 0 && u.cands[0].kind == sValue && u.cands[0].field == field {
			return true
		}
	}
	return false
}

// ownLinkNamed asks which is meant when a value of another table is said
// of the subject's rows in a word that also names one of the subject's own
// links or yes/no columns: "customers who came through a referral" may be
// those with a referrer (customers.referred_by, a link to customers) or
// those with a web session whose source is 'referral' (found from
// outside: the second was answered alone at confidence 1.00). The two
// give different rows, so neither is taken silently.
func (b *builder) ownLinkNamed(t *term, s sense) *Plan {
	e := b.p.entity(b.subject)
	if e == nil || strings.EqualFold(s.entity, e.Name) || s.column == "" || b.namesTable(s.entity, t) {
		return nil // "customers with a referral web session" says whose
	}
	var said []string
	for _, w := range nameWords(s.value) {
		if len(w) >= 4 {
			said = append(said, stemWord(w))
		}
	}
	if len(said) == 0 {
		return nil
	}
	names := func(c *semantic.Column, extra ...string) bool {
		for _, n := range append(append([]string{c.Name}, c.Synonyms...), extra...) {
			for _, w := range nameWords(n) {
				if len(w) >= 4 && slices.ContainsFunc(said, func(v string) bool { return sameRoot(v, stemWord(w)) }) {
					return true
				}
			}
		}
		return false
	}
	for i := range e.Columns {
		c := &e.Columns[i]
		var roles []string
		link := false
		toValue := false // the link leads to the value's own table: one reading
		for _, r := range b.p.m.Relationships {
			if strings.EqualFold(r.From, e.Name) && strings.EqualFold(r.FromColumn, c.Name) {
				link = true
				toValue = toValue || strings.EqualFold(r.To, s.entity)
			}
		}
		for j := range b.p.m.Entities {
			if ro := b.p.m.Entities[j].Role; ro != nil && strings.EqualFold(ro.From, e.Name) && strings.EqualFold(ro.FromColumn, c.Name) {
				link = true
				toValue = toValue || strings.EqualFold(ro.Of, s.entity)
				roles = append(roles, b.p.m.Entities[j].Name)
			}
		}
		if toValue || !link && c.Type != quarry.TypeBool || !names(c, roles...) {
			continue
		}
		// Each reading as a question of its own, which an option asks
		// again when picked: the link by its role's word, or by its
		// participle ("customers that were referred"), or the flag's;
		// the value with its table's name.
		subj := display(e.Name)
		own := ""
		switch {
		case len(roles) > 0 && !strings.EqualFold(roles[0], c.Name):
			own = subj + " with a " + singular(display(roles[0]))
		case link && strings.HasSuffix(lower(c.Name), "_by"):
			own = subj + " that were " + strings.TrimSuffix(display(lower(c.Name)), " by")
		case link:
			own = subj + " with a " + strings.TrimSuffix(display(lower(c.Name)), " id")
		default:
			own = subj + " that are " + display(c.Name)
		}
		a := "a "
		if s.value != "" && strings.ContainsRune("aeiouAEIOU", rune(s.value[0])) {
			a = "an " // "users with an invitation signup"
		}
		other := subj + " with " + a + s.value + " " + singular(display(s.entity))
		// The rest of the question goes with each: "how many" before,
		// what was said after the value ("… in Germany") after.
		asked := strings.TrimRight(b.st.raw, "?.! ")
		raw := lower(asked)
		lead := ""
		for _, l := range []string{"how many ", "number of ", "the number of ", "count of ", "count "} {
			if strings.HasPrefix(raw, l) {
				lead = l
				break
			}
		}
		tail := ""
		if i := strings.LastIndex(raw, t.it.text); i >= 0 && len(raw) == len(asked) {
			tail = asked[i+len(t.it.text):]
		}
		own, other = lead+own+tail, lead+other+tail
		var opts []string
		once := *b.p
		once.optionCheck = true
		for _, o := range []string{own, other} {
			if pl := once.planWhole(o, b.st.asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
				opts = append(opts, o)
			}
		}
		what := fmt.Sprintf("%q could mean %s (%s.%s) or %s (%s.%s = %s)", t.it.text, own, e.Name, c.Name, other, s.entity, s.column, s.value)
		if b.p.optionCheck {
			return b.fail(what)
		}
		if len(opts) < 2 {
			// A reading quarry cannot ask again is no choice to offer.
			return b.fail(what + ", which give different rows; quarry does not pick one")
		}
		return clarify(what+"; which one?", opts...)
	}
	return nil
}
