package mdhtml

import (
	"slices"
	"strings"
)

// maxNest bounds the nesting of emphasis and links in one another; deeper
// delimiters are text.
const maxNest = 8

// window bounds how far an HTML tag or a comment is looked for, and
// destWindow a link's destination and title, so that no text makes the
// renderer scan it again and again (a destination is a byte at a time).
const (
	window     = 4096
	destWindow = 512
)

// inline renders the inline Markdown of s: code spans, emphasis, links and
// line breaks; everything else as escaped text.
func (r *renderer) inline(s string) { r.span(s, false, 0) }

// span renders s at nesting nest; inLink says it is a link's text, where
// links are text.
func (r *renderer) span(s string, inLink bool, nest int) {
	b := &r.b
	m := index(s)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("<br>\n")
			i += 2
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			escape(b, s[i+1:i+2])
			i += 2
		case c == '\n':
			if strings.HasSuffix(s[:i], "  ") {
				b.WriteString("<br>")
			}
			b.WriteByte('\n')
			i++
		case c == '`':
			i = r.codeSpan(s, i, m)
		case c == '<':
			i = r.angle(s, i, inLink, nest)
		case c == '!' && strings.HasPrefix(s[i:], "!["):
			if end, text, dest, ok := link(s, i+1, m); ok && nest < maxNest {
				if text == "" {
					text = dest
				}
				if inLink {
					escape(b, text) // an image in a link's text is its alt text
				} else {
					r.anchor(dest, text, true, nest)
				}
				i = end
			} else {
				b.WriteByte('!')
				i++
			}
		case c == '[' && !inLink:
			if end, text, dest, ok := link(s, i, m); ok && nest < maxNest {
				r.anchor(dest, text, false, nest)
				i = end
			} else {
				b.WriteByte('[')
				i++
			}
		case c == '*' || c == '_' || c == '~':
			i = r.emphasis(s, i, inLink, nest, m)
		case c == 'h' && !inLink && (i == 0 || !isWord(s[i-1])) && (strings.HasPrefix(s[i:], "http://") || strings.HasPrefix(s[i:], "https://")):
			end := bareURL(s, i)
			r.anchor(s[i:end], escapeMarkdown(s[i:end]), false, nest)
			i = end
		case c == '&':
			if n := entity(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
			} else {
				b.WriteString("&amp;")
				i++
			}
		default:
			j := i + 1
			for j < len(s) && !special(s[j]) {
				j++
			}
			escape(b, s[i:j])
			i = j
		}
	}
}

// special are the bytes span looks at; a run of others is text.
func special(c byte) bool {
	return strings.IndexByte("\\\n`<![*_~h&", c) >= 0
}

func isPunct(c byte) bool {
	return c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

func isWord(c byte) bool {
	return c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }

// escapeMarkdown escapes the punctuation of a bare address, so that it is
// read again as the text it is.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isPunct(s[i]) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// codeSpan renders the code span that opens at s[i], or its backticks as
// text when no run of the same length closes it.
func (r *renderer) codeSpan(s string, i int, m *marks) int {
	n := run(s, i)
	j := m.next(m.ticks, [2]int{'`', n}, i+n)
	if j < 0 {
		r.b.WriteString(s[i : i+n])
		return i + n
	}
	code := strings.ReplaceAll(s[i+n:j], "\n", " ")
	if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
		code = code[1 : len(code)-1]
	}
	r.b.WriteString("<code>")
	escape(&r.b, code)
	r.b.WriteString("</code>")
	return j + n
}

// angle renders what starts with < at s[i]: an autolink, raw HTML (a tag
// or a comment, dropped), or a plain <.
func (r *renderer) angle(s string, i int, inLink bool, nest int) int {
	if end := strings.IndexAny(s[i+1:], " \n<>"); end >= 0 && s[i+1+end] == '>' && !inLink && nest < maxNest {
		addr := s[i+1 : i+1+end]
		if scheme(addr) != "" {
			r.anchor(addr, escapeMarkdown(addr), false, nest)
			return i + end + 2
		}
		if at := strings.IndexByte(addr, '@'); at > 0 && at < len(addr)-1 && strings.Contains(addr[at:], ".") && !strings.ContainsAny(addr, ":/") {
			r.anchor("mailto:"+addr, escapeMarkdown(addr), false, nest)
			return i + end + 2
		}
	}
	if strings.HasPrefix(s[i:], "<!--") {
		if end := strings.Index(s[i+4:min(len(s), i+window)], "-->"); end >= 0 {
			return i + 4 + end + 3
		}
	}
	if n := tagAt(s[:min(len(s), i+window)], i); n > 0 {
		return i + n
	}
	r.b.WriteString("&lt;")
	return i + 1
}

// tagAt is the length of the HTML open or close tag at s[i], or 0: a name,
// then attributes with unquoted, single- or double-quoted values.
func tagAt(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j >= len(s) || !(s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z') {
		return 0
	}
	for j < len(s) && (isWord(s[j]) || s[j] == '-') && s[j] < 0x80 {
		j++
	}
	for j < len(s) {
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		switch {
		case j >= len(s):
			return 0
		case s[j] == '>':
			return j + 1 - i
		case strings.HasPrefix(s[j:], "/>"):
			return j + 2 - i
		}
		k := j
		for k < len(s) && !isSpace(s[k]) && strings.IndexByte("\"'=<>/`", s[k]) < 0 {
			k++
		}
		if k == j {
			return 0
		}
		j = k
		if j < len(s) && s[j] == '=' {
			j++
			switch {
			case j >= len(s):
				return 0
			case s[j] == '"' || s[j] == '\'':
				end := strings.IndexByte(s[j+1:], s[j])
				if end < 0 {
					return 0
				}
				j += end + 2
			default:
				k := j
				for k < len(s) && !isSpace(s[k]) && strings.IndexByte("\"'=<>`", s[k]) < 0 {
					k++
				}
				if k == j {
					return 0
				}
				j = k
			}
		}
	}
	return 0
}

// emphasis renders the run of * _ or ~ at s[i] as emphasised (one),
// strong (two), or both (three), or struck through (~ or ~~), where a run
// of the same length closes it; otherwise as text.
func (r *renderer) emphasis(s string, i int, inLink bool, nest int, m *marks) int {
	c, n := s[i], run(s, i)
	open := i+n < len(s) && !isSpace(s[i+n]) && (c != '_' || i == 0 || !isWord(s[i-1]))
	if c == '~' && n > 2 || n > 3 || nest >= maxNest {
		open = false
	}
	if end := m.next(m.delims, [2]int{int(c), n}, i+n); open && end > 0 {
		tags := map[int][]string{1: {"em"}, 2: {"strong"}, 3: {"em", "strong"}}[n]
		if c == '~' {
			tags = []string{"del"}
		}
		for _, t := range tags {
			r.b.WriteString("<" + t + ">")
		}
		r.span(s[i+n:end], inLink, nest+1)
		for k := len(tags) - 1; k >= 0; k-- {
			r.b.WriteString("</" + tags[k] + ">")
		}
		return end + n
	}
	r.b.WriteString(s[i : i+n])
	return i + n
}

// marks indexes, in one pass over a text, where its code spans and
// emphasis can close and which ] matches each [, so that finding a closer
// never scans the rest of the text again.
type marks struct {
	ticks   map[[2]int][]int // backtick runs by length: where they start
	delims  map[[2]int][]int // runs of * _ ~ that can close, by byte and length
	bracket map[int]int      // a [ to its ]
}

func index(s string) *marks {
	m := &marks{ticks: map[[2]int][]int{}, delims: map[[2]int][]int{}, bracket: map[int]int{}}
	for j := 0; j < len(s); j++ {
		if s[j] == '`' {
			n := run(s, j)
			m.ticks[[2]int{'`', n}] = append(m.ticks[[2]int{'`', n}], j)
			j += n - 1
		}
	}
	var open []int
	for j := 0; j < len(s); {
		switch c := s[j]; c {
		case '\\':
			j += 2
		case '`':
			n := run(s, j)
			if k := m.next(m.ticks, [2]int{'`', n}, j+n); k >= 0 {
				j = k + n
			} else {
				j += n
			}
		case '*', '_', '~':
			n := run(s, j)
			after := j + n
			if j > 0 && !isSpace(s[j-1]) && (c != '_' || after == len(s) || !isWord(s[after])) {
				key := [2]int{int(c), n}
				m.delims[key] = append(m.delims[key], j)
			}
			j = after
		case '[':
			open = append(open, j)
			j++
		case ']':
			if len(open) > 0 {
				m.bracket[open[len(open)-1]] = j
				open = open[:len(open)-1]
			}
			j++
		default:
			j++
		}
	}
	return m
}

// next is the first position at or after from in the list under key, or
// -1.
func (m *marks) next(lists map[[2]int][]int, key [2]int, from int) int {
	l := lists[key]
	k, _ := slices.BinarySearch(l, from)
	if k == len(l) {
		return -1
	}
	return l[k]
}

// link reads a link's [text](destination "title") at s[i] (the '['), and
// returns where it ends, its text and its destination.
func link(s string, i int, m *marks) (end int, text, dest string, ok bool) {
	j, found := m.bracket[i]
	if !found {
		return 0, "", "", false
	}
	if j >= len(s) || j+1 >= len(s) || s[j+1] != '(' {
		return 0, "", "", false
	}
	text = s[i+1 : j]
	s = s[:min(len(s), j+destWindow)]
	k := j + 2
	for k < len(s) && isSpace(s[k]) {
		k++
	}
	var d strings.Builder
	if k < len(s) && s[k] == '<' {
		close := strings.IndexAny(s[k+1:], ">\n")
		if close < 0 || s[k+1+close] != '>' {
			return 0, "", "", false
		}
		d.WriteString(s[k+1 : k+1+close])
		k += close + 2
	} else {
		parens := 0
	dest:
		for ; k < len(s); k++ {
			switch c := s[k]; {
			case c == '\\' && k+1 < len(s) && isPunct(s[k+1]):
				d.WriteByte(s[k+1])
				k++
			case c == '(':
				parens++
				d.WriteByte(c)
			case c == ')' && parens == 0, isSpace(c), c < 0x20:
				break dest
			case c == ')':
				parens--
				d.WriteByte(c)
			default:
				d.WriteByte(c)
			}
		}
	}
	for k < len(s) && isSpace(s[k]) {
		k++
	}
	if k < len(s) && (s[k] == '"' || s[k] == '\'' || s[k] == '(') {
		closeBy := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[s[k]]
		t := k + 1
		for t < len(s) && s[t] != closeBy {
			if s[t] == '\\' {
				t++ // an escaped quote is in the title
			}
			t++
		}
		if t >= len(s) {
			return 0, "", "", false
		}
		k = t + 1
		for k < len(s) && isSpace(s[k]) {
			k++
		}
	}
	if k >= len(s) || s[k] != ')' {
		return 0, "", "", false
	}
	return k + 1, text, d.String(), true
}

// anchor writes a link to dest with the Markdown text; a destination whose
// scheme is not safe leaves the text alone.
func (r *renderer) anchor(dest, text string, image bool, nest int) {
	if !safe(dest) {
		r.span(text, true, nest+1)
		return
	}
	r.b.WriteString(`<a href="`)
	escape(&r.b, dest)
	r.b.WriteString(`" rel="nofollow noreferrer">`)
	if image {
		escape(&r.b, text) // alt text is plain
	} else {
		r.span(text, true, nest+1)
	}
	r.b.WriteString("</a>")
}

// scheme is the lower-cased scheme of an address ("https"), or "" where it
// has none.
func scheme(u string) string {
	k := strings.IndexAny(u, ":/?#")
	if k <= 0 || u[k] != ':' {
		return ""
	}
	for i := 0; i < k; i++ {
		c := u[i] | 0x20
		if !(c >= 'a' && c <= 'z') && !(i > 0 && strings.IndexByte("0123456789+-.", u[i]) >= 0) {
			return ""
		}
	}
	return strings.ToLower(u[:k])
}

// safe reports whether a link may point at u: an http, https or mailto
// address, or one relative to the page's own site, with nothing a browser
// would strip or fold into a scheme (controls, white space).
func safe(u string) bool {
	if u == "" {
		return false
	}
	for i := 0; i < len(u); i++ {
		if u[i] <= ' ' || u[i] == 0x7f {
			return false
		}
	}
	if k := strings.IndexAny(u, ":/?#"); k >= 0 && u[k] == ':' {
		switch scheme(u) {
		case "http", "https", "mailto":
			return true
		}
		return false
	}
	// A relative address stays on the page's own site: "//host" and
	// "/\host" name another host (browsers read a backslash as a slash).
	return !strings.HasPrefix(u, "//") && !strings.HasPrefix(u, "/\\") && !strings.HasPrefix(u, "\\")
}

// bareURL is where the address that starts at s[i] ends: at white space or
// <, less the punctuation that ends a sentence and a ) it did not open.
func bareURL(s string, i int) int {
	j := i
	opened := 0
	for j < len(s) && !isSpace(s[j]) && s[j] != '<' {
		switch s[j] {
		case '(':
			opened++
		case ')':
			opened--
		}
		j++
	}
	for j > i {
		switch c := s[j-1]; {
		case strings.IndexByte(".,:;!?'\"*_~", c) >= 0:
		case c == ')' && opened < 0:
			opened++
		default:
			return j
		}
		j--
	}
	return j
}

// entity is the length of the HTML character reference at the start of s
// (&amp; &#39; &#x27;), or 0. A reference cannot make markup, so it is
// passed on for the browser to read.
func entity(s string) int {
	end := strings.IndexByte(s[:min(len(s), 33)], ';')
	if end < 2 {
		return 0
	}
	body := s[1:end]
	ok := func(digits string, set string) bool {
		if digits == "" || len(digits) > 7 {
			return false
		}
		for i := 0; i < len(digits); i++ {
			if strings.IndexByte(set, digits[i]|0x20) < 0 {
				return false
			}
		}
		return true
	}
	switch {
	case strings.HasPrefix(body, "#x") || strings.HasPrefix(body, "#X"):
		if !ok(body[2:], "0123456789abcdef") {
			return 0
		}
	case strings.HasPrefix(body, "#"):
		if !ok(body[1:], "0123456789") {
			return 0
		}
	default:
		for i := 0; i < len(body); i++ {
			if c := body[i]; !(c|0x20 >= 'a' && c|0x20 <= 'z') && !(i > 0 && c >= '0' && c <= '9') {
				return 0
			}
		}
	}
	return end + 1
}

// escape writes s with the five characters that HTML reads as markup
// escaped.
func escape(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var e string
		switch s[i] {
		case '&':
			e = "&amp;"
		case '<':
			e = "&lt;"
		case '>':
			e = "&gt;"
		case '"':
			e = "&#34;"
		case '\'':
			e = "&#39;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(e)
		last = i + 1
	}
	b.WriteString(s[last:])
}
