package valueindex

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// word is one word of a question as the planner reads it: lower case,
// with its byte span in the text.
type word struct {
	s          string
	start, end int
}

// tokenize splits s into words the way the builtin planner does: runs of
// ASCII letters, digits and any non-ASCII byte; '-', '/' and '.' between
// digits and ',' inside a number join; a possessive "'s" is dropped.
func tokenize(s string) []word {
	var out []word
	i := 0
	for i < len(s) {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if isWordByte(c) {
				j++
				continue
			}
			if (c == '-' || c == '/' || c == '.' || c == ',') && j+1 < len(s) && isDigit(s[j+1]) && isDigit(s[j-1]) {
				j++
				continue
			}
			break
		}
		w := strings.ToLower(s[i:j])
		if strings.Contains(w, ",") {
			w = strings.ReplaceAll(w, ",", "")
		}
		out = append(out, word{s: w, start: i, end: j})
		if j+1 < len(s) && s[j] == '\'' && (s[j+1] == 's' || s[j+1] == 'S') && (j+2 == len(s) || !isWordByte(s[j+2])) {
			j += 2
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// wordsOf is the words of s, joined by single spaces: the phrase the
// planner reads a value as.
func wordsOf(s string) string {
	ws := tokenize(s)
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.s
	}
	return strings.Join(parts, " ")
}

// isNumber reports whether w is a number (digits, with at most one inner
// point, or a date-like run of digits and separators).
func isNumber(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) && w[i] != '.' && w[i] != '-' && w[i] != '/' {
			return false
		}
	}
	return true
}

// functionWords are words that never stand alone for a stored value: a
// value "The", "A" or "No" is not read where the question says "the", "a"
// or "no", nor are the words the planner reads as the question's
// structure.
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at to for from by with without within and or nor not no
		is are was were be been being am do does did done has have had having will would can could should may might must
		what which who whom whose when where why how many much all any each every some both either neither
		as it its this that these those there here their them they than then me my our ours we us you your yours
		i he she him his her hers per into onto over under between about above below after before since until
		show list give find get tell return display count number total sum average avg mean most least top bottom
		more less fewer greater larger smaller higher lower highest lowest largest smallest biggest maximum minimum max min
		also only just same other another else if but so such very too up down out off again once
		name names id ids yes one two three four five six seven eight nine ten first second third last next
		new old all please different distinct whose type types kind order ordered sorted descending ascending desc asc
		year years month months day days week weeks date time`) {
		m[w] = true
	}
	return m
}()

// idShaped reports whether a piece of a question written without spaces
// looks like an identifier: letters and digits together ("ORD-1042",
// "A-113", "x9") or a UUID; not a date, a plain number, an ordinal or a
// quarter.
func idShaped(s string) bool {
	if len(s) < 2 || len(s) > maxValueLen || !utf8.ValidString(s) {
		return false
	}
	letters, digits := 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case unicode.IsLetter(r):
			letters++
		case strings.ContainsRune("-_./:#", r):
		default:
			return false
		}
	}
	if letters == 0 || digits == 0 {
		return false
	}
	l := strings.ToLower(s)
	// "2nd", "10th", "Q3", "H1", "FY2025": calendar and counting words.
	for _, suf := range []string{"st", "nd", "rd", "th", "s"} {
		if strings.HasSuffix(l, suf) && isNumber(l[:len(l)-len(suf)]) {
			return false
		}
	}
	for _, pre := range []string{"q", "h", "fy", "w"} {
		if strings.HasPrefix(l, pre) && isNumber(l[len(pre):]) {
			return false
		}
	}
	return true
}

// codeShaped reports whether a piece of a question, or a stored value of
// a key or code column, is a code written in capitals: two to five
// letters A to Z ("APG", "JFK", "EUR"); not the short forms of periods
// ("YTD", "MOM"). Such a piece matches a stored code only as written:
// "apg", or "Apg", is a word.
func codeShaped(s string) bool {
	if len(s) < 2 || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	switch s {
	case "YTD", "QTD", "MTD", "WTD", "YOY", "MOM", "QOQ", "WOW", "TTM", "LTM", "FY", "AND", "NOT", "THE", "ALL", "TOP":
		return false
	}
	return true
}

// rawPieces are the whitespace-separated pieces of s with the punctuation
// around them trimmed, with their byte spans.
func rawPieces(s string) []word {
	var out []word
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		a, b := i, j
		for a < b && strings.IndexByte(`"'()[]{}<>,;:!?.`, s[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(`"'()[]{}<>,;:!?.`, s[b-1]) >= 0 {
			b--
		}
		if a < b {
			out = append(out, word{s: s[a:b], start: a, end: b})
		}
		i = j
	}
	return out
}

// nameWords splits a name into lower-case words: "customer_orders",
// "CustomerOrders" and "customer orders" are all [customer orders].
func nameWords(name string) []string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			b.WriteByte(' ')
			prevLower = false
		}
	}
	return strings.Fields(b.String())
}

// stem folds a word's plural onto its singular: "cities" → "city",
// "stores" → "store", "addresses" → "address".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}
