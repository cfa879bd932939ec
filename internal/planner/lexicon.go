package planner

import (
	"slices"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

type senseKind int

const (
	sMetric     senseKind = iota // a defined metric
	sEntity                      // an entity (table)
	sColumn                      // a column, or a dimension over one column
	sDim                         // a dimension with a computed expression
	sValue                       // a known value of a column or dimension
	sRestricted                  // a column the policy restricts
)

// The strength of a match: the name itself, a synonym, or a weaker alias
// (the last word of a compound entity name, one word of a column name).
const (
	strKey     = -1 // a key column: only when nothing else fits
	strAlias   = 0
	strSynonym = 1
	strName    = 2
)

// sense is one meaning of a phrase.
type sense struct {
	kind     senseKind
	name     string // metric, entity or dimension name
	entity   string // the entity of a column, value, dimension or restricted column
	column   string // the column of a column, value or restricted column
	field    string // the query field: a dimension name or "entity.column"
	value    string // the stored value, for sValue
	strength int
	numeric  bool
	temporal bool
	flag     any  // for a yes/no column: the value that means yes
	flagNo   any  // and the value that means no
	key      bool // a primary or foreign key column
	// withheld marks a restricted sense the guard refuses though the
	// policy does not name it (a view's column over a restricted one).
	withheld bool
	// own marks a column read by the rest of its name after its table's
	// name ("type" for Pets.PetType): it counts only where the question
	// names that table otherwise (own.go).
	own bool
	// refersTo is, for a code the value index found (lexicon.ids), the
	// table its column refers to, if any.
	refersTo string
}

// lexicon maps phrases (lower-case words joined by single spaces) to their
// meanings.
type lexicon struct {
	phrases map[string][]sense
	// extra holds, for one question, stored values a value index found
	// that the knowledge does not list (PlanValues); they are read only
	// where a phrase means nothing else.
	extra map[string][]sense
	// ids holds those of extra that are identifiers or codes in capitals
	// ("ENT"): read beside the knowledge's own values of the phrase, so
	// that a code of the rows' own column is not lost to a known value
	// of another table's ("tickets for ENT": a product code, or the
	// customers' segment?).
	ids map[string][]sense
	// forms holds the names and synonyms by other forms of their words
	// (forms.go).
	forms map[string]formHit
	// verbs holds the measures by the stem of the verb in their name.
	// known holds, for every word of a known phrase, those phrases'
	// meanings.
	known  map[string][]sense
	verbs  map[string]formHit
	maxLen int // the most words in a phrase
	// formMemo holds formsOf by phrase while the lexicon is built: ten
	// thousand tables share their columns' names ("id", "created_at").
	formMemo map[string][]string
	// admitted are the indices of the entities of a scoped lexicon
	// whose name, synonyms, columns or values its probe admits.
	admitted []int
	terms    []string // known terms, for suggestions
	// added holds, for a phrase of many meanings, the meanings add has
	// put in phrases (the phrase left empty).
	added map[string]map[senseID]bool
	// asked, in a question's scope, are its words: known holds only
	// those, the only words it is read by.
	asked map[string]bool
}

// senseID identifies a meaning of a phrase.
type senseID struct {
	phrase                      string
	kind                        senseKind
	name, entity, column, value string
	own                         bool
}

// get returns the meanings of a phrase: the knowledge's, or else the
// values found for this question.
func (l *lexicon) get(phrase string) ([]sense, bool) {
	if s, ok := l.phrases[phrase]; ok {
		if ids := l.ids[phrase]; len(ids) > 0 && len(only(s, sValue)) > 0 {
			out := slices.Clone(s)
			for _, id := range ids {
				// Not where the knowledge reads the word in the code's own
				// table, or in the table the code's column refers to
				// ("templates of the type CV": the type's description,
				// the row Templates.Template_Type_Code refers to).
				if !slices.ContainsFunc(s, func(k sense) bool {
					return k.kind == sValue && (strings.EqualFold(k.field, id.field) || strings.EqualFold(k.entity, id.entity) || id.refersTo != "" && strings.EqualFold(k.entity, id.refersTo))
				}) {
					out = append(out, id)
				}
			}
			return out, true
		}
		return s, true
	}
	s, ok := l.extra[phrase]
	return s, ok
}

func (l *lexicon) add(phrase string, s sense) {
	l.addNormal(strings.Join(words(phrase), " "), s)
}

// addNormal is add of a phrase already in words joined by one space.
func (l *lexicon) addNormal(phrase string, s sense) {
	if phrase == "" {
		return
	}
	id := senseID{"", s.kind, s.name, s.entity, s.column, s.value, s.own}
	ss := l.phrases[phrase]
	if set := l.added[phrase]; set != nil {
		if set[id] {
			return
		}
		set[id] = true
	} else {
		for _, o := range ss {
			if (senseID{"", o.kind, o.name, o.entity, o.column, o.value, o.own}) == id {
				return
			}
		}
		if len(ss) >= 16 {
			// Compared one by one, the meanings of a phrase that ten
			// thousand tables share ("id", "name") made building the
			// lexicon quadratic: a set from here on.
			set := make(map[senseID]bool, 2*len(ss))
			for _, o := range ss {
				set[senseID{"", o.kind, o.name, o.entity, o.column, o.value, o.own}] = true
			}
			set[id] = true
			if l.added == nil {
				l.added = map[string]map[senseID]bool{}
			}
			l.added[phrase] = set
		}
	}
	l.phrases[phrase] = append(ss, s)
	if n := strings.Count(phrase, " ") + 1; n > l.maxLen {
		l.maxLen = n
	}
}

// addForms adds a phrase and its singular and plural forms, and those of
// the phrase with the short forms of its words written out (hrs_worked
// as "hours worked", appt_type as "appointment type").
func (l *lexicon) addForms(phrase string, s sense) {
	fs, ok := l.formMemo[phrase]
	if !ok {
		fs = formsOf(phrase)
		if l.formMemo != nil {
			l.formMemo[phrase] = fs
		}
	}
	for _, f := range fs {
		l.addNormal(f, s)
	}
}

// formsOf is what addForms adds of phrase, each phrase as add writes it:
// the phrase, its singular and plural, and those with its short words
// written out.
func formsOf(phrase string) []string {
	ws := words(phrase)
	if len(ws) == 0 {
		return nil
	}
	var out []string
	wordForms := func(ws []string) {
		out = append(out, strings.Join(words(strings.Join(ws, " ")), " "))
		last := ws[len(ws)-1]
		for _, f := range []string{plural(last), singular(last)} {
			if f != last && f != "" {
				ws2 := append(append([]string(nil), ws[:len(ws)-1]...), f)
				out = append(out, strings.Join(words(strings.Join(ws2, " ")), " "))
			}
		}
	}
	if long, ok := semantic.WrittenOut(ws); ok {
		wordForms(long)
	}
	wordForms(ws)
	return out
}

// endWordAfter reports whether a word of a date's name after ws[i] says
// it is when something ends (trial_ends_on, warranty_expiry).
func endWordAfter(ws []string, i int) bool {
	for _, w := range ws[i+1:] {
		switch w {
		case "end", "ends", "ending", "ended", "expires", "expiry", "expiration", "expiring", "expired", "until", "over":
			return true
		}
	}
	return false
}

// yesNoWord reports whether v is how a yes/no column writes yes or no.
func yesNoWord(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "no", "y", "n", "true", "false", "t", "f":
		return true
	}
	return false
}

// words splits a name or phrase into lower-case words (underscores,
// hyphens and punctuation separate words).
func words(s string) []string {
	toks := tokenize(s)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, t.s)
	}
	return out
}

// tableWord reports whether a last word of a table's name only says that
// it is a table of something: cars_data, model_list, order_info.
func tableWord(w string) bool {
	switch w {
	case "data", "info", "information", "details", "detail", "table", "tbl", "list", "lists", "records", "record",
		"master", "dim", "fact", "lookup", "ref", "tab", "entries":
		return true
	}
	return false
}

// recordWord reports whether w, the last word of a table's name, says
// what kind of record each row is of the thing the words before it name:
// "maintenance" for maintenance_requests, "performance" for
// performance_reviews (found from outside: "maintenance cost" and
// "performance rating" were refused). Events and items are not:
// "delivery" for delivery_events would take "delivery time" from the
// shipments; nor is a history, whose rows are versions of the thing
// ("salary" is not every row of salary_history).
func recordWord(w string) bool {
	switch w {
	case "requests", "request", "reviews", "review", "log", "logs", "reports", "report",
		// "fuel" of fuel_purchases, "maintenance" of maintenance_jobs,
		// "quiz" of quiz_attempts (found from outside: not understood).
		"purchases", "purchase", "jobs", "job", "attempts", "attempt",
		// "csat" of csat_ratings, "nps" of nps_responses (found from
		// outside: eight csat questions refused).
		"ratings", "rating", "responses", "response":
		return true
	}
	return false
}

// flagPhrase is the words of a yes/no column's name after the word that
// says it is one (is_out_of_service: out of service), or nil.
func flagPhrase(ws []string) []string {
	if len(ws) < 3 {
		return nil
	}
	switch ws[0] {
	case "is", "has", "was", "can", "did", "does", "should":
		return ws[1:]
	}
	return nil
}

// ownNameWord reports whether w is, in one form or the other, a word of
// the entity's name.
func ownNameWord(entity, w string) bool {
	w = singular(w)
	for _, x := range words(entity) {
		if singular(x) == w {
			return true
		}
	}
	return false
}

// genericWords are parts of column names too vague to stand for the column
// on their own.
func genericWord(w string) bool {
	switch w {
	case "id", "on", "at", "date", "time", "code", "is", "of", "by", "name", "number", "count", "type",
		"total", "unit", "monthly", "daily", "weekly", "yearly", "per", "the", "a", "in", "to", "and", "num",
		"value", "amount", "flag", "key", "ts", "dt", "no",
		// "customers from Denver" is never promo_codes.valid_from.
		"from", "for", "with", "into", "via", "until", "since":
		return true
	}
	return false
}

// dateWord reports whether a word of a column's name says it is a date
// or time (start_date, shipped_on, closed_at).
func dateWord(w string) bool {
	switch w {
	case "date", "on", "at", "time", "day", "ts", "dt":
		return true
	}
	return false
}

// amountWord reports whether a generic word of a column's name says
// what it measures: an amount, a total, a value.
func amountWord(w string) bool {
	switch w {
	case "amount", "total", "value":
		return true
	}
	return false
}

// wordColumns is how many of e's columns have w among their name's words.
func wordColumns(e *semantic.Entity, w string) int {
	n := 0
	for _, c := range e.Columns {
		if slices.Contains(nameWords(c.Name), w) {
			n++
		}
	}
	return n
}

// buildLexicon reads the model's names, synonyms and known values into
// phrases. scope, when not nil, keeps only the names a question's words
// could meet, and collects no terms (scope.go).
func buildLexicon(m *semantic.Model, scope *probe) lexicon {
	l := lexicon{phrases: map[string][]sense{}, formMemo: map[string][]string{}}
	if scope != nil {
		l.asked = scope.words
	}
	terms := map[string]bool{}
	collect := scope == nil
	type pendingValue struct {
		v string
		s sense
	}
	var pluralValues []pendingValue
	isRestricted := m.RestrictedCheck()
	keys := map[string]bool{} // entity.column of keys
	for _, r := range m.Relationships {
		keys[lower(r.From+"."+r.FromColumn)] = true
	}
	l.addQualifiedLinks(m, scope)
	// Dimensions over a single column stand for that column.
	dimOf := map[string]*semantic.Dimension{}
	for i := range m.Dimensions {
		d := &m.Dimensions[i]
		if e, c, ok := simpleRef(d.Expr); ok {
			if _, dup := dimOf[lower(e+"."+c)]; !dup {
				dimOf[lower(e+"."+c)] = d
			}
		}
	}
	// records are the names of tables named for a kind of record of a
	// thing ("maintenance" of maintenance_log), added once every value is
	// in: a thing that is also a value stays the value alone.
	type pendingAlias struct {
		head string
		s    sense
	}
	var records []pendingAlias
	for i := range m.Entities {
		e := &m.Entities[i]
		es := sense{kind: sEntity, name: e.Name, entity: e.Name, strength: strName}
		entityIn := scope.admitsAny(e.Name, e.Synonyms)
		if entityIn {
			l.addForms(e.Name, es)
			if n := strings.Join(words(e.Name), " "); collectiveNoun(lastWordOf(n)) {
				// "which staff member", "crew members": one of the
				// table's rows.
				l.addForms(n+" member", es)
			}
		}
		if collect {
			terms[strings.Join(words(e.Name), " ")] = true
		}
		var ws []string // the name's words, where the question may name it
		if entityIn {
			ws = words(e.Name)
		}
		if len(ws) > 1 {
			// "customers" for crm_customers, the table crm.customers
			// learn named after its schema because another schema's
			// table is called customers too: the table's own name, as
			// strong as the other's, so that the question asks which.
			if own := schemaTableWords(e); len(own) > 0 && len(own) < len(ws) && slices.Equal(ws[len(ws)-len(own):], own) {
				l.addForms(strings.Join(own, " "), es)
			}
			// "template types" for Ref_Template_Types: every ending of
			// a compound name.
			a := es
			a.strength = strAlias
			for k := 1; k < len(ws); k++ {
				if linkingWord(ws[k]) {
					// "by donors" is no name of referred_by_donor: the
					// question's own "by" (found from outside: "donated
					// by donors in Leeds" put Leeds on the referrer).
					continue
				}
				l.addForms(strings.Join(ws[k:], " "), a)
			}
			// "cars" for cars_data, "models" for model_list: the name
			// without a last word that only says it is a table.
			switch head := strings.Join(ws[:len(ws)-1], " "); {
			case tableWord(ws[len(ws)-1]):
				l.addForms(head, a)
			case recordWord(ws[len(ws)-1]):
				records = append(records, pendingAlias{head, a})
			}
		}
		for _, syn := range e.Synonyms {
			if !entityIn {
				break
			}
			s := es
			s.strength = strSynonym
			l.addForms(syn, s)
			if collect {
				terms[lower(syn)] = true
			}
		}
		if scope != nil && entityIn {
			l.admitted = append(l.admitted, i)
		}
		for _, c := range e.Columns {
			// A column the question cannot name may still hold a value
			// it names.
			colIn := scope.admitsAny(c.Name, c.Synonyms)
			if !colIn && !scope.admitsSome(c.Values) {
				continue
			}
			if scope != nil && !entityIn && (len(l.admitted) == 0 || l.admitted[len(l.admitted)-1] != i) {
				l.admitted = append(l.admitted, i)
			}
			ref := e.Name + "." + c.Name
			if isRestricted(e, c.Name) {
				if !colIn {
					continue
				}
				rs := sense{kind: sRestricted, entity: e.Name, column: c.Name, field: ref, strength: strName, withheld: m.IsWithheld(e, c.Name)}
				l.addForms(c.Name, rs)
				for _, syn := range c.Synonyms {
					l.addForms(syn, rs)
				}
				continue
			}
			field := ref
			if d := dimOf[lower(ref)]; d != nil {
				field = d.Name
			}
			cs := sense{kind: sColumn, entity: e.Name, column: c.Name, field: field, strength: strName,
				numeric: c.Type.IsNumeric(), temporal: c.Temporal()}
			cs.flag, cs.flagNo = flagValue(c)
			isKey := strings.EqualFold(c.Name, e.PrimaryKey) || keys[lower(ref)]
			if isKey && colIn {
				// Keys by their whole name only ("student id", "ids"):
				// listed or filtered, never guessed from a part of the name.
				ks := cs
				ks.key, ks.strength = true, strKey
				l.addForms(c.Name, ks)
				ws := words(c.Name)
				if nw := nameWords(c.Name); len(ws) == 1 && len(nw) > 1 && nw[len(nw)-1] == "id" {
					// "StuID", "PetID": the words written together.
					ws = nw
					l.addForms(strings.Join(ws, " "), ks)
				}
				if ws[len(ws)-1] == "id" {
					l.add(strings.Join(append(ws[:len(ws)-1:len(ws)-1], "ids"), " "), ks)
				}
				// "the ids of documents", "the type code": the ending of
				// a key's name, resolved against the table asked about.
				for k := 1; k < len(ws); k++ {
					l.addForms(strings.Join(ws[k:], " "), ks)
					if ws[len(ws)-1] == "id" {
						l.add(strings.Join(append(ws[k:len(ws)-1:len(ws)-1], "ids"), " "), ks)
					}
				}
				l.addOwn(e, c, ks)
				if ws := words(c.Name); len(ws) == 2 && ws[1] == "by" && pastForm(ws[0]) && !otherColumnSays(e, c.Name, ws[0]) {
					// "referred" of referred_by: "customers who were
					// referred" have the link set (byParticiple).
					a := ks
					a.strength = strAlias
					l.add(ws[0], a)
				}
			}
			if !isKey && colIn {
				l.addForms(c.Name, cs)
				if ws := words(c.Name); len(ws) > 2 && c.Temporal() && semantic.DateWord(ws[len(ws)-1]) {
					// "moved in" of moved_in_on, "picked up" of
					// picked_up_at: the date by its verb (found from
					// outside: "tenants who moved in last month" asked
					// moved in or moved out).
					l.addForms(strings.Join(ws[:len(ws)-1], " "), cs)
				}
				if head := moneyHead(c); len(head) > 0 {
					// "quoted amount" of quoted_total_cents: the money
					// by its own word and any word for an amount (found
					// from outside: "total quoted amount of reserved
					// rentals" read "amount" as the payments').
					for _, aw := range []string{"amount", "total", "value"} {
						l.addForms(strings.Join(append(slices.Clone(head), aw), " "), cs)
					}
				}
				if collect {
					terms[strings.Join(words(c.Name), " ")] = true
				}
				for _, syn := range c.Synonyms {
					s := cs
					s.strength = strSynonym
					l.addForms(syn, s)
					if collect {
						terms[lower(syn)] = true
					}
				}
				ws := words(c.Name)
				if nw := nameWords(c.Name); len(ws) == 1 && len(nw) > 1 {
					// "SurfaceArea": the words written together, as
					// surface_area's are ("surface area", "area").
					ws = nw
					l.addForms(strings.Join(nw, " "), cs)
				}
				if flagged := flagPhrase(ws); cs.flag != nil && len(flagged) > 1 {
					// "out of service" for is_out_of_service: the phrase
					// after is/has, and "in service" its negation, never
					// one word of it ("rooms in service" read as those
					// out of it; found from outside).
					a := cs
					a.strength = strAlias
					if ownNameWord(e.Name, flagged[len(flagged)-1]) {
						// "own goals" of goals.is_own_goal: "own", and the
						// table by its name.
						flagged = flagged[:len(flagged)-1]
					}
					l.addForms(strings.Join(flagged, " "), a)
					if flagged[0] == "out" && len(flagged) > 1 && cs.flagNo != nil {
						rest := flagged[1:]
						if rest[0] == "of" && len(rest) > 1 {
							rest = rest[1:]
						}
						n := a
						n.flag, n.flagNo = cs.flagNo, cs.flag
						l.addForms("in "+strings.Join(rest, " "), n)
					}
				} else if len(ws) > 1 {
					for i, w := range ws {
						// The verb a yes/no column's name starts with
						// ("has" of has_insurance) is a word of every
						// other question: "which city has the most
						// patients" is no condition on has_insurance
						// (found from outside: it was, at 1.00).
						if i == 0 && semantic.FlagPrefixed(c.Name) {
							continue
						}
						// A word of the table's own name says whose the
						// column is, not what it is: "defects" are the
						// defect reports, not their kinds (defect_type;
						// found from outside: "how many defects" counted
						// the 6 kinds of 900 reports).
						// The thing whose end a date is ("trial" of
						// trial_ends_on) is no name of the date: "accounts
						// on a trial" are not those with a trial end
						// date (found from outside: read as those whose
						// trial had ended, 528 for 7).
						if !genericWord(w) && len(w) > 2 && !ownNameWord(e.Name, w) && !(c.Temporal() && endWordAfter(ws, i)) {
							a := cs
							a.strength = strAlias
							l.addForms(w, a)
							if past := pastOf(w); i == 0 && len(ws) == 2 && c.Temporal() && dateWord(ws[1]) && past != "" && past != w {
								// "projects started this year": the verb
								// of start_date, as started_on's is
								// (found from outside: read as the
								// subscriptions' started_on, refused).
								l.addForms(past, a)
							}
						}
					}
					if w := ws[len(ws)-1]; amountWord(w) && cs.numeric && !cs.key && wordColumns(e, w) == 1 {
						// "the order amount" of orders.total_amount: the
						// table's one column of that word, once the
						// question names the table (an own sense; found
						// from outside: "total order amount in 2026" read
						// as invoice payments' amount, refused).
						a := cs
						a.strength, a.own = strAlias, true
						l.addForms(w, a)
					}
				} else if adj := semantic.FlagAdjective(c.Name); adj != "" && adj != lower(c.Name) && cs.flag != nil {
					// "official languages" for IsOfficial ('T' or 'F'):
					// the adjective of a yes/no column named in one piece.
					a := cs
					a.strength = strAlias
					l.addForms(adj, a)
				}
				l.addFlagNegations(c.Name, cs)
				l.addOwn(e, c, cs)
			}
			for _, v := range c.Values {
				if isNumber(v) || !scope.admits(v) {
					continue // numbers are read as numbers
				}
				if cs.flag != nil && yesNoWord(v) {
					// A yes/no column's 'no' and 'yes' are read by its
					// name ("refunds", "not refunded"), never as a word
					// of the question: "accounts with no invoices" is no
					// condition on payments.is_refund (found from
					// outside: refused so).
					continue
				}
				vs := sense{kind: sValue, entity: e.Name, column: c.Name, field: field, value: v, strength: strName}
				l.add(v, vs)
				pluralValues = append(pluralValues, pendingValue{v, vs})
				if collect {
					terms[lower(v)] = true
				}
			}
			// "male patients", "how many women" for a sex column's 'M'
			// and 'F'.
			for _, v := range c.Values {
				if !semantic.SexColumn(c.Name) {
					break // the name is read once, not for every value
				}
				for _, a := range semantic.SexAliases(v) {
					if scope.admits(a) {
						l.add(a, sense{kind: sValue, entity: e.Name, column: c.Name, field: field, value: v, strength: strName})
					}
				}
			}
		}
	}
	for i := range m.Dimensions {
		d := &m.Dimensions[i]
		e, c, simple := simpleRef(d.Expr)
		var s sense
		if simple {
			s = sense{kind: sColumn, entity: e, column: c, field: d.Name, strength: strName, temporal: d.Type == "time"}
			if ent := m.Entity(e); ent != nil {
				s.entity = ent.Name
				if col := ent.Column(c); col != nil {
					s.column = col.Name
					s.numeric, s.temporal = col.Type.IsNumeric(), col.Temporal() || d.Type == "time"
				}
				if isRestricted(ent, c) {
					continue
				}
			}
		} else {
			s = sense{kind: sDim, name: d.Name, entity: d.Entity, field: d.Name, strength: strName, temporal: d.Type == "time"}
		}
		dimIn := scope.admitsAny(d.Name, d.Synonyms)
		if dimIn {
			l.addForms(d.Name, s)
		}
		if collect {
			terms[strings.Join(words(d.Name), " ")] = true
		}
		for _, syn := range d.Synonyms {
			if !dimIn {
				break
			}
			s2 := s
			s2.strength = strSynonym
			l.addForms(syn, s2)
			if collect {
				terms[lower(syn)] = true
			}
		}
		for _, v := range d.Values {
			if isNumber(v) || !scope.admits(v) {
				continue
			}
			vs := sense{kind: sValue, entity: s.entity, column: s.column, field: d.Name, value: v, strength: strName}
			l.add(v, vs)
			pluralValues = append(pluralValues, pendingValue{v, vs})
			if collect {
				terms[lower(v)] = true
			}
		}
	}
	for i := range m.Metrics {
		mt := &m.Metrics[i]
		s := sense{kind: sMetric, name: mt.Name, entity: mt.Entity, strength: strName}
		if !scope.admitsAny(mt.Name, mt.Synonyms) {
			continue
		}
		l.addForms(mt.Name, s)
		if collect {
			terms[strings.Join(words(mt.Name), " ")] = true
		}
		for _, syn := range mt.Synonyms {
			s2 := s
			s2.strength = strSynonym
			l.addForms(syn, s2)
			if collect {
				terms[lower(syn)] = true
			}
			// "gross margin percentage" is also said "gross margin
			// percent" and "gross margin %" (read as percent).
			for _, v := range percentForms(syn) {
				l.addForms(v, s2)
			}
		}
	}
	exactMetrics(&l, m)
	for _, r := range records {
		// A record's thing that is also a value ("maintenance", a car's
		// status) stays the value alone (found from outside: "total
		// maintenance cost" summed the log of the cars in maintenance
		// now). A value the question does not hold is not in a scoped
		// lexicon, nor can the question mean it.
		if !slices.ContainsFunc(l.phrases[r.head], func(s sense) bool { return s.kind == sValue }) {
			l.addForms(r.head, r.s)
		}
	}
	// "on tablets": the plural of a one-word value, where the plural means
	// nothing else; "toy revenue": the singular of a plural one.
	added := map[string]bool{}
	kws, stops := keywords(), stopwords()
	for _, pv := range pluralValues {
		ws := words(pv.v)
		if len(ws) > 1 && isAlpha(ws[len(ws)-1]) {
			// "support agents" for the title Support Agent: the plural
			// of a value of several words, where it means nothing else.
			last := ws[len(ws)-1]
			if pl := plural(last); pl != last {
				phrase := strings.Join(append(ws[:len(ws)-1:len(ws)-1], pl), " ")
				if len(l.phrases[phrase]) == 0 || added[phrase] {
					l.add(phrase, pv.s)
					added[phrase] = true
				}
			}
			continue
		}
		if len(ws) != 1 || !isAlpha(ws[0]) {
			continue
		}
		if past := outcomePast(ws[0]); past != "" && (len(l.phrases[past]) == 0 || added[past]) {
			// "how many inspections failed": the value fail, in the past
			// form the question says it in (found from outside: refused).
			l.add(past, pv.s)
			added[past] = true
		}
		pl := plural(ws[0])
		if pl == ws[0] {
			// "toy revenue" for the value Toys: the singular of a
			// plural value, where it means nothing else.
			if sg := singular(ws[0]); sg != ws[0] && len(sg) > 3 && kws[sg] == "" && !stops[sg] && (len(l.phrases[sg]) == 0 || added[sg]) {
				l.add(sg, pv.s)
				added[sg] = true
			}
			continue
		}
		if len(l.phrases[pl]) > 0 && !added[pl] && !onlyAliases(l.phrases[pl]) && !otherColumnsValues(l.phrases[pl], pv.s) {
			continue // a plural shared by two values stays ambiguous
		}
		l.add(pl, pv.s)
		added[pl] = true
	}
	for t := range terms {
		if t != "" {
			l.terms = append(l.terms, t)
		}
	}
	sort.Strings(l.terms)
	l.buildForms()
	l.formMemo = nil // the lexicon is read by concurrent plans from here on
	return l
}

// otherColumnsValues reports whether every sense of a phrase is a value
// of another column than s's: a plural of s's value that is also another
// column's value as written ("children": the genre Children, and the
// membership type child) may mean either, and is read as both, which the
// planner asks between (found from outside: "how many children members
// joined" counted members with a hold on a children's book, at 0.85).
func otherColumnsValues(ss []sense, s sense) bool {
	for _, o := range ss {
		if o.kind != sValue || strings.EqualFold(o.entity, s.entity) && strings.EqualFold(o.column, s.column) {
			return false
		}
	}
	return true
}

// outcomePast is the past form of a value that names an outcome as a bare
// verb ("fail": "failed", "approve": "approved"), "" for any other word.
// Not "open" nor "close": "opened" and "closed" say when, not which.
func outcomePast(v string) string {
	switch v {
	case "fail", "pass", "approve", "reject", "deny", "decline", "accept", "confirm", "complete", "cancel",
		"refund", "return", "expire", "default", "miss", "win", "lose", "void", "settle", "dispute", "resolve", "escalate":
		return pastOf(v)
	}
	return ""
}

// schemaTableWords are the words of an entity's table name when the
// table is named with its schema ("crm.customers": customers), else nil.
func schemaTableWords(e *semantic.Entity) []string {
	if e.Schema == "" {
		return nil
	}
	return words(e.TableName())
}

// simpleRef reports whether expr is a bare "entity.column" reference.
func simpleRef(expr string) (string, string, bool) {
	e, c, ok := strings.Cut(strings.TrimSpace(expr), ".")
	if !ok || !isIdent(e) || !isIdent(c) {
		return "", "", false
	}
	return e, c, true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// plural is the English plural of a noun, by the usual rules.
func plural(w string) string {
	if p := semantic.IrregularPlural(w); p != "" {
		return p
	}
	switch {
	case w == "" || len(w) < 3 || isNumber(w):
		return w
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w // already plural, most likely
	case strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// singular is the English singular of a plural noun, by the usual rules.
func singular(w string) string {
	if sg := semantic.IrregularSingular(w); sg != "" {
		return sg
	}
	switch {
	case len(w) < 4 || isNumber(w), strings.HasSuffix(w, "species"), strings.HasSuffix(w, "series"):
		return w // its own singular ("pets whose species is Dog", not "specy")
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
		case s[i] == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// senses returns the meanings of a phrase, or none.
func (l *lexicon) senses(phrase string) []sense {
	s, _ := l.get(phrase)
	return s
}

// percentForms are the other ways to say a phrase that ends in percent,
// percentage or pct.
func percentForms(phrase string) []string {
	ws := words(phrase)
	if len(ws) < 2 {
		return nil
	}
	last, head := ws[len(ws)-1], strings.Join(ws[:len(ws)-1], " ")
	switch last {
	case "percent", "percentage", "pct":
	default:
		return nil
	}
	var out []string
	for _, w := range []string{"percent", "percentage"} {
		if w != last {
			out = append(out, head+" "+w)
		}
	}
	return out
}

// onlyAliases reports whether every sense is a word of a longer name
// ("cat" of treatment_cat; not the adjective of a yes/no column), which the plural of a value ("cats" for the
// species Cat) is read before (found from outside: "how many cats" was
// the number of treatment categories).
func onlyAliases(ss []sense) bool {
	for _, s := range ss {
		if s.strength > strAlias || s.kind == sValue || s.flag != nil {
			return false
		}
	}
	return len(ss) > 0
}

// exactMetrics keeps, of the metrics a phrase names, those it names
// exactly (a name or a synonym as written) where it names one so: a
// metric reached only by another form of its name gives way ("conversion",
// the demo's synonym of conversion_rate, not the singular of conversions;
// found from outside: "conversion by traffic source" measured the
// conversions, and the checks refused it).
func exactMetrics(l *lexicon, m *semantic.Model) {
	exact := map[string]map[string]bool{}
	note := func(phrase, metric string) {
		k := strings.Join(words(phrase), " ")
		if exact[k] == nil {
			exact[k] = map[string]bool{}
		}
		exact[k][metric] = true
	}
	for i := range m.Metrics {
		note(m.Metrics[i].Name, m.Metrics[i].Name)
		for _, syn := range m.Metrics[i].Synonyms {
			note(syn, m.Metrics[i].Name)
		}
	}
	for phrase, names := range exact {
		ss, ok := l.phrases[phrase]
		if !ok {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(ss), func(s sense) bool { return s.kind == sMetric && !names[s.name] })
		if len(kept) < len(ss) && slices.ContainsFunc(kept, func(s sense) bool { return s.kind == sMetric }) {
			l.phrases[phrase] = kept
		}
	}
}

// otherColumnSays reports whether a column of e other than col has w among
// its name's words ("created" of created_at beside created_by).
func otherColumnSays(e *semantic.Entity, col, w string) bool {
	for _, c := range e.Columns {
		if !strings.EqualFold(c.Name, col) && slices.Contains(words(c.Name), w) {
			return true
		}
	}
	return false
}

// linkingWord reports whether a word of a compound name links its other
// words ("referred_by_donor", "cost_per_unit"), so that an ending of the
// name it starts is a phrase of a question's own, not the name.
func linkingWord(w string) bool {
	switch w {
	case "by", "of", "per", "for", "to", "from", "in", "at", "on", "with", "and", "or":
		return true
	}
	return false
}
