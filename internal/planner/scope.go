package planner

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Wide models. The lexicon of a model holds every form of every name,
// synonym and known value; on a warehouse of ten thousand tables that is
// hundreds of thousands of meanings, and building it took seconds, more
// than the rest of a command together. A question, though, can only meet
// the names that share a word with it. So for a model of more than
// wideEntities entities the planner builds no lexicon up front: each
// question gets the lexicon of the names its words could match (scope),
// built by the same code from the same model, and the model itself, its
// join graph and its verified queries stay whole.
//
// What "could match" means is a superset, never a guess: a name is kept
// when, with its separators removed and its letters lower-cased and
// without accents, it contains one of the question's words or another
// form of one (singular, an irregular form, the stem without its last
// letters, as the stemmer may change them), or holds one of the question's
// short function words ("it", "a") as a whole word. Every phrase, stem and
// joined form the planner looks up for the question is a form of such a
// word, so each of its meanings comes from a name kept: the plan is the
// one the whole lexicon gives (TestScopedPlansAsWhole). Suggestions for
// unknown words read the terms of the whole model, built when first
// needed.

// wideEntities is the number of entities above which the lexicon is built
// per question. Below it, building the whole lexicon once is cheaper than
// a scope per question (a model of 1,000 entities builds in about 0.2 s).
const wideEntities = 2000

// probe is what a question's words can match in a name.
type probe struct {
	subs  [][]byte        // content words and their forms, anywhere in the squashed name
	whole [][]byte        // function words, as whole words of the lower-cased name
	words map[string]bool // the question's words, as tokenize reads them
	buf   []byte
	low   []byte
	// pairs holds the first two bytes of every sub: a name with none of
	// them at any place holds no sub, which rules out most of a wide
	// schema's names without searching for each sub.
	pairs [1 << 16 / 64]uint64
}

// pairOf is the index in pairs of the two bytes a, b.
func pairOf(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

// mayHoldSub reports whether b has, somewhere, the first two bytes of a
// sub.
func (pr *probe) mayHoldSub(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		k := pairOf(b[i], b[i+1])
		if pr.pairs[k/64]&(1<<(k%64)) != 0 {
			return true
		}
	}
	return false
}

// probeOf is the probe of a question's words.
func (p *Planner) probeOf(question string) *probe {
	pr := &probe{words: map[string]bool{}}
	seen := map[string]bool{}
	sub := func(s string) {
		if len(s) >= 2 && !seen[s] {
			seen[s] = true
			pr.subs = append(pr.subs, []byte(s))
			k := pairOf(s[0], s[1])
			pr.pairs[k/64] |= 1 << (k % 64)
		}
	}
	for _, t := range tokenize(question) {
		pr.words[t.s] = true
		w := string(squash(nil, t.s))
		if w == "" {
			continue
		}
		if p.function[w] || len(w) < 2 {
			if !seen[" "+w] {
				seen[" "+w] = true
				pr.whole = append(pr.whole, []byte(w))
			}
			continue
		}
		sub(w)
		sub(singular(w))
		for _, b := range []string{irregular(w), stemWord(w), stemWord(singular(w))} {
			sub(b)
			sub(stemPrefix(b))
			for _, f := range irregulars().forms[b] {
				sub(f)
			}
		}
	}
	return pr
}

// stemPrefix is a stem without the letters a stemmer may have changed
// ("happi" of happy and happiness): all but its last two, at least three.
func stemPrefix(s string) string {
	if len(s) <= 3 {
		return s
	}
	return s[:max(3, len(s)-2)]
}

// squash appends s lower-cased, without accents and with letters and
// digits only to dst.
func squash(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return squashFolded(dst, foldAccents(strings.ToLower(s)))
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			dst = append(dst, c)
		}
	}
	return dst
}

func squashFolded(dst []byte, s string) []byte {
	for _, r := range s {
		if r >= utf8.RuneSelf || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// admits reports whether a name could meet the question: nil admits all.
func (pr *probe) admits(name string) bool {
	if pr == nil {
		return true
	}
	pr.buf = squash(pr.buf[:0], name)
	if pr.mayHoldSub(pr.buf) {
		for _, s := range pr.subs {
			if bytes.Contains(pr.buf, s) {
				return true
			}
		}
	}
	if len(pr.whole) == 0 {
		return false
	}
	pr.low = lowerInto(pr.low[:0], name)
	for _, w := range pr.whole {
		if hasWord(pr.low, w) {
			return true
		}
	}
	return false
}

// admitsAny reports whether the name or one of its other names could
// meet the question.
func (pr *probe) admitsAny(name string, others []string) bool {
	if pr == nil || pr.admits(name) {
		return true
	}
	for _, o := range others {
		if pr.admits(o) {
			return true
		}
	}
	return false
}

// admitsSome reports whether one of the values could meet the question.
func (pr *probe) admitsSome(values []string) bool {
	for _, v := range values {
		if pr.admits(v) {
			return true
		}
	}
	return false
}

// lowerInto appends name lower-cased to dst.
func lowerInto(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return append(dst, strings.ToLower(name)...)
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// hasWord reports whether w is a whole word of low: between its ends and
// characters other than letters and digits.
func hasWord(low []byte, w []byte) bool {
	for i := 0; ; {
		j := bytes.Index(low[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isWordByte(low[j-1])) && (end == len(low) || !isWordByte(low[end])) {
			return true
		}
		i = j + 1
	}
}

// scopedTo is the planner to plan question with: p itself for a model
// that is not wide, otherwise a copy whose lexicon holds the names the
// question could meet (and the values found for it).
func (p *Planner) scopedTo(question string) *Planner {
	if !p.wide {
		return p
	}
	q := *p
	text := p.scopeText(question)
	q.lex = buildLexicon(p.m, p.probeOf(text))
	p.scopes.keep(text, p.m.Entities, q.lex.admitted)
	q.lex.extra, q.lex.ids = p.lex.extra, p.lex.ids
	// Phrases longer than the scope's may be read by another form of
	// their words ("high schoolers" for Highschooler) up to three words,
	// as the whole lexicon's longest phrase allows.
	q.lex.maxLen = max(q.lex.maxLen, p.lex.maxLen, p.formLen)
	return &q
}

// scopeText is the text whose words make question's probe: the words plan
// reads are also those it writes in, the values an alias names ("French":
// France) and the abbreviations written out, and names may hold short
// forms of its words ("hours" meets hrs_worked).
func (p *Planner) scopeText(question string) string {
	text := question + " " + p.m.ExpandCountryNames(semantic.ExpandAliases(question, p.m.HasValue))
	for _, a := range abbreviations() {
		if a.re.MatchString(question) {
			text += " " + a.word
		}
	}
	for _, t := range tokenize(question) {
		semantic.ShortFormsOf(t.s, func(long string) []string { return []string{long, plural(long), singular(long)} }, func(short string) {
			text += " " + short
		})
	}
	return text
}

// ScopeModel is m as what reads question against its query q needs it
// (verify.Coverage): for a planner of a wide model, m without the
// entities that question cannot name and nothing of q reads; m itself
// otherwise. On ten thousand tables the coverage check's passes over
// every column cost more than planning; here they pass over a few. An
// entity is kept when the question's probe admits its name, a synonym,
// a column's name or synonym or one of a column's known values (as the
// scoped lexicon keeps them), or when a word of q, of a metric or of a
// dimension of m names it; the relationships, metrics and dimensions
// stay whole (TestScopedCoverageAsWhole).
func (p *Planner) ScopeModel(question string, m *semantic.Model, q *semantic.Query) *semantic.Model {
	if !p.wide || m == nil {
		return m
	}
	text := p.scopeText(question)
	admitted, ok := p.scopes.of(text, m.Entities)
	if !ok {
		pr := p.probeOf(text)
		for i := range m.Entities {
			if admitsEntity(pr, &m.Entities[i]) {
				admitted = append(admitted, i)
			}
		}
	}
	keep := make([]bool, len(m.Entities))
	for _, i := range admitted {
		keep[i] = true
	}
	named := map[string]bool{}
	nameWordsOf := func(s string) {
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
			named[lower(w)] = true
		}
	}
	if b, err := json.Marshal(q); err == nil {
		nameWordsOf(string(b))
	}
	for _, mt := range m.Metrics {
		nameWordsOf(mt.Entity + " " + mt.Expr + " " + mt.Time + " " + strings.Join(mt.Filters, " "))
	}
	for _, d := range m.Dimensions {
		nameWordsOf(d.Entity + " " + d.Expr)
	}
	sub := *m
	sub.Entities = make([]semantic.Entity, 0, 64)
	for i := range m.Entities {
		if e := &m.Entities[i]; keep[i] || named[lower(e.Name)] {
			sub.Entities = append(sub.Entities, *e)
		}
	}
	return &sub
}

// scopeMemo holds the entities the last scope admitted, for ScopeModel
// to cut the model by without passing over its names again. It is
// shared by a planner and its scoped copies, and safe for concurrent
// use.
type scopeMemo struct {
	mu       sync.Mutex
	text     string            // the scope's text (scopeText)
	ents     []semantic.Entity // the entities admitted indexes
	admitted []int
}

// keep records that text's probe admitted these of ents.
func (s *scopeMemo) keep(text string, ents []semantic.Entity, admitted []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text, s.ents, s.admitted = text, ents, admitted
}

// of is what text's probe admitted of ents, when the last scope was
// text's over these very entities.
func (s *scopeMemo) of(text string, ents []semantic.Entity) ([]int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.text != text || len(s.ents) != len(ents) || len(ents) == 0 || &s.ents[0] != &ents[0] {
		return nil, false
	}
	return s.admitted, true
}

// admitsEntity reports whether the probe admits e's name, a synonym, or
// a column's name, synonym or known value.
func admitsEntity(pr *probe, e *semantic.Entity) bool {
	if pr.admitsAny(e.Name, e.Synonyms) {
		return true
	}
	for _, c := range e.Columns {
		if pr.admitsAny(c.Name, c.Synonyms) || pr.admitsSome(c.Values) {
			return true
		}
	}
	return false
}

// isWordRune reports whether r may be part of a name.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// longestPhrase is the number of words of the model's longest phrase, up
// to limit: what the whole lexicon's maxLen would be, read without
// building it (it stops at the first phrase as long as limit).
func longestPhrase(m *semantic.Model, limit int) int {
	n := 0
	see := func(s string) bool {
		n = max(n, len(tokenize(s)))
		return n >= limit
	}
	keys := map[string]bool{}
	for _, r := range m.Relationships {
		keys[lower(r.From+"."+r.FromColumn)] = true
	}
	for i := range m.Entities {
		e := &m.Entities[i]
		if see(e.Name) || anyOf(e.Synonyms, see) {
			return n
		}
		for _, c := range e.Columns {
			if see(c.Name) || anyOf(c.Synonyms, see) {
				return n
			}
			// "StuID", "SurfaceArea": the words of a name written
			// together (a key's when they end in id).
			isKey := strings.EqualFold(c.Name, e.PrimaryKey) || keys[lower(e.Name+"."+c.Name)]
			if nw := nameWords(c.Name); len(tokenize(c.Name)) == 1 && len(nw) > 1 && (!isKey || nw[len(nw)-1] == "id") {
				if n = max(n, len(nw)); n >= limit {
					return n
				}
			}
			for _, v := range c.Values {
				if !isNumber(v) && see(v) {
					return n
				}
			}
		}
	}
	for _, d := range m.Dimensions {
		if see(d.Name) || anyOf(d.Synonyms, see) {
			return n
		}
		for _, v := range d.Values {
			if !isNumber(v) && see(v) {
				return n
			}
		}
	}
	for _, mt := range m.Metrics {
		if see(mt.Name) || anyOf(mt.Synonyms, see) {
			return n
		}
		for _, syn := range mt.Synonyms {
			if anyOf(percentForms(syn), see) {
				return n
			}
		}
	}
	return n
}

// modelTerms are the terms the whole lexicon lists for suggestions
// (buildLexicon's terms), read without building it: the names, synonyms
// and known values of what is neither a key nor restricted.
func modelTerms(m *semantic.Model) []string {
	terms := map[string]bool{}
	name := func(s string) { terms[strings.Join(words(s), " ")] = true }
	synonyms := func(ss []string) {
		for _, s := range ss {
			terms[lower(s)] = true
		}
	}
	values := func(vs []string) {
		for _, v := range vs {
			if !isNumber(v) {
				terms[lower(v)] = true
			}
		}
	}
	isRestricted := m.RestrictedCheck()
	keys := map[string]bool{}
	for _, r := range m.Relationships {
		keys[lower(r.From+"."+r.FromColumn)] = true
	}
	for i := range m.Entities {
		e := &m.Entities[i]
		name(e.Name)
		synonyms(e.Synonyms)
		for _, c := range e.Columns {
			if isRestricted(e, c.Name) {
				continue
			}
			if !strings.EqualFold(c.Name, e.PrimaryKey) && !keys[lower(e.Name+"."+c.Name)] {
				name(c.Name)
				synonyms(c.Synonyms)
			}
			if yes, _ := flagValue(c); yes != nil {
				// A yes/no column's yes and no are no terms (the
				// lexicon's values skip them too).
				values(slices.DeleteFunc(slices.Clone(c.Values), yesNoWord))
				continue
			}
			values(c.Values)
		}
	}
	for _, d := range m.Dimensions {
		if e, c, simple := simpleRef(d.Expr); simple {
			if ent := m.Entity(e); ent != nil && isRestricted(ent, c) {
				continue
			}
		}
		name(d.Name)
		synonyms(d.Synonyms)
		values(d.Values)
	}
	for _, mt := range m.Metrics {
		name(mt.Name)
		synonyms(mt.Synonyms)
	}
	delete(terms, "")
	out := make([]string, 0, len(terms))
	for t := range terms {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func anyOf(ss []string, f func(string) bool) bool {
	for _, s := range ss {
		if f(s) {
			return true
		}
	}
	return false
}

// replan plans another wording of a question: in the scope of its own
// words.
func (p *Planner) replan(question string, asOf time.Time) *Plan {
	return p.scopedTo(question).plan(question, asOf)
}

// terms are the known terms of the whole model, for suggestions.
func (p *Planner) terms() []string {
	if p.allTerms != nil {
		return p.allTerms()
	}
	return p.lex.terms
}
