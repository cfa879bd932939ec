package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Tables reached through one link of several. A table with two links to
// another (shipments' origin and destination warehouse) reaches it in
// two ways; semantic.WithRoles makes each link an entity of its own,
// named by the link ("origin_warehouse", "origin" for short), which the
// planner reads as any table ("shipments by origin warehouse city") and
// the compiler joins as an alias of the table through that link alone.
// The table's own name still joins it in either way, and is asked back
// in the links' words ("origin warehouse or destination warehouse?").
// A role is what the rows of another table point at, so it is never
// the rows counted or listed: "how many origin warehouses" is not
// answered as a count of every warehouse.

// roleOptions are the words of the role entities of the links rels
// (written as ambiguousJoin writes them), in their order; nil unless
// every link has one.
func (p *Planner) roleOptions(rels []string) []string {
	var out []string
	for _, r := range rels {
		left, _, _ := strings.Cut(r, " = ")
		var hit string
		for i := range p.m.Entities {
			if ro := p.m.Entities[i].Role; ro != nil && strings.EqualFold(ro.Via(), left) {
				hit = strings.ToLower(display(p.m.Entities[i].Name))
			}
		}
		if hit == "" {
			return nil
		}
		out = append(out, hit)
	}
	return out
}

// joinedTwice asks which link a field of e reached from base means.
func (b *builder) joinedTwice(base, e string, rels []string) *Plan {
	if opts := b.p.roleOptions(rels); opts != nil {
		var keys []string
		for _, r := range rels {
			left, _, _ := strings.Cut(r, " = ")
			keys = append(keys, left)
		}
		pl := clarify(fmt.Sprintf("%s reach %s in more than one way (%s); which do you mean: %s?", display(base), display(e), strings.Join(keys, " or "), strings.Join(opts, " or ")), opts...)
		pl.roleOpts = opts
		return pl
	}
	return clarify(fmt.Sprintf("%s and %s are joined in more than one way (%s); which one does the question mean?", display(base), display(e), strings.Join(rels, " or ")), rels...)
}

// roleSaid answers, where a question is asked back which link reaches a
// table ("pickup branch or return branch?"), by the link the question's
// own verb names: "rentals picked up at Lisbon" the pickup branch,
// "returned to Porto" the return branch (found from outside: asked back,
// though the question said which). The question is planned again with
// the link's words, as the answer to the question back would be; nil
// where no verb, or several, name one, or that is not answered either.
func (p *Planner) roleSaid(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindClarify || len(pl.roleOpts) < 2 {
		return nil
	}
	toks := tokenize(question)
	hit, verb, at := "", "", -1
	listed := false
	for _, o := range pl.roleOpts {
		v, i := verbOfRole(toks, strings.Fields(o)[0])
		byList := false
		if v == "" {
			v, i = p.listedVerbOfRole(toks, o)
			byList = v != ""
		}
		if v != "" {
			if hit != "" {
				return nil
			}
			hit, verb, at, listed = o, v, i, byList
		}
	}
	if hit == "" {
		return nil
	}
	// The link's words before what the verb says of it ("returned to
	// return branch Porto"), else at the end.
	read := strings.TrimRight(strings.TrimSpace(question), "?.! ") + " " + hit
	if at+1 < len(toks) && placeWord(toks[at+1].s) {
		read = question[:toks[at+1].end] + " " + hit + question[toks[at+1].end:]
	}
	if listed {
		// "which staff served the most orders": the staff in the role
		// the verb is listed on, "which server served …".
		if r, ok := p.roleForTable(question, toks, hit); ok {
			read = r
		}
	}
	again := p.planQuestion(read, asOf)
	if again.Kind != KindMetric && again.Kind != KindRows {
		return nil
	}
	again.readAs(read, fmt.Sprintf("%q read as the %s", verb, hit))
	return again
}

// placeWord reports whether w says where: what follows it is a place.
func placeWord(w string) bool {
	switch w {
	case "at", "to", "in", "from", "into", "on":
		return true
	}
	return false
}

// verbOfRole is the words of a past form in toks that names role, a
// link's word ("returned" return, "picked up" pickup, "dropped off"
// dropoff), and the index of their last token; "" where none does.
func verbOfRole(toks []token, role string) (string, int) {
	for i, t := range toks {
		stem, ok := strings.CutSuffix(t.s, "ed")
		if !ok || len(stem) < 3 {
			continue
		}
		stems := []string{stem}
		if u := undouble(stem); u != stem {
			stems = append(stems, u) // dropped: drop
		}
		for _, s := range stems {
			if s == role {
				return t.s, i
			}
			if i+1 < len(toks) && s+toks[i+1].s == role {
				return t.s + " " + toks[i+1].s, i + 1
			}
		}
	}
	return "", -1
}

// roleReading says, for a plan that reads a table through a link, which
// link it is, and refuses one whose rows counted or listed are a role's.
func (p *Planner) roleReading(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	var roots []string
	if q.Rows != nil {
		roots = append(roots, q.Rows.Entity)
	}
	for _, m := range q.Metrics {
		roots = append(roots, p.metricEntity(m, pl.AdHoc))
	}
	for _, r := range roots {
		if ro := p.roleOfEntity(r); ro != nil {
			name := strings.ToLower(display(r))
			return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: fmt.Sprintf(
				"%s is %s reached through %s: quarry reads it as what %s rows point at (“%s by %s”), not as rows of its own; ask about %s to count or list every one",
				name, ro.Of, ro.Via(), singular(strings.ToLower(display(ro.From))), strings.ToLower(display(ro.From)), name, strings.ToLower(display(ro.Of)))}
		}
	}
	// The fields and the measures' expressions, for the roles they read.
	var text strings.Builder
	for _, d := range q.Dimensions {
		text.WriteString(" " + d.Name)
	}
	for _, f := range q.Filters {
		text.WriteString(" " + f.Field)
	}
	for _, o := range q.Order {
		text.WriteString(" " + o.Field)
	}
	if q.Rows != nil {
		text.WriteString(" " + strings.Join(q.Rows.Columns, " "))
	}
	for _, a := range pl.AdHoc {
		text.WriteString(" " + a.Expr + " " + strings.Join(a.Filters, " "))
	}
	for _, m := range q.Metrics {
		if mt := p.m.Metric(m); mt != nil {
			text.WriteString(" " + mt.Expr + " " + strings.Join(mt.Filters, " "))
		}
	}
	read := strings.ToLower(text.String())
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if e.Role == nil || !strings.Contains(read, strings.ToLower(e.Name)+".") {
			continue
		}
		note := fmt.Sprintf("%s: the %s reached through %s", strings.ToLower(display(e.Name)), singular(strings.ToLower(display(e.Role.Of))), e.Role.Via())
		pl.Notes = append(pl.Notes, note)
	}
	return pl
}

// ambiguousJoin returns the two relationships of a pair of tables on the
// shortest path from a to b when that pair is joined by more than one
// relationship (two foreign keys to the same table): which of them the
// question means is not said, so quarry asks.
func (p *Planner) ambiguousJoin(a, b string) []string {
	a, b = lower(a), lower(b)
	if a == b || a == "" || b == "" {
		return nil
	}
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 && prev[b] == "" {
		x := queue[0]
		queue = queue[1:]
		for _, y := range p.graph[x] {
			if _, seen := prev[y]; !seen {
				prev[y] = x
				queue = append(queue, y)
			}
		}
	}
	if _, ok := prev[b]; !ok {
		return nil
	}
	for y := b; y != a; y = prev[y] {
		x := prev[y]
		var rels []string
		for _, r := range p.m.Relationships {
			f, t := lower(r.From), lower(r.To)
			if f == t {
				continue
			}
			if f == x && t == y || f == y && t == x {
				rels = append(rels, r.From+"."+r.FromColumn+" = "+r.To+"."+r.ToColumn)
			}
		}
		if len(rels) > 1 {
			return rels
		}
	}
	return nil
}

// checkJoins asks which relationship is meant when a field of the query is
// reached from base through a pair of tables joined in two ways.
func (b *builder) checkJoins(base string, fields []string) *Plan {
	for _, f := range fields {
		e := b.p.fieldEntity(f)
		if rels := b.p.ambiguousJoin(base, e); rels != nil {
			if b.byOwnedRoute(base, e, true) {
				continue
			}
			return b.joinedTwice(base, e, rels)
		}
		// Two ways through different tables ("bookings by marina": the
		// berth's, or the staff member's who took it): the one chain
		// of owned keys, where there is one (found from outside: asked
		// back).
		b.byOwnedRoute(base, e, false)
	}
	return nil
}

// dropUnnamedRoles keeps a role's columns and values out of the items
// when no word of the question names the role: "hires by month" over
// employees is their hire date, not that of the employee a review's
// reviewer_id points at, and "employees with no email" their email
// (found on a learned HR database: it asked which of three hire dates,
// and refused the email). An item left with role senses only keeps them.
func (p *Planner) dropUnnamedRoles(items []item) {
	named := map[string]bool{}
	for i, it := range items {
		// The table's own word ("warehouses") names it, not its roles.
		plain := map[string]bool{}
		for _, s := range it.senses {
			if s.kind == sEntity && p.roleOfEntity(s.name) == nil {
				plain[lower(s.name)] = true
			}
		}
		var keep []sense
		for _, s := range it.senses {
			if s.kind == sEntity {
				if ro := p.roleOfEntity(s.name); ro != nil {
					if plain[lower(ro.Of)] {
						continue
					}
					named[lower(s.name)] = true
				}
			}
			keep = append(keep, s)
		}
		items[i].senses = keep
	}
	for i := range items {
		var keep []sense
		for _, s := range items[i].senses {
			if s.kind != sEntity && s.kind != sMetric && s.entity != "" && p.roleOfEntity(s.entity) != nil && !named[lower(s.entity)] {
				continue
			}
			keep = append(keep, s)
		}
		if len(keep) > 0 {
			items[i].senses = keep
		}
	}
}

// valuesThroughRole reports whether the values the question names of a
// role's table are to be read through that role, where the question
// names the role (the link's name, its word, or its verb: "headline" of
// headliner) and no other of the same table: "how many events did Lonely
// Wolves headline", "events with a rock headliner" (found from outside:
// refused, though grouping by the role was answered). The filters are
// moved onto the role once they are made (throughRole).
func (b *builder) valuesThroughRole(t *term, name string) bool {
	e := b.p.entity(name)
	if e == nil || e.Role == nil || b.viaRole != "" {
		return false
	}
	values := false
	for _, u := range b.st.terms {
		if u == t {
			continue
		}
		for _, c := range u.cands {
			if o := b.p.entity(c.entity); c.kind == sEntity && o != nil && o.Role != nil && strings.EqualFold(o.Role.Of, e.Role.Of) && !strings.EqualFold(o.Name, e.Name) {
				return false // two roles of one table: whose value is whose?
			}
			values = values || c.kind == sValue && strings.EqualFold(c.entity, e.Role.Of)
		}
	}
	if values {
		b.viaRole = e.Name
	}
	return values
}

// throughRole moves the filters on the columns of the role's table that
// valuesThroughRole chose onto the role.
func (b *builder) throughRole() {
	e := b.p.entity(b.viaRole)
	if e == nil || e.Role == nil {
		return
	}
	for i := range b.q.Filters {
		f := &b.q.Filters[i]
		if ent, col, ok := strings.Cut(f.Field, "."); ok && strings.EqualFold(ent, e.Role.Of) {
			f.Field = e.Name + "." + col
			b.und("filter %s through %s (%s)", col, e.Name, e.Role.Via())
		}
	}
}

// participleState keeps the subject's rows to the state a link's verb
// names when the question says it: "expenses approved by Kira Dawson"
// read through expenses.approved_by are those she approved, not those
// she denied, where the status column holds 'approved' (found from
// outside: the denied ones counted, at 1.00, where approved_by records
// who decided).
func (b *builder) participleState() {
	e := b.p.entity(b.subject)
	if e == nil {
		return
	}
	var reached []string
	for _, f := range b.q.Filters {
		ent, _, _ := strings.Cut(f.Field, ".")
		reached = append(reached, ent)
	}
	reached = append(reached, b.q.Via...)
	// The links the rows were read through: a role's, or the subject's
	// own link to a table a filter is on.
	var links []string
	for _, r := range reached {
		re := b.p.entity(r)
		switch {
		case re == nil:
		case re.Role != nil && strings.EqualFold(re.Role.From, e.Name):
			links = append(links, re.Role.FromColumn)
		case re.Role == nil:
			for _, rel := range b.p.m.Relationships {
				if strings.EqualFold(rel.From, e.Name) && strings.EqualFold(rel.To, re.Name) {
					links = append(links, rel.FromColumn)
				}
			}
		}
	}
	said := " " + lower(b.st.text) + " "
	for _, link := range links {
		verb, ok := strings.CutSuffix(lower(link), "_by")
		if !ok || !pastForm(verb) || !strings.Contains(said, " "+verb+" ") {
			continue
		}
		for _, c := range e.Columns {
			if !semantic.StatusName(c.Name) || !slices.ContainsFunc(c.Values, func(v string) bool { return strings.EqualFold(v, verb) }) {
				continue
			}
			field := e.Name + "." + c.Name
			if slices.ContainsFunc(b.q.Filters, func(f semantic.Filter) bool {
				return strings.EqualFold(f.Field, field) || strings.EqualFold(f.Field, c.Name)
			}) {
				return
			}
			v := c.Values[slices.IndexFunc(c.Values, func(v string) bool { return strings.EqualFold(v, verb) })]
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpEq, Values: []any{v}})
			b.und("%q also keeps the %s whose %s is %s", verb, display(e.Name), c.Name, v)
			return
		}
	}
}

// listedVerbOfRole is the word of toks that is a verb the knowledge lists
// on the link of role (the role entity's name in words), and its index:
// "served" for orders.server_id, whose verbs are [serve] (found from
// outside: "which staff served the most orders" asked "manager or
// server?"); "" where none is.
func (p *Planner) listedVerbOfRole(toks []token, role string) (string, int) {
	ro := p.roleNamed(role)
	if ro == nil {
		return "", -1
	}
	for j := range p.m.Relationships {
		r := &p.m.Relationships[j]
		if !strings.EqualFold(r.From, ro.From) || !strings.EqualFold(r.FromColumn, ro.FromColumn) {
			continue
		}
		for k, t := range toks {
			if slices.Contains(p.relVerbs[r], stemKey(t.s)) {
				return t.s, k
			}
		}
	}
	return "", -1
}

// roleNamed is the role of the role entity whose name, in words, is role
// (as roleOptions writes it); nil where none is.
func (p *Planner) roleNamed(role string) *semantic.Role {
	for i := range p.m.Entities {
		if ro := p.m.Entities[i].Role; ro != nil && strings.ToLower(display(p.m.Entities[i].Name)) == role {
			return ro
		}
	}
	return nil
}

// roleForTable is question with the words naming the table of role (the
// role entity's name in words) replaced by the role's words ("which staff
// member served" → "which server served"); false where no word names it.
func (p *Planner) roleForTable(question string, toks []token, role string) (string, bool) {
	ro := p.roleNamed(role)
	if ro == nil {
		return "", false
	}
	of := stemKey(lastWordOf(strings.ToLower(display(ro.Of))))
	for k, t := range toks {
		if stemKey(t.s) != of {
			continue
		}
		end := t.end
		if k+1 < len(toks) && (toks[k+1].s == "member" || toks[k+1].s == "members") {
			end = toks[k+1].end
		}
		return question[:t.start] + role + question[end:], true
	}
	return "", false
}
