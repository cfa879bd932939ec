package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// eachRefersTo reports whether each row of from refers to one row of to.
func (p *Planner) eachRefersTo(from, to string) bool {
	return slices.ContainsFunc(p.m.Relationships, func(r semantic.Relationship) bool {
		return strings.EqualFold(r.From, from) && strings.EqualFold(r.To, to) && r.Cardinality != semantic.OneToMany && r.Cardinality != semantic.ManyToMany
	})
}

// valueOfRelated refuses a value of a table the subject's rows refer to
// that the question says of related rows which refer to it too, after
// naming them: "patients with appointments at Northside Clinic" is of
// the appointments' clinic, not the patients' home clinic, which is what
// the value's filter would read (found from outside: 244 patients whose
// home clinic was either, for 117 who had appointments at both, at
// 1.00). quarry does not yet put the value on the related rows.
func (p *Planner) valueOfRelated(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	m := pl.over(p.m)
	var mts []*semantic.Metric
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil {
			mts = append(mts, mt)
		}
	}
	subject := subjectOf(m, pl.Query, mts)
	low := strings.ToLower(question)
	for _, f := range pl.Query.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
			continue
		}
		fd, ok := m.ColumnField(f.Field)
		if !ok || subject == "" || strings.EqualFold(fd.Entity.Name, subject) {
			continue
		}
		v := fd.Entity.Name
		for _, g := range pl.Query.Filters {
			if g.Op != semantic.OpSome && g.Op != semantic.OpNone || strings.EqualFold(g.Field, v) || !p.eachRefersTo(g.Field, v) || !p.eachRefersTo(g.Field, subject) {
				// Rows each of the subject's refers to ("tickets handled
				// by agents in the Billing team": the one agent of each
				// ticket, whose team the join reads) are no such rows.
				continue
			}
			ws := words(g.Field)
			at := strings.Index(low, singular(ws[len(ws)-1]))
			val := strings.Index(low, strings.ToLower(fmt.Sprint(f.Values[0])))
			if at < 0 || val < at {
				continue
			}
			return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("“%v” may be of the %s themselves (%s) or of their %s, which refer to %s too; quarry does not read it through the %s yet: ask about the %s (“how many %s at %v”), or of the %s' own (“%s whose %s is %v”)",
				f.Values[0], display(subject), f.Field, display(g.Field), display(v), display(g.Field), display(g.Field), display(g.Field), f.Values[0], display(subject), display(subject), singular(display(v)), f.Values[0])}
		}
	}
	return pl
}

// relatedRows are rows of another table that the subject's rows must have
// (or lack): a measure that counts that table's rows meeting conditions,
// named after "with" ("customers with a refunded order").
type relatedRows struct {
	entity string
	where  []semantic.Filter
	neg    bool
	text   string
	// verb: read from a verb of the table's date (verbDate); values of
	// the table said beside it hold on the same row ("guests who rented
	// a snowboard this year").
	verb bool
}

// relatedMeasure reads a measure named after "with" as rows that must
// exist: a count of one table's rows with conditions on its own columns,
// after a table the question names first.
func (p *Planner) relatedMeasure(it *item, st *state, afterWith bool) (relatedRows, bool) {
	ms := only(it.senses, sMetric)
	if !afterWith || len(ms) != 1 || len(it.senses) != 1 {
		return relatedRows{}, false
	}
	e, where, ok := p.filteredCount(ms[0].name)
	if !ok || len(where) == 0 {
		return relatedRows{}, false
	}
	if !namesOther(st, e) {
		return relatedRows{}, false
	}
	return relatedRows{entity: e, where: where, text: it.text}, true
}

// hadRows is the table a term names whole, after another table the
// question names first, where nothing compares or qualifies it next
// ("customers with orders", "had an order last month"; not "customers
// with orders over $100" nor "with mobile orders"): rows of it that the
// first table's rows must have.
func (p *Planner) hadRows(it *item, st *state, mean []*item, i int) (string, bool) {
	if len(only(it.senses, sEntity)) != 1 || len(only(it.senses, sValue, sColumn)) > 0 {
		return "", false
	}
	ent, ok := p.noneEntity(it)
	if !ok || !namesOther(st, ent) || len(st.some)+len(st.none)+len(st.linkedNone) > 0 {
		return "", false
	}
	e := p.entity(ent)
	if e == nil {
		return "", false
	}
	// A role's rows are those of the table it names: a value of that
	// table said next is the role's (selfRole, the directions' reading).
	own := ent
	if e.Role != nil {
		own = e.Role.Of
	}
	if i+1 < len(mean) {
		n := mean[i+1]
		if n.kind == itNum || n.kind == itKw && (n.kw == "gt" || n.kw == "lt" || n.kw == "by") || n.kind == itTerm && len(only(n.senses, sValue)) == 0 {
			return "", false
		}
		// "with a destination airport Denver": a value of the table's
		// own says which of its rows, which the existing readings keep.
		if n.kind == itTerm && slices.ContainsFunc(n.senses, func(s sense) bool { return s.kind == sValue && strings.EqualFold(s.entity, own) }) && (e.Role == nil || oneBreath(st.text, it.text, n.text)) {
			return "", false
		}
	}
	return ent, true
}

// measureRows reads a count or a sum named after a negation of having
// ("products with no sales") as the rows it adds up, which must be
// missing: its table's rows that meet its conditions, on that table's
// columns or on those of the one row each refers to (the order of an
// order line). A word that is also a value ("sales", the Sales
// department) is the measure here: a value is no rows to lack.
func (p *Planner) measureRows(it *item, st *state) (relatedRows, bool) {
	ms := only(it.senses, sMetric)
	if len(ms) != 1 || len(ms)+len(only(it.senses, sValue)) != len(it.senses) {
		return relatedRows{}, false
	}
	m := p.m.Metric(ms[0].name)
	if m == nil || m.Entity == "" || m.Derived != "" || p.entity(m.Entity) == nil {
		return relatedRows{}, false
	}
	e := p.entity(m.Entity).Name
	x := strings.ToUpper(strings.Join(strings.Fields(m.Expr), ""))
	if strings.Count(x, "(") == 0 || !strings.HasSuffix(x, ")") || strings.Contains(x, "DISTINCT") ||
		!(strings.HasPrefix(x, "SUM(") || strings.HasPrefix(x, "COUNT(")) || strings.Count(x, "SUM(")+strings.Count(x, "COUNT(") != 1 {
		return relatedRows{}, false
	}
	var where []semantic.Filter
	for _, expr := range m.Filters {
		f, ok := semantic.ParsePredicate(expr)
		ent, _, _ := strings.Cut(f.Field, ".")
		if !ok || !strings.EqualFold(ent, e) && !p.refersToOne(e, ent) {
			return relatedRows{}, false
		}
		where = append(where, f)
	}
	if !namesOther(st, e) {
		return relatedRows{}, false
	}
	return relatedRows{entity: e, where: where, text: it.text}, true
}

// namesOther reports whether the question names a table other than e,
// the rows that lack or have e's rows.
func namesOther(st *state, e string) bool {
	for _, t := range st.terms {
		for _, s := range t.cands {
			if s.kind == sEntity && !strings.EqualFold(s.name, e) {
				return true
			}
		}
	}
	return false
}

// refersToOne reports whether each row of child refers to one row of
// parent, through the one relationship between them, by parent's key.
func (p *Planner) refersToOne(child, parent string) bool {
	n, ok := 0, false
	for _, r := range p.m.Relationships {
		switch {
		case strings.EqualFold(r.From, child) && strings.EqualFold(r.To, parent):
			pe := p.entity(r.To)
			ok = (r.Cardinality == semantic.ManyToOne || r.Cardinality == "") && pe != nil && strings.EqualFold(pe.PrimaryKey, r.ToColumn)
			n++
		case strings.EqualFold(r.From, parent) && strings.EqualFold(r.To, child):
			n++
		}
	}
	return n == 1 && ok && !strings.EqualFold(child, parent)
}

func whereText(ws []semantic.Filter) string {
	var out []string
	for _, w := range ws {
		out = append(out, fmt.Sprintf("%s %s %v", w.Field, w.Op, w.Values))
	}
	return strings.Join(out, " and ")
}

// withWord reports whether a "with" keyword says the rows have something
// ("with", "that have", "having"), not which ones ("where", "whose").
func withWord(text string) bool {
	switch text {
	case "with", "that have", "who have", "having", "that has", "which have", "which has":
		return true
	}
	return false
}

// afterWithA marks the items right after "with a", "have a" or "used a"
// ("orders with a promo code", "how many orders used a discount code").
func afterWithA(items []item) map[*item]bool {
	withA := map[*item]bool{}
	var stops []string // the stopwords since the last meaningful item
	var prev *item
	for i := range items {
		if items[i].kind == itStop {
			stops = append(stops, items[i].text)
			continue
		}
		if n := len(stops); n > 0 && (stops[n-1] == "a" || stops[n-1] == "an" || stops[n-1] == "any") {
			with := prev != nil && prev.kind == itKw && prev.kw == "with" && withWord(prev.text)
			for _, w := range stops[:n-1] {
				with = with || w == "have" || w == "has" || w == "had" || w == "use" || w == "used" || w == "uses" || w == "using" || w == "having"
			}
			withA[&items[i]] = with
		}
		stops, prev = nil, &items[i]
	}
	return withA
}

// afterBe marks the items right after "is", "are", "was" or "were".
func afterBe(items []item) map[*item]bool {
	out := map[*item]bool{}
	for i := 1; i < len(items); i++ {
		switch items[i-1].text {
		case "is", "are", "was", "were":
			out[&items[i]] = items[i-1].kind == itStop && items[i].kind != itStop
		}
	}
	return out
}

// hasFlag reports whether a meaning is a yes/no column's.
func hasFlag(ss []sense) bool {
	for _, s := range ss {
		if s.flag != nil {
			return true
		}
	}
	return false
}

// flagOfNext reports whether ss are only yes/no columns' meanings, one
// of them of the table the next item names: the column said as that
// table's adjective ("discontinued products").
func flagOfNext(ss []sense, next *item) bool {
	if next.kind != itTerm || len(ss) == 0 {
		return false
	}
	of := false
	for _, s := range ss {
		if s.kind != sColumn || s.flag == nil {
			return false
		}
		for _, n := range next.senses {
			of = of || n.kind == sEntity && strings.EqualFold(n.entity, s.entity)
		}
	}
	return of
}

// oneRowConditions makes one condition of those on related rows that
// must hold on the same rows, in a planned query:
//   - a verb's rows on the way to other related rows ("customers who
//     bought Toys in Q1": an order of Q1 holding a Toys line) put their
//     conditions (the period, a completed purchase) on each of those
//     rows, with or without ("… but not Books in 2025": no Books line
//     in 2025), never an order in Q1 and a Toys line ever;
//   - a count with such rows, or rows missing on the way to others, is
//     refused: quarry does not guess whether they are the same rows.
//
// Found from outside: each condition was checked on its own, and each met
// by another row.
func (p *Planner) oneRowConditions(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	subject := ""
	if q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = p.metricEntity(q.Metrics[0], pl.AdHoc)
	}
	related := func(f semantic.Filter) bool { return f.OnRelated() && p.entity(f.Field) != nil }
	fs := slices.Clone(q.Filters)
	// A verb's rows on the way to others.
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if !related(f) {
			continue
		}
		var on []int
		for j, g := range fs {
			if j == i || !related(g) || strings.EqualFold(f.Field, g.Field) {
				continue
			}
			if path, ok := p.m.Related(subject, g.Field); ok && path.Passes(f.Field) {
				on = append(on, j)
			}
		}
		if len(on) == 0 {
			continue
		}
		if f.Op != semantic.OpSome || f.Count {
			return p.unanswered(&state{}, fmt.Sprintf("quarry cannot tell whether the conditions on %s and on the rows they hold are on the same %s rows; ask for one at a time", display(f.Field), display(f.Field)))
		}
		for _, j := range on {
			if fs[j].Count {
				return p.unanswered(&state{}, fmt.Sprintf("quarry cannot tell whether the conditions on %s and on %s are on the same %s rows; ask for one at a time", display(f.Field), display(fs[j].Field), display(f.Field)))
			}
			fs[j].Where = append(slices.Clone(fs[j].Where), f.Where...)
			pl.Understood = append(pl.Understood, fmt.Sprintf("the conditions on %s and %s read as one: %s rows of the same %s rows", f.Field, fs[j].Field, fs[j].Field, f.Field))
		}
		fs = slices.Delete(fs, i, i+1)
		i--
	}
	q.Filters = fs
	return pl
}

// stateWord reports whether a value says a row is not done yet.
func stateWord(v string) bool {
	switch strings.ReplaceAll(semantic.Fold(v), "_", " ") {
	case "in progress", "open", "active", "pending", "ongoing", "running", "started", "underway":
		return true
	}
	return false
}

// othersState asks which is meant where a count or a list of a table's
// rows is kept to a state of the rows they refer to ("how many production
// runs are still in progress": work orders in progress), and the table
// has an end date of its own, whose being empty would say the rows' own
// state (found from outside: 69 runs of work orders in progress, where 35
// runs had not ended).
func (p *Planner) othersState(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	subject := ""
	switch {
	case q.Rows != nil:
		subject = q.Rows.Entity
	case len(q.Metrics) == 1 && pl.isCountAdHoc(q.Metrics[0]):
		subject = p.metricEntity(q.Metrics[0], pl.AdHoc)
	}
	e := p.entity(subject)
	if e == nil {
		return pl
	}
	end := ""
	for _, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleEnd {
			end = c.Name
		}
	}
	if end == "" {
		return pl
	}
	for _, f := range q.Filters {
		if f.OnRelated() || f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
			continue
		}
		owner := p.fieldEntity(f.Field)
		v := fmt.Sprint(f.Values[0])
		if owner == "" || strings.EqualFold(owner, e.Name) || !stateWord(v) {
			continue
		}
		return clarify(fmt.Sprintf("%q is a state of %s, not of %s: do you mean %s of %s that are %s, or %s not yet ended (%s empty)?",
			v, display(owner), display(e.Name), display(e.Name), display(owner), v, display(e.Name), end),
			fmt.Sprintf("%s of %s %s", lower(display(e.Name)), v, lower(display(owner))), fmt.Sprintf("%s with no %s", lower(display(e.Name)), strings.ReplaceAll(end, "_", " ")))
	}
	return pl
}

// eitherRelated refuses a plan with two conditions on related rows where
// the question joins them by "or" ("customers with refunded orders or
// mobile orders"): rows with either, which quarry does not write yet
// (found from outside: read as both).
func (p *Planner) eitherRelated(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	n := 0
	for _, f := range pl.Query.Filters {
		if f.OnRelated() && f.Op == semantic.OpSome && !f.Count {
			n++
		}
	}
	if n < 2 || !slices.ContainsFunc(tokenize(question), func(t token) bool { return t.s == "or" || t.s == "either" }) {
		return pl
	}
	return p.unanswered(&state{}, "quarry cannot yet keep the rows that have either of two kinds of related rows (“… or …”); ask for each")
}

// saidAfter reports whether the words phrase follow one of the words
// before in text (lower-case words joined by spaces).
func saidAfter(text, phrase string, before ...string) bool {
	for _, w := range before {
		if strings.Contains(" "+text+" ", " "+w+" "+phrase+" ") {
			return true
		}
	}
	return false
}

// ownEventDate is the date column ("members.expires_on") of the subject's
// own rows that names, in another form, the value of another table that
// term t says ("expired", a hold's status), or "".
func (b *builder) ownEventDate(t *term, s sense) string {
	if s.kind != sValue || b.subject == "" || strings.EqualFold(s.entity, b.subject) || strings.Contains(t.it.text, " ") || !pastForm(t.it.text) {
		return ""
	}
	e := b.p.entity(b.subject)
	if e == nil {
		return ""
	}
	for _, u := range b.st.terms {
		if slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sEntity && strings.EqualFold(c.name, s.entity) }) {
			return "" // "members with expired holds": the holds' status
		}
	}
	stem := stemWord(t.it.text)
	for _, c := range e.Columns {
		if !c.Temporal() || b.p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		for _, w := range nameWords(c.Name) {
			if len(w) > 3 && stemWord(w) == stem {
				return e.Name + "." + c.Name
			}
		}
	}
	return ""
}
