package retrieval

import (
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/internal/planner"
)

// splitWords splits text into lower-case words: runs of letters or of
// digits, with identifiers split where case changes ("orderItems" →
// order, items; "HTTPServer" → http, server) and at underscores, dots and
// hyphens ("orders_2019" → orders, 2019).
func splitWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			if len(cur) > 0 {
				prev := cur[len(cur)-1]
				switch {
				case unicode.IsDigit(prev):
					flush()
				case unicode.IsUpper(r) && unicode.IsLower(prev):
					flush() // orderItems
				case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
					flush() // HTTPServer
				}
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 1 && !unicode.IsDigit(cur[len(cur)-1]) {
				flush() // orders2019, but v2 and q3 stay whole
			}
			cur = append(cur, r)
		case r == '\'' && len(cur) > 0 && i+1 < len(rs) && (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 == len(rs) || !unicode.IsLetter(rs[i+2])):
			// a possessive: "customer's" is customer
			flush()
		default:
			flush()
		}
	}
	flush()
	// drop the "s" a possessive left behind
	j := 0
	for i, w := range out {
		if w == "s" && i > 0 {
			continue
		}
		out[j] = w
		j++
	}
	return out[:j]
}

// stem is the form words are compared in: the builtin planner's
// (planner.Stem), so that the index and the planner read a word alike.
func stem(w string) string { return planner.Stem(w) }

// terms is the stems of text's words, stop words left out.
func terms(text string) []string { return stemmer(nil).terms(text) }

// stemmer remembers the stems it has computed: a schema repeats its words
// (id, name, created, amount) thousands of times. A nil stemmer
// remembers nothing.
type stemmer map[string]string

func (st stemmer) stem(w string) string {
	if st == nil {
		return stem(w)
	}
	s, ok := st[w]
	if !ok {
		s = stem(w)
		st[w] = s
	}
	return s
}

func (st stemmer) terms(text string) []string {
	ws := splitWords(text)
	out := ws[:0]
	for _, w := range ws {
		if stopWords[w] {
			continue
		}
		out = append(out, st.stem(w))
	}
	return out
}

// stopWords are the words of a question that name no table or column.
// Words that often do (name, number, count, date, year, type, status) are
// not among them.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "in": true, "on": true, "at": true, "to": true,
	"for": true, "by": true, "with": true, "from": true, "and": true, "or": true, "is": true,
	"are": true, "was": true, "were": true, "be": true, "been": true, "has": true, "have": true,
	"had": true, "do": true, "does": true, "did": true, "what": true, "which": true, "who": true,
	"whom": true, "whose": true, "where": true, "when": true, "how": true, "many": true, "much": true,
	"show": true, "list": true, "give": true, "find": true, "tell": true, "me": true, "all": true,
	"each": true, "every": true, "that": true, "this": true, "these": true, "those": true, "their": true,
	"its": true, "it": true, "they": true, "them": true, "there": true, "than": true, "as": true,
	"not": true, "no": true, "any": true, "some": true, "please": true, "return": true, "display": true,
	"also": true, "only": true, "whose's": true, "i": true, "we": true, "our": true, "us": true,
	"you": true, "your": true, "into": true, "per": true, "between": true, "most": true, "least": true,
	"more": true, "less": true, "than's": true, "both": true, "either": true, "s": true,
}
