package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// textPattern is a condition on the text of a column: "whose name
// contains 'smith'", "cities starting with 'San'", "documents with the
// letter w in their description".
type textPattern struct {
	op    semantic.Op // OpLike, OpPrefix or OpSuffix
	value string
	// quoted: the value was written in quotes, or named as a word,
	// letter or substring; otherwise it is one bare word, read as a
	// pattern only where the column it is said of is named.
	quoted bool
	// before are the words right before the verb that may name the
	// column ("name" in "whose name contains"); owner is the word before
	// "whose" ("state" in "the state whose name contains"), which names
	// the column where it is one. after are the words of "in its title".
	before, after []string
	beforeAt      []int // where each word of before starts
	owner         string
	// table is the table named right before the verb ("products
	// containing 'Pro'"), whose column the text is looked for in.
	table string
	// word: said as "the word …", which the filter finds inside longer
	// words too; the reading says so.
	word bool
	// negated: "does not contain", "not starting with".
	negated bool
	// start and end are the span the question is read without; ownerAt
	// is where the span starts when the owner is the column, verbAt where
	// it starts when the words before name no column ("products
	// starting with 'Ultra'").
	start, end, ownerAt, verbAt int
}

// pword is a word of the question, or a quoted string, with its span.
type pword struct {
	s          string // lower-case; a quoted string as written
	quoted     bool
	start, end int
}

// patternWords splits q into words and quoted strings ('…', "…", `…`,
// ‘…’, “…”, “…”). A quote inside a word ("people's") is part of it.
func patternWords(q string) []pword {
	var out []pword
	i := 0
	for i < len(q) {
		r, n := utf8.DecodeRuneInString(q[i:])
		if closeAt, closer := quoteAt(q, i); closer != "" {
			if j := closingQuote(q, closeAt, closer); j >= 0 {
				inner := q[closeAt : closeAt+j]
				end := closeAt + j + len(closer)
				if strings.TrimSpace(inner) != "" && !strings.ContainsAny(inner, "\n") {
					out = append(out, pword{s: strings.TrimSpace(inner), quoted: true, start: i, end: end})
					i = end
					continue
				}
			}
		}
		if !patternLetter(r) {
			i += n
			continue
		}
		j := i
		for j < len(q) {
			r, n := utf8.DecodeRuneInString(q[j:])
			if patternLetter(r) {
				j += n
				continue
			}
			if r == '\'' || r == '’' {
				if k := j + n; k < len(q) {
					if r2, _ := utf8.DecodeRuneInString(q[k:]); unicode.IsLetter(r2) {
						j = k
						continue
					}
				}
			}
			break
		}
		out = append(out, pword{s: strings.ToLower(q[i:j]), start: i, end: j})
		i = j
	}
	return out
}

// closingQuote is where, after q[from:], the quote closer closes: the
// first one not followed by a letter ("'O'Brien'" holds an apostrophe);
// -1 where none does.
func closingQuote(q string, from int, closer string) int {
	for j := from; j < len(q); {
		k := strings.Index(q[j:], closer)
		if k < 0 {
			return -1
		}
		after := j + k + len(closer)
		if r, _ := utf8.DecodeRuneInString(q[after:]); after >= len(q) || !unicode.IsLetter(r) {
			return j + k - from
		}
		j = after
	}
	return -1
}

func patternLetter(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// quoteAt reports whether a quoted string opens at q[i]: where its text
// starts and the quote that closes it. An apostrophe inside a word opens
// nothing.
func quoteAt(q string, i int) (int, string) {
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(q[:i]); patternLetter(r) {
			return 0, ""
		}
	}
	switch {
	case strings.HasPrefix(q[i:], "``"):
		return i + 2, "''"
	case strings.HasPrefix(q[i:], "‘"):
		return i + len("‘"), "’"
	case strings.HasPrefix(q[i:], "“"):
		return i + len("“"), "”"
	case q[i] == '\'' || q[i] == '"' || q[i] == '`':
		return i + 1, q[i : i+1]
	}
	return 0, ""
}

// patternVerb is the operator a word of a text pattern asks for, and
// the word that must follow it ("starts with", "ends in"): "" where none.
func patternVerb(w, next string) (semantic.Op, int, bool) {
	switch w {
	case "contain", "contains", "containing", "include", "includes", "including", "mention", "mentions", "mentioning":
		return semantic.OpLike, 1, true
	case "start", "starts", "starting", "begin", "begins", "beginning":
		if next == "with" {
			return semantic.OpPrefix, 2, true
		}
	case "end", "ends", "ending":
		if next == "with" || next == "in" {
			return semantic.OpSuffix, 2, true
		}
	}
	return "", 0, false
}

// patternQualifier reports whether w says that the next word is a piece
// of text: "the word", "the letter", "the substring".
func patternQualifier(w string) bool {
	switch w {
	case "substring", "word", "words", "letter", "letters", "text", "string", "phrase", "characters", "character", "prefix", "suffix":
		return true
	}
	return false
}

// patternStop are the words that end the column's words before a verb.
func patternStop(w string) bool {
	switch w {
	case "how", "many", "much", "what", "list", "show", "give", "find", "return", "count":
		return true
	case "whose", "where", "with", "that", "which", "who", "of", "a", "an", "the", "in", "and", "or", "is", "are", "its", "their", "his", "her", "for", "by", "to", "from", "at", "all", "any", "do", "does", "did", "not", "have", "has", "having":
		return true
	}
	return false
}

// textPatterns finds the text patterns of q.
func textPatterns(q string) []textPattern {
	ws := patternWords(q)
	var out []textPattern
	for i := 0; i < len(ws); i++ {
		if ws[i].quoted {
			continue
		}
		next := ""
		if i+1 < len(ws) && !ws[i+1].quoted {
			next = ws[i+1].s
		}
		op, n, ok := patternVerb(ws[i].s, next)
		has := false
		if !ok {
			switch ws[i].s {
			case "has", "have", "having", "with":
				op, n, ok, has = semantic.OpLike, 1, true, true
			}
		}
		if !ok {
			continue
		}
		if tp, ok := readPattern(q, ws, i, op, n, has); ok {
			out = append(out, tp)
			i = slices.IndexFunc(ws, func(w pword) bool { return w.start >= tp.end }) - 1
			if i < 0 {
				break
			}
		}
	}
	return out
}

// readPattern reads the pattern whose verb is ws[i] (n words long).
func readPattern(q string, ws []pword, i int, op semantic.Op, n int, has bool) (textPattern, bool) {
	tp := textPattern{op: op, start: ws[i].start}
	j := i + n
	// "with a B", "the word": an article, unless it is the letter itself
	// ("starting with A", "starting with A and …").
	for j+1 < len(ws) && !ws[j].quoted && (ws[j].s == "the" || ws[j].s == "a") && (ws[j+1].quoted || !patternStop(ws[j+1].s)) && strings.TrimSpace(q[ws[j].end:ws[j+1].start]) == "" {
		j++
	}
	qualified := false
	if j < len(ws) && !ws[j].quoted && patternQualifier(ws[j].s) {
		qualified, tp.word = true, ws[j].s == "word" || ws[j].s == "words"
		j++
		for j < len(ws) && !ws[j].quoted && (ws[j].s == "the" || ws[j].s == "a") && j+1 < len(ws) {
			j++ // "the substring the computer": the article is none of it
		}
	}
	if j >= len(ws) {
		return textPattern{}, false
	}
	// As written: the letters beyond ASCII keep their case (SQLite
	// folds ASCII letters alone).
	tp.value, tp.quoted, tp.end = ws[j].s, ws[j].quoted || qualified, ws[j].end
	if !ws[j].quoted {
		tp.value = q[ws[j].start:ws[j].end]
	}
	if m := inTheColumn(ws, j); has && !tp.quoted && m > j {
		// "books with golden war in the title": the words before "in
		// its …", unquoted (found from outside: read as the title
		// equal to "Golden War", 1 for 4).
		tp.value, tp.end, j = q[ws[j].start:ws[m-1].end], ws[m-1].end, m-1
	}
	j++
	// "in its title", "in their description", "in it", "in the name".
	if j+1 < len(ws) && ws[j].s == "in" && !ws[j+1].quoted {
		switch ws[j+1].s {
		case "it", "them":
			tp.end = ws[j+1].end
		default:
			k := j + 1
			if slices.Contains([]string{"its", "their", "the", "his", "her"}, ws[k].s) {
				k++
			}
			// "in notes", not "in 2025" or "in March": a period.
			for k < len(ws) && len(tp.after) < 3 && !ws[k].quoted && !patternStop(ws[k].s) && !periodWord(ws[k].s) {
				tp.after = append(tp.after, ws[k].s)
				tp.end = ws[k].end
				k++
			}
		}
	}
	if has && !qualified && len(tp.after) == 0 {
		// "customers with 'Gold' status": a value, not a piece of text.
		return textPattern{}, false
	}
	// The column's words right before the verb, after a relative word:
	// "whose names contain", "a city that contains", "names starting".
	k := i - 1
	for k >= 0 && !ws[k].quoted && (ws[k].s == "that" || ws[k].s == "which" || ws[k].s == "who") {
		k--
	}
	if k >= 0 && !ws[k].quoted && negation(ws[k].s) || k-1 >= 0 && !ws[k-1].quoted && negation(ws[k-1].s) {
		tp.negated = true // "does not contain": refused by the caller
	}
	tp.verbAt = ws[k+1].start
	var before []string
	for k >= 0 && (!has || len(tp.after) == 0) && len(before) < 3 && !ws[k].quoted && !patternStop(ws[k].s) && !negation(ws[k].s) && !strings.ContainsAny(ws[k].s, "'’") && strings.TrimSpace(q[ws[k].end:ws[k+1].start]) == "" {
		before = append([]string{ws[k].s}, before...)
		tp.beforeAt = append([]int{ws[k].start}, tp.beforeAt...)
		tp.start = ws[k].start
		k--
	}
	tp.before = before
	for k >= 0 && !ws[k].quoted && slices.Contains([]string{"that", "which", "who", "whose", "where", "with", "having"}, ws[k].s) {
		if ws[k].s == "whose" && k > 0 && !ws[k-1].quoted && !patternStop(ws[k-1].s) {
			tp.owner = ws[k-1].s
			tp.ownerAt = ws[leadIn(ws, k-1)].start
		}
		tp.start = ws[k].start
		k--
	}
	if tp.start < ws[i].start {
		tp.start = ws[leadIn(ws, k+1)].start
	}
	return tp, true
}

// inTheColumn is where, within four words after ws[j], "in its …" (their,
// the, his, her) follows words that may be a piece of text; 0 where it
// does not.
func inTheColumn(ws []pword, j int) int {
	for m := j + 1; m < len(ws) && m <= j+4; m++ {
		if ws[m].quoted || negation(ws[m-1].s) || patternStop(ws[m-1].s) && m-1 > j {
			return 0
		}
		if ws[m].s == "in" && m+1 < len(ws) && slices.Contains([]string{"its", "their", "the", "his", "her"}, ws[m+1].s) {
			return m
		}
	}
	return 0
}

// leadIn is the first of the words before ws[k] that lead into what
// ws[k] begins: "who live in a", "located in the", "in a".
func leadIn(ws []pword, k int) int {
	j := k
	at := func(set ...string) bool {
		return j-1 >= 0 && !ws[j-1].quoted && slices.Contains(set, ws[j-1].s)
	}
	if at("a", "an", "the") {
		j--
	}
	if at("in", "at", "on", "from") {
		j--
		if at("live", "lives", "living", "located", "based", "situated") {
			j--
			if at("who", "that", "which") {
				j--
			}
		}
	}
	return j
}

// periodWord reports whether w begins a period rather than a column's
// name: a number, a month, "last", "this".
func periodWord(w string) bool {
	if w == "" || isDigit(w[0]) {
		return true
	}
	switch w {
	case "last", "this", "next", "previous", "each", "every", "q1", "q2", "q3", "q4":
		return true
	}
	return dates.IsMonth(w)
}

func negation(w string) bool {
	switch w {
	case "not", "never", "doesn't", "don't", "didn't", "doesn’t", "don’t", "didn’t", "cannot", "can't", "no":
		return true
	}
	return false
}

// patterned plans a question with text patterns: the question without
// them, then each pattern a filter on the column it names of the rows
// the question is about. Nil where the question has none, or where a bare
// word after "contains" names no column of them ("orders containing
// shoes" is a question about products, planned as it is asked).
func (p *Planner) patterned(question string, asOf time.Time) *Plan {
	tps := textPatterns(question)
	if len(tps) == 0 {
		return nil
	}
	for _, tp := range tps {
		if tp.negated && (tp.quoted || tp.op != semantic.OpLike) {
			// "not starting with A" is a piece of text however it is
			// written; "not containing nuts" may be a value.
			return &Plan{Kind: KindUnanswered, Reason: "quarry does not read a negated text pattern (\"does not contain\"); ask for the rows that contain it, or name the values to leave out", final: true}
		}
		if after := strings.Fields(strings.Trim(question[tp.end:], " ,")); len(after) > 0 && strings.EqualFold(after[0], "or") {
			// "contains 'son' or 'sen'", "… or whose city contains
			// 'burg'": either, which the filters cannot say.
			return &Plan{Kind: KindUnanswered, Reason: "quarry does not combine pieces of text with “or”; ask for each on its own", final: true}
		}
	}
	for i := range tps {
		for j := len(tps[i].before) - 1; j >= 0; j-- {
			if t := p.tableSaid(strings.Join(tps[i].before[j:], " ")); t != "" {
				// "products containing 'Pro'": the table the text
				// is said of, and the column's words after it.
				tps[i].owner, tps[i].table = "", t
				if j+1 < len(tps[i].before) {
					tps[i].before, tps[i].start = tps[i].before[j+1:], tps[i].beforeAt[j+1]
				} else {
					tps[i].before, tps[i].start = nil, tps[i].verbAt
				}
				break
			}
		}
		if tps[i].owner != "" && p.onlyColumn(tps[i].owner) {
			// "the state whose name contains 'North'": the state is
			// the column, and its name its value.
			tps[i].before, tps[i].after, tps[i].start = []string{tps[i].owner}, nil, tps[i].ownerAt
		}
	}
	tps = slices.DeleteFunc(tps, func(tp textPattern) bool {
		named := len(tp.before) > 0 || len(tp.after) > 0
		if tp.table != "" && tp.op != semantic.OpLike && len(tp.value) == 1 {
			named = true // "customers starting with A": a letter of their name
		}
		// A bare word said of no column ("orders that include
		// shoes"), or a known value said of none ("orders that include
		// 'Widget'"), is the planner's to read as it reads any value.
		return !named && (!tp.quoted || len(only(p.lex.senses(strings.ToLower(tp.value)), sValue)) > 0)
	})
	if len(tps) == 0 {
		return nil
	}
	rest := question
	for i := len(tps) - 1; i >= 0; i-- {
		rest = strings.TrimSpace(rest[:tps[i].start]) + " " + strings.TrimSpace(rest[tps[i].end:])
	}
	rest = strings.TrimSpace(rest)
	if rest == question || normalise(rest) == "" {
		return nil
	}
	again := p.planQuestion(rest, asOf)
	switch again.Kind {
	case KindRefuse:
		return again
	case KindMetric, KindRows:
	default:
		if !anyQuoted(tps) {
			return nil
		}
		if again.Kind == KindClarify {
			return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%s (%s); ask again with that said", again.Question, strings.Join(again.Options, "; ")), final: true}
		}
		return again
	}
	if again.Query == nil {
		return nil
	}
	q := *again.Query
	q.Filters = slices.Clone(q.Filters)
	var notes []string
	for _, tp := range tps {
		field, note, no := p.patternColumn(&q, again.AdHoc, tp)
		if no != nil {
			if !tp.quoted && no.Kind != KindRefuse {
				return nil
			}
			return no
		}
		if tp.negated {
			return nil // a bare word after "does not contain"
		}
		q.Filters = append(q.Filters, semantic.Filter{Field: field, Op: tp.op, Values: []any{tp.value}})
		if note != "" {
			notes = append(notes, note)
		}
		if tp.word {
			notes = append(notes, fmt.Sprintf("the word '%s' is looked for as text in %s, inside longer words too", tp.value, field))
		}
	}
	again.Query = &q
	for _, n := range notes {
		again.Notes = append(again.Notes, n)
		again.Understood = append(again.Understood, n)
	}
	return again
}

func anyQuoted(tps []textPattern) bool {
	return slices.ContainsFunc(tps, func(tp textPattern) bool { return tp.quoted })
}

// onlyColumn reports whether a word names columns and no table.
func (p *Planner) onlyColumn(w string) bool {
	ss := append(p.lex.senses(w), p.lex.senses(singular(w))...)
	return len(only(ss, sColumn)) > 0 && len(only(ss, sEntity)) == 0
}

// tableSaid is the table words name ("products"), which a text pattern
// said right after is said of, not of a column; "" where they name none.
func (p *Planner) tableSaid(w string) string {
	ss := only(append(p.lex.senses(w), p.lex.senses(singular(w))...), sEntity)
	if len(ss) == 0 {
		return ""
	}
	return ss[0].name
}

// nameWord reports whether w asks for the column that names a table's
// rows.
func nameWord(w string) bool {
	switch w {
	case "name", "names", "title", "titles":
		return true
	}
	return false
}

// patternColumn is the field a text pattern tests, of the rows q is
// about or of the rows they belong to, and how it was chosen where the
// question did not name it; otherwise the plan that says why none could
// be.
func (p *Planner) patternColumn(q *semantic.Query, adhoc []semantic.Metric, tp textPattern) (field, note string, no *Plan) {
	refuse := func(format string, args ...any) (string, string, *Plan) {
		return "", "", &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf(format, args...), final: true}
	}
	subject := ""
	if q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = p.metricEntity(q.Metrics[0], adhoc)
	}
	ent := p.entity(subject)
	if ent == nil {
		return refuse("quarry could not tell which column should contain '%s'; name it, as in “whose name contains '%s'”", tp.value, tp.value)
	}
	tiers := [][]string{{lower(subject)}}
	if tp.table != "" && lower(tp.table) != lower(subject) {
		t := p.entity(tp.table)
		if t == nil || !p.upOf(lower(subject))[lower(t.Name)] && !slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return p.dimEntity(d.Name) == lower(t.Name) }) {
			return refuse("quarry could not tell how the %s that contain '%s' go with the question; ask about %s alone, or name the column", tp.table, tp.value, tp.table)
		}
		ent, tiers = t, [][]string{{lower(t.Name)}}
	}
	var related []string
	for _, f := range q.Filters {
		if e, _, ok := strings.Cut(f.Field, "."); ok && !slices.Contains(related, lower(e)) && lower(e) != lower(subject) {
			related = append(related, lower(e))
		}
	}
	for _, d := range q.Dimensions {
		if e := p.dimEntity(d.Name); e != "" && !slices.Contains(related, e) {
			related = append(related, e)
		}
	}
	tiers = append(tiers, related)
	var up []string
	for e := range p.upOf(lower(subject)) {
		up = append(up, e)
	}
	slices.Sort(up)
	tiers = append(tiers, up)
	var phrases []string
	if len(tp.before) > 0 && len(tp.after) > 0 {
		phrases = append(phrases, strings.Join(append(slices.Clone(tp.before), tp.after...), " "))
	}
	for _, ws := range [][]string{tp.after, tp.before} {
		if len(ws) > 0 {
			phrases = append(phrases, strings.Join(ws, " "))
		}
	}
	said := ""
	for _, ph := range phrases {
		said = ph
		forms := []string{ph}
		if sg := singular(ph); sg != ph && sg != "" {
			forms = append(forms, sg)
		}
		for ti, tier := range tiers {
			if ti > 0 && nameWord(ph) {
				// "members whose name contains": their own name, never
				// the name of the state they are in.
				break
			}
			var hits []sense
			for _, form := range forms {
				for _, s := range p.lex.senses(form) {
					if !slices.Contains(tier, lower(s.entity)) {
						continue
					}
					if s.kind == sRestricted {
						return "", "", &Plan{Kind: KindRefuse, Reason: fmt.Sprintf("%q refers to %s.%s, which the column policy restricts; quarry does not select, filter, sort or aggregate it", ph, s.entity, s.column)}
					}
					if s.kind != sColumn || s.numeric || s.temporal || slices.ContainsFunc(hits, func(h sense) bool { return h.field == s.field }) {
						continue
					}
					hits = append(hits, s)
				}
			}
			hits = strongest(hits)
			if len(hits) > 1 && nameWord(ph) {
				// "whose name contains": the column that names them.
				if l := p.label(ent); l != "" && slices.ContainsFunc(hits, func(h sense) bool { return strings.EqualFold(h.column, l) && lower(h.entity) == lower(subject) }) {
					return ent.Name + "." + l, "", nil
				}
			}
			switch {
			case len(hits) == 1:
				return hits[0].field, "", nil
			case len(hits) > 1:
				var names []string
				for _, h := range hits {
					names = append(names, h.field)
				}
				return refuse("%q could mean %s; name the column that should contain '%s'", ph, strings.Join(names, " or "), tp.value)
			}
		}
	}
	if said != "" && !nameWord(said) {
		return refuse("quarry does not know a text column of %s called %q; name the column that should contain '%s'", ent.Name, said, tp.value)
	}
	if names := textColumns(ent, "name", "title"); len(names) > 1 && !slices.ContainsFunc(names, func(c string) bool { return plainName(ent, c) }) {
		// first_name and last_name: which?
		return refuse("the name of %s could be %s; name the column that should contain '%s'", ent.Name, strings.Join(names, " or "), tp.value)
	}
	l := p.label(ent)
	if l == "" || p.m.IsRestricted(ent.Name, l) {
		return refuse("quarry could not tell which column of %s should contain '%s'; name it, as in “whose city contains '%s'”", ent.Name, tp.value, tp.value)
	}
	if said != "" {
		return ent.Name + "." + l, "", nil
	}
	if prose := textColumns(ent, "description", "descriptions", "note", "notes", "comment", "comments", "text", "body", "content", "details", "summary", "message", "remarks", "review", "bio"); len(prose) > 0 && !slices.ContainsFunc(prose, func(c string) bool { return strings.EqualFold(c, l) }) {
		// "films mentioning 'refund'": in the title, or the description?
		return refuse("'%s' could be looked for in %s.%s or %s; name the column", tp.value, ent.Name, l, strings.Join(prose, " or "))
	}
	return ent.Name + "." + l, fmt.Sprintf("the text is looked for in %s.%s, the column that names %s", ent.Name, l, ent.Name), nil
}

// textColumns are the text columns of ent, as entity.column, with one of
// the words in their name.
func textColumns(ent *semantic.Entity, ws ...string) []string {
	var out []string
	for _, c := range ent.Columns {
		if c.Type.IsNumeric() || c.Type.IsTemporal() || strings.EqualFold(c.Name, ent.PrimaryKey) {
			continue
		}
		if slices.ContainsFunc(semantic.NameWords(c.Name), func(w string) bool { return slices.Contains(ws, w) }) {
			out = append(out, ent.Name+"."+c.Name)
		}
	}
	return out
}

// plainName reports whether a column (entity.column) is the plain name of
// its table's rows: name, full_name, title, or the table's own word and
// name (contestant_name).
func plainName(ent *semantic.Entity, col string) bool {
	_, c, _ := strings.Cut(col, ".")
	ws := semantic.NameWords(c)
	tw := semantic.NameWords(ent.Name)
	switch {
	case len(ws) == 1:
		return ws[0] == "name" || ws[0] == "title"
	case len(ws) == 2 && ws[1] == "name":
		return ws[0] == "full" || len(tw) > 0 && singular(ws[0]) == singular(tw[len(tw)-1])
	}
	return false
}

// dimEntity is the entity, lower-case, a query's dimension is of: a
// dimension's, or the entity of "entity.column".
func (p *Planner) dimEntity(name string) string {
	if dim := p.m.Dimension(name); dim != nil {
		return lower(dim.Entity)
	}
	if e, _, ok := strings.Cut(name, "."); ok {
		return lower(e)
	}
	return ""
}
