package mdhtml

import (
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of block quotes and lists; deeper markers are
// read as text, so that no input makes the renderer recurse without end.
const maxDepth = 16

// maxSource is the longest Markdown read as Markdown; a longer text is
// shown as it is, escaped, in one preformatted block.
const maxSource = 1 << 20

// Render returns the HTML of the Markdown src.
func Render(src string) string {
	if len(src) > maxSource {
		var b strings.Builder
		b.WriteString("<pre>")
		escape(&b, src)
		b.WriteString("</pre>\n")
		return b.String()
	}
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\r", "\n")
	src = strings.ReplaceAll(src, "\x00", "\uFFFD")
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = detab(l)
	}
	var r renderer
	r.blocks(lines)
	return r.b.String()
}

// renderer writes HTML to b; depth is the nesting of the block being
// written, tight whether paragraphs go without <p> (a tight list's items).
type renderer struct {
	b     strings.Builder
	depth int
	tight bool
}

// blocks renders a sequence of lines as blocks.
func (r *renderer) blocks(lines []string) {
	for i := 0; i < len(lines); {
		line := lines[i]
		if blank(line) {
			i++
			continue
		}
		ind := indent(line)
		t := line[ind:]
		switch {
		case ind >= 4:
			i = r.indentedCode(lines, i)
		case fence(t) != "":
			i = r.fenced(lines, i, ind)
		case heading(t) > 0:
			n := heading(t)
			r.heading(n, headingText(t[n:]))
			i++
		case rule(t):
			r.b.WriteString("<hr>\n")
			i++
		case t[0] == '>' && r.depth < maxDepth:
			i = r.quote(lines, i)
		case r.depth < maxDepth && itemOf(line).ok:
			i = r.list(lines, i)
		case htmlBlock(t) != 0:
			i = skipHTML(lines, i, htmlBlock(t))
		case tableAt(lines, i):
			i = r.table(lines, i)
		default:
			i = r.paragraph(lines, i)
		}
	}
}

// detab expands the tabs in a line's leading white space to the next stop
// of four.
func detab(l string) string {
	if !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\t':
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
		case ' ':
			b.WriteByte(' ')
			col++
		default:
			b.WriteString(l[i:])
			return b.String()
		}
	}
	return b.String()
}

func blank(l string) bool { return strings.TrimSpace(l) == "" }

// indent is the number of spaces a line starts with.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// fence is the opening run of a fenced code block (``` or ~~~, three or
// more), or "".
func fence(t string) string {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := run(t, 0)
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// run is the length of the run of the byte at s[i].
func run(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

// heading is the level of an ATX heading line ("## text"), or 0.
func heading(t string) int {
	n := run(t, 0)
	if t[0] != '#' || n > 6 || (n < len(t) && t[n] != ' ') {
		return 0
	}
	return n
}

// headingText is a heading's text without its closing run of #.
func headingText(s string) string {
	s = strings.TrimSpace(s)
	if t := strings.TrimRight(s, "#"); t == "" || strings.HasSuffix(t, " ") {
		s = strings.TrimSpace(t)
	}
	return s
}

// rule reports whether t is a thematic break: three or more of one of
// - * _, with spaces between.
func rule(t string) bool {
	c, n := t[0], 0
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

func (r *renderer) heading(n int, text string) {
	tag := "h" + strconv.Itoa(n)
	r.b.WriteString("<" + tag + ">")
	r.inline(text)
	r.b.WriteString("</" + tag + ">\n")
}

func (r *renderer) indentedCode(lines []string, i int) int {
	var body []string
	for ; i < len(lines) && (blank(lines[i]) || indent(lines[i]) >= 4); i++ {
		body = append(body, strings.TrimPrefix(lines[i], "    "))
	}
	for len(body) > 0 && blank(body[len(body)-1]) {
		body = body[:len(body)-1]
		i--
	}
	r.code(body)
	return i
}

func (r *renderer) fenced(lines []string, i, ind int) int {
	open := fence(lines[i][ind:])
	var body []string
	for i++; i < len(lines); i++ {
		l := lines[i]
		if t := strings.TrimSpace(l); indent(l) < 4 && strings.HasPrefix(t, open) && strings.Trim(t, open[:1]) == "" {
			i++
			break
		}
		body = append(body, l[min(ind, indent(l)):])
	}
	r.code(body)
	return i
}

func (r *renderer) code(body []string) {
	r.b.WriteString("<pre><code>")
	for _, l := range body {
		escape(&r.b, l)
		r.b.WriteByte('\n')
	}
	r.b.WriteString("</code></pre>\n")
}

// quote renders a block quote: its lines without their marker, and lazy
// lines of its last paragraph.
func (r *renderer) quote(lines []string, i int) int {
	var body []string
	for ; i < len(lines) && !blank(lines[i]); i++ {
		l := lines[i]
		t := l[indent(l):]
		if indent(l) < 4 && strings.HasPrefix(t, ">") {
			t = strings.TrimPrefix(t[1:], " ")
			body = append(body, t)
			continue
		}
		if interrupts(l) {
			break
		}
		body = append(body, l)
	}
	r.b.WriteString("<blockquote>\n")
	r.nested(body, false)
	r.b.WriteString("</blockquote>\n")
	return i
}

// nested renders body one level deeper.
func (r *renderer) nested(body []string, tight bool) {
	depth, was := r.depth, r.tight
	r.depth, r.tight = depth+1, tight
	r.blocks(body)
	r.depth, r.tight = depth, was
}

// interrupts reports whether a line starts a block that ends a paragraph.
func interrupts(l string) bool {
	ind := indent(l)
	if blank(l) || ind >= 4 {
		return blank(l)
	}
	t := l[ind:]
	if fence(t) != "" || heading(t) > 0 || rule(t) || t[0] == '>' || htmlBlock(t) == 1 {
		return true
	}
	m := itemOf(l)
	return m.ok && !m.empty && (m.bullet != 0 || m.start == 1)
}

// paragraph renders the lines from i up to the next blank line or block,
// as a paragraph, or as a heading where a line of = or - underlines it.
func (r *renderer) paragraph(lines []string, i int) int {
	start := i
	var text []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if i > start && indent(l) < 4 {
			if t := strings.TrimSpace(l); t != "" && strings.Trim(t, "=") == "" {
				r.heading(1, strings.Join(text, "\n"))
				return i + 1
			} else if t != "" && strings.Trim(t, "-") == "" {
				r.heading(2, strings.Join(text, "\n"))
				return i + 1
			}
		}
		if i > start && (interrupts(l) || tableAt(lines, i)) {
			break
		}
		text = append(text, strings.TrimLeft(l, " "))
	}
	joined := strings.TrimRight(strings.Join(text, "\n"), " ")
	if r.tight {
		r.inline(joined)
		r.b.WriteByte('\n')
		return i
	}
	r.b.WriteString("<p>")
	r.inline(joined)
	r.b.WriteString("</p>\n")
	return i
}

// htmlBlock is the kind of HTML block a line starts: 1 for script, pre,
// style or textarea (to their closing tag), 2 for a comment (to its end),
// 3 for any other tag alone on its line (to a blank line), 0 for none.
func htmlBlock(t string) int {
	if len(t) < 2 || t[0] != '<' {
		return 0
	}
	low := strings.ToLower(t)
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if strings.HasPrefix(low[1:], tag) && (len(low) == len(tag)+1 || strings.ContainsRune(" >\t", rune(low[len(tag)+1]))) {
			return 1
		}
	}
	if strings.HasPrefix(t, "<!--") {
		return 2
	}
	if n := tagAt(t, 0); n > 0 && strings.TrimSpace(t[n:]) == "" {
		return 3
	}
	return 0
}

// skipHTML passes over an HTML block of kind k from line i.
func skipHTML(lines []string, i, k int) int {
	end := map[int][]string{1: {"</script>", "</pre>", "</style>", "</textarea>"}, 2: {"-->"}}[k]
	for ; i < len(lines); i++ {
		if k == 3 && blank(lines[i]) {
			return i
		}
		low := strings.ToLower(lines[i])
		for _, e := range end {
			if strings.Contains(low, e) {
				return i + 1
			}
		}
	}
	return i
}
