package planner

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Word forms. A question says "superheroes", "sold", "enrolled" or "high
// schoolers" where the knowledge says superhero, sales, enrolment or
// Highschooler. The knowledge's names and synonyms are also indexed by
// the stems of their words (the Snowball English stemmer, after the
// irregular forms below) and by their words written together, and a
// phrase of the question that is not itself known is looked up there. A
// match is explained in the plan ("superheroes" read as "superhero"), and
// it never overrides a known phrase or a structural word.

// irregularForms are the irregular forms: each line a base, then the
// forms that mean it.
type irregularForms struct {
	plural, past map[string]string   // form → base
	forms        map[string][]string // base → its forms, plural and past
}

// irregulars is the one table of irregular forms, read once.
var irregulars = sync.OnceValue(func() irregularForms {
	t := irregularForms{plural: map[string]string{}, past: map[string]string{}, forms: map[string][]string{}}
	read := func(into map[string]string, table string) {
		for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
			base, forms, _ := strings.Cut(strings.TrimSpace(line), ":")
			for _, f := range strings.Fields(forms) {
				into[f] = base
				t.forms[base] = append(t.forms[base], f)
			}
		}
	}
	read(t.plural, `
		person: people persons
		child: children
		man: men
		woman: women
		mouse: mice
		goose: geese
		tooth: teeth
		foot: feet
		ox: oxen
		criterion: criteria
		phenomenon: phenomena
		analysis: analyses
		thesis: theses
		index: indices
		matrix: matrices
		vertex: vertices
		leaf: leaves
		wife: wives
		life: lives
		knife: knives
		half: halves
		shelf: shelves
		wolf: wolves
		thief: thieves
		self: selves`)
	read(t.past, `
		sell: sold
		buy: bought
		pay: paid
		make: made
		hold: held
		win: won
		lose: lost
		run: ran
		begin: began begun
		fly: flew flown
		drive: drove driven
		give: gave given
		take: took taken
		go: went gone
		leave: left
		meet: met
		build: built
		send: sent
		spend: spent
		lead: led
		find: found
		choose: chose chosen
		grow: grew grown
		know: knew known
		ride: rode ridden
		sing: sang sung
		speak: spoke spoken
		teach: taught
		write: wrote written
		catch: caught
		bring: brought
		think: thought
		fight: fought
		seek: sought
		keep: kept
		sleep: slept
		feel: felt
		deal: dealt
		mean: meant
		stand: stood
		understand: understood
		tell: told
		become: became
		come: came
		see: saw seen
		eat: ate eaten
		draw: drew drawn
		throw: threw thrown
		break: broke broken
		hide: hid hidden
		fall: fell fallen
		shoot: shot
		breed: bred
		feed: fed
		shake: shook shaken
		wake: woke
		steal: stole stolen
		freeze: froze frozen
		swim: swam swum
		wear: wore worn
		tear: tore torn
		bear: bore
		birth: born
		lend: lent
		bend: bent
		dig: dug
		hang: hung
		strike: struck`)
	return t
})

// irregular maps irregular English forms to the form the stemmer treats
// like the rest: plurals the suffix rules miss and past forms of common
// verbs.
func irregular(w string) string {
	if b := irregularPlural(w); b != w {
		return b
	}
	return irregularPast(w)
}

// irregularPlural is the singular of a plural the suffix rules miss.
func irregularPlural(w string) string {
	if b, ok := irregulars().plural[w]; ok {
		return b
	}
	return w
}

// irregularPast is the base of an irregular past form of a common verb.
func irregularPast(w string) string {
	if b, ok := irregulars().past[w]; ok {
		return b
	}
	return w
}

// Stem is the form the planner compares a lower-case word in: the
// Snowball English stem after the irregular plurals and past forms (people
// → person, sold → sell). The retrieval index compares words the same way.
func Stem(w string) string { return stemWord(w) }

// stemWord is the stem of one lower-case word.
func stemWord(w string) string {
	w = irregular(w)
	if len(w) < 3 || !isAlpha(w) {
		return w
	}
	st := english.Stem(w, true)
	if w == st+"ly" || w == st+"lies" {
		// "nightly", "monthly" (and the plural the lexicon makes of
		// them): the word the -ly was put to is another (found from
		// outside: "total nights booked" summed nightly_rate).
		return st + "ly"
	}
	return st
}

// stemKey is the stems of a phrase's words, joined by single spaces.
func stemKey(phrase string) string {
	ws := strings.Fields(phrase)
	for i, w := range ws {
		ws[i] = stemWord(w)
	}
	return strings.Join(ws, " ")
}

// stems remembers the stems of the words it was asked: the names of a
// wide schema share their words (ten thousand tables, a few hundred
// words), and each word is stemmed once.
type stems map[string]string

func (st stems) word(w string) string {
	s, ok := st[w]
	if !ok {
		s = stemWord(w)
		st[w] = s
	}
	return s
}

// key is stemKey through st.
func (st stems) key(phrase string) string {
	ws := strings.Fields(phrase)
	for i, w := range ws {
		ws[i] = st.word(w)
	}
	return strings.Join(ws, " ")
}

// formHit is a knowledge phrase found by another form of its words.
type formHit struct {
	phrase string // the knowledge's phrase ("superhero")
	senses []sense
}

// buildForms indexes the lexicon's names and synonyms (not values, whose
// words are data, nor keys, nor the rest of a column's name after its
// table's: own.go) by stem and by their words written together.
func (l *lexicon) buildForms() {
	l.forms = map[string]formHit{}
	l.verbs = map[string]formHit{}
	l.known = map[string][]sense{}
	inKnown := map[senseID]bool{}
	for phrase, ss := range l.phrases {
		for _, w := range strings.Fields(phrase) {
			if l.asked != nil && !l.asked[w] {
				continue // looked up by the question's words alone
			}
			for _, s := range ss {
				id := senseID{w, s.kind, s.name, s.entity, s.column, s.value, false}
				if !s.own && !inKnown[id] {
					inKnown[id] = true
					l.known[w] = append(l.known[w], s)
				}
			}
		}
	}
	// merged holds the meanings of a key two phrases share, from the
	// second phrase on.
	merged := map[string]map[senseID]bool{}
	add := func(key, phrase string, ss []sense) {
		if key == "" {
			return
		}
		if old, ok := l.forms[key]; ok {
			if old.phrase != phrase {
				// Two phrases with one stem: the forms of both.
				in := merged[key]
				if in == nil {
					in = map[senseID]bool{}
					for _, s := range old.senses {
						in[senseID{"", s.kind, s.name, s.entity, s.column, s.value, false}] = true
					}
					merged[key] = in
				}
				for _, s := range ss {
					id := senseID{"", s.kind, s.name, s.entity, s.column, s.value, false}
					if !in[id] {
						in[id] = true
						old.senses = append(old.senses, s)
					}
				}
				l.forms[key] = old
			}
			return
		}
		l.forms[key] = formHit{phrase: phrase, senses: slices.Clip(ss)} // appending never writes into phrases
	}
	phrases := make([]string, 0, len(l.phrases))
	for phrase := range l.phrases {
		// Not the plural made of a past form ("openeds" of opened_at).
		if !strings.HasSuffix(phrase, "eds") {
			phrases = append(phrases, phrase)
		}
	}
	sort.Strings(phrases) // the shorter of two forms names the match
	st := stems{}
	for _, phrase := range phrases {
		ss := l.phrases[phrase]
		var named []sense
		for _, s := range ss {
			if s.kind != sValue && s.strength != strKey && !s.own {
				named = append(named, s)
			}
		}
		if len(named) == 0 {
			continue
		}
		add(st.key(phrase), phrase, named)
		// The verb in a measure's name ("units sold", "orders placed",
		// "tickets opened"): another form of it names the measure.
		for _, w := range strings.Fields(phrase) {
			if !strings.HasSuffix(w, "ed") && irregularPast(w) == w {
				continue
			}
			for _, s := range named {
				if s.kind != sMetric {
					continue
				}
				h := l.verbs[st.word(w)]
				if !hasSense(h.senses, s) {
					h.phrase = phrase
					h.senses = append(h.senses, s)
					l.verbs[st.word(w)] = h
				}
			}
		}
		if !strings.Contains(phrase, " ") {
			add("+"+st.word(phrase), phrase, named) // "highschooler", "lifeexpectancy"
		}
	}
}

func hasSense(ss []sense, s sense) bool {
	for _, o := range ss {
		if o.kind == s.kind && o.name == s.name && o.entity == s.entity && o.column == s.column && o.value == s.value {
			return true
		}
	}
	return false
}

// form looks up a phrase of the question that the knowledge does not hold
// as written: by the stems of its words, or, for two or three words, by
// the words written together ("high schoolers" for Highschooler, "life
// expectancy" for LifeExpectancy). Phrases that start or end with a word
// without meaning, and numbers, are not looked up.
func (p *Planner) form(toks []token) (formHit, bool) {
	first, last := toks[0].s, toks[len(toks)-1].s
	ws := make([]string, len(toks))
	for i, t := range toks {
		ws[i] = t.s
	}
	if len(toks) >= 2 && len(toks) <= 3 && !p.stop[last] && first != "in" {
		// "is official" for IsOfficial. Never "in" and a word: "units
		// in deleted properties" is no "indeleted", the negation of
		// is_deleted (found from outside: is_deleted = 0 at 1.00).
		if ss, ok := p.lex.phrases[strings.Join(ws, "")]; ok {
			return formHit{phrase: strings.Join(ws, ""), senses: ss}, true
		}
	}
	if len(toks) == 2 && p.stop[last] && !p.stop[first] && isAlpha(first) {
		// "checked in", "checking out": a verb and its particle, the
		// event a date column named by them records (check_in), found
		// from outside unread. Only a date's: "orders in" is no phrase.
		if h, ok := p.lex.forms[stemKey(strings.Join(ws, " "))]; ok && strings.HasSuffix(h.phrase, " "+last) && temporalOnly(h.senses) {
			return h, true
		}
	}
	if p.stop[first] || p.stop[last] || !isAlpha(first) || !isAlpha(last) {
		return formHit{}, false
	}
	if _, kw := p.kws[first]; kw && len(toks) == 1 {
		return formHit{}, false
	}
	if h, ok := p.lex.forms[stemKey(strings.Join(ws, " "))]; ok && len(ws) == 1 {
		if e := p.nounOfMaking(ws[0], h.senses); e != nil {
			// "bookings" of reservations dated by booked_at: the rows
			// the verb makes, not the date or a state (found from
			// outside: read as 'booked', and refused).
			return formHit{phrase: ws[0], senses: []sense{{kind: sEntity, name: e.Name, entity: e.Name, strength: strAlias}}}, true
		}
	}
	// "born" is the event its birth columns date, not a state of them.
	if h, ok := p.lex.forms[stemKey(strings.Join(ws, " "))]; ok && (!stateForEvent(ws, h.phrase) || ws[len(ws)-1] == "born" || measured(h.senses) && !p.otherMeaning(ws, h.senses)) {
		return h, true
	}
	if len(toks) >= 2 && len(toks) <= 3 {
		glued := strings.Join(ws, "")
		if h, ok := p.lex.forms["+"+stemWord(glued)]; ok {
			return h, true
		}
	}
	return formHit{}, false
}

// stateForEvent reports whether a past form stands for a bare word, in
// either direction: "opened tickets" is not "open tickets", nor "open" the
// opened_at column. A past form matches only another past form or a word
// derived from the verb ("enrolled" and enrolment, "performed" and
// performance).
func stateForEvent(question []string, phrase string) bool {
	known := strings.Fields(phrase)
	if len(known) != len(question) {
		return false
	}
	past := func(w string) bool { return strings.HasSuffix(w, "ed") || irregularPast(w) != w }
	bare := func(w, base string) bool {
		return w == base || singular(w) == base || plural(base) == w
	}
	for i, w := range question {
		k := known[i]
		switch {
		case past(w) && !past(k):
			if b := irregular(stemWord(w)); bare(k, b) || bare(k, irregularPast(w)) {
				return true
			}
		case past(k) && !past(w):
			if bare(w, stemWord(k)) || bare(w, irregularPast(k)) {
				return true
			}
		}
	}
	return false
}

// otherMeaning reports whether a word of the phrase belongs to a known
// phrase that means something else: "open" of open tickets.
func (p *Planner) otherMeaning(ws []string, ss []sense) bool {
	for _, w := range ws {
		for _, s := range p.lex.known[w] {
			if !hasSense(ss, s) {
				return true
			}
		}
	}
	return false
}

// pastForm reports whether a word is the past form of a verb.
func pastForm(w string) bool {
	return len(w) > 3 && isAlpha(w) && (strings.HasSuffix(w, "ed") || irregularPast(w) != w)
}

// measured reports whether every meaning is a number or a date column:
// "priced" is the price and "hire" the hired_on date, which are no state
// a past form could be mistaken for (unlike "opened" and open tickets).
func measured(ss []sense) bool {
	for _, s := range ss {
		if s.kind != sColumn || !s.numeric && !s.temporal {
			return false
		}
	}
	return len(ss) > 0
}

// temporalOnly reports whether every sense is a date column or
// dimension.
func temporalOnly(ss []sense) bool {
	for _, s := range ss {
		if s.kind != sColumn && s.kind != sDim || !s.temporal {
			return false
		}
	}
	return len(ss) > 0
}

// verb reads a word that is a form of the verb in one measure's name
// ("sell" and "selling" for units sold): the measure, when exactly one
// has that verb. Structural words, words without meaning and words of
// known phrases are never read so.
func (p *Planner) verb(t token) (formHit, bool) {
	if p.stop[t.s] || !isAlpha(t.s) {
		return formHit{}, false
	}
	h, ok := p.lex.verbs[stemWord(t.s)]
	if !ok || len(h.senses) != 1 {
		return formHit{}, false
	}
	for _, s := range p.lex.known[t.s] {
		if !hasSense(h.senses, s) {
			// A word of a phrase that means something else has that
			// meaning: "open" of open tickets is not the verb of
			// tickets opened.
			return formHit{}, false
		}
	}
	return h, true
}

// absorbVerbs reads a verb together with the measure it belongs to: the
// words before it and the verb are another form of the measure's name
// ("how many items were sold": items sold), or the question names the
// measure otherwise ("how many units did we sell": units is units sold),
// and the verb, read past, is listed among the ignored words.
func (p *Planner) absorbVerbs(items []item) []item {
	for i := range items {
		if !items[i].verb {
			continue
		}
		j := i - 1
		for j >= 0 && items[j].kind == itStop {
			j--
		}
		if j >= 0 && items[j].kind == itTerm && !items[j].verb {
			if h, ok := p.lex.forms[stemKey(items[j].text+" "+items[i].text)]; ok && hasSense(h.senses, items[i].senses[0]) {
				items[j].senses, items[j].via = []sense{items[i].senses[0]}, h.phrase
				items[i] = item{kind: itStop, text: items[i].text}
				continue
			}
		}
		for j := range items {
			if j != i && items[j].kind == itTerm && !items[j].verb && hasSense(items[j].senses, items[i].senses[0]) {
				items[i] = item{kind: itStop, text: items[i].text}
				break
			}
		}
	}
	return items
}

// nounOfMaking is the one table whose rows the plural noun w of a verb
// names ("bookings"), where among senses, the forms of that verb, is the date each
// of its rows is made on (its time column, an event: reservations.booked_at);
// nil otherwise.
func (p *Planner) nounOfMaking(w string, senses []sense) *semantic.Entity {
	if !strings.HasSuffix(w, "ings") {
		return nil // "arriving date" is the date; "bookings" are rows
	}
	var found *semantic.Entity
	for _, s := range senses {
		if s.kind != sColumn || !s.temporal {
			continue
		}
		e := p.entity(s.entity)
		if e == nil || !strings.EqualFold(e.TimeColumn, s.column) {
			continue
		}
		if c := e.Column(s.column); c == nil || c.TimeRole != semantic.TimeRoleEvent && c.TimeRole != "" {
			continue
		}
		if found != nil && found != e {
			return nil
		}
		found = e
	}
	return found
}

// collectiveNoun reports whether w names a group of people whose one is
// a "member" ("staff member", "crew members").
func collectiveNoun(w string) bool {
	switch w {
	case "staff", "crew", "team", "personnel", "faculty", "workforce":
		return true
	}
	return false
}
