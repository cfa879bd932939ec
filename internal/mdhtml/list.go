package mdhtml

import "strconv"

// item is a list item's marker as read from its first line.
type item struct {
	ok      bool
	bullet  byte // - * +, or 0 for an ordered item
	delim   byte // . or ) of an ordered item
	start   int  // an ordered item's number
	content int  // the column its content starts at
	empty   bool // nothing follows the marker
}

// itemOf reads the marker of a list item at the start of l.
func itemOf(l string) item {
	ind := indent(l)
	if ind >= 4 || ind == len(l) {
		return item{}
	}
	t := l[ind:]
	var m item
	n := 0
	switch c := t[0]; {
	case c == '-' || c == '*' || c == '+':
		m.bullet, n = c, 1
	case c >= '0' && c <= '9':
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == len(t) || (t[n] != '.' && t[n] != ')') {
			return item{}
		}
		m.start, _ = strconv.Atoi(t[:n])
		m.delim = t[n]
		n++
	default:
		return item{}
	}
	rest := t[n:]
	if rest != "" && rest[0] != ' ' {
		return item{}
	}
	if m.bullet != 0 && rule(t) {
		return item{} // "- - -" is a rule
	}
	spaces := indent(rest)
	m.empty = spaces == len(rest)
	if m.empty || spaces > 4 {
		spaces = 1
	}
	m.ok, m.content = true, ind+n+spaces
	return m
}

// same reports whether b continues the list a started.
func (a item) same(b item) bool {
	return b.ok && a.bullet == b.bullet && a.delim == b.delim
}

// list renders the list that starts at line i.
func (r *renderer) list(lines []string, i int) int {
	first := itemOf(lines[i])
	var items [][]string
	loose := false
	for i < len(lines) {
		m := itemOf(lines[i])
		if !first.same(m) {
			break
		}
		body := []string{lines[i][min(m.content, len(lines[i])):]}
		i++
		for i < len(lines) {
			l := lines[i]
			if blank(l) {
				j := i
				for j < len(lines) && blank(lines[j]) {
					j++
				}
				if j == len(lines) || indent(lines[j]) < m.content {
					break // the list, or this item, ends at the blank line
				}
				body = append(body, lines[i:j]...)
				loose = loose || len(body) > 1
				i = j
				continue
			}
			if indent(l) >= m.content {
				body = append(body, l[m.content:])
				i++
				continue
			}
			if blank(lines[i-1]) || interrupts(l) || itemOf(l).ok {
				break
			}
			body = append(body, l) // a lazy line of the item's paragraph
			i++
		}
		items = append(items, body)
		// Blank lines between items make the list loose.
		j := i
		for j < len(lines) && blank(lines[j]) {
			j++
		}
		if j > i && j < len(lines) && first.same(itemOf(lines[j])) {
			loose = true
			i = j
		}
	}
	tag := "ul"
	if first.bullet == 0 {
		tag = "ol"
	}
	r.b.WriteString("<" + tag)
	if first.bullet == 0 && first.start != 1 {
		r.b.WriteString(` start="` + strconv.Itoa(first.start) + `"`)
	}
	r.b.WriteString(">\n")
	for _, body := range items {
		r.b.WriteString("<li>")
		if !loose && len(body) > 0 && !startsBlock(body[0]) {
			r.nested(body, true)
		} else {
			r.b.WriteByte('\n')
			r.nested(body, !loose)
		}
		r.b.WriteString("</li>\n")
	}
	r.b.WriteString("</" + tag + ">\n")
	return i
}

// startsBlock reports whether an item's first line is a block other than
// a paragraph (a nested list, a heading, code), which goes on a line of
// its own.
func startsBlock(l string) bool {
	return !blank(l) && (interrupts(l) || indent(l) >= 4)
}
