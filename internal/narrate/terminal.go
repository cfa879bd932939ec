package narrate

import (
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// ANSI escapes used when a terminal renderer is asked for color.
const (
	ansiBold  = "\x1b[1m"
	ansiReset = "\x1b[0m"
)

// Plain renders the Markdown of an answer as plain text for a terminal or a
// pipe: bold markers are dropped, tables are aligned in columns, and code
// fences are removed with their content indented.
func Plain(md string) string { return Terminal(md, false) }

// Terminal renders the Markdown of an answer for a terminal. With color,
// bold text is ANSI bold; without, it is plain. What the data put in the
// answer cannot reach the terminal as control sequences (Safe).
func Terminal(md string, color bool) string {
	lines := strings.Split(Safe(strings.ReplaceAll(md, "\r\n", "\n")), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "```"):
			fence := line[:countPrefix(line, '`')]
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
				b.WriteString("    " + lines[i] + "\n")
			}
		case strings.HasPrefix(line, "|"):
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			b.WriteString(alignTable(lines[i:j], color))
			i = j - 1
		case strings.HasPrefix(line, "#"):
			text := strings.TrimSpace(strings.TrimLeft(line, "#"))
			b.WriteString(bold(Unescape(text), color) + "\n")
		default:
			b.WriteString(inline(line, color) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func countPrefix(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func bold(s string, color bool) string {
	if color && s != "" {
		return ansiBold + s + ansiReset
	}
	return s
}

// inline renders **bold** spans and undoes backslash escapes; everything
// else is left as it is.
func inline(s string, color bool) string {
	parts := strings.Split(s, "**")
	if len(parts)%2 == 0 { // unbalanced: leave the text alone
		return Unescape(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString(bold(Unescape(p), color))
		} else {
			b.WriteString(Unescape(p))
		}
	}
	return b.String()
}

// splitRow splits a Markdown table row into its cells on its unescaped
// pipes, and undoes the escapes in each.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			cur.WriteString(line[i : i+2])
			i++
		case c == '|':
			cells = append(cells, Unescape(strings.TrimSpace(cur.String())))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if rest := strings.TrimSpace(cur.String()); rest != "" {
		cells = append(cells, Unescape(rest))
	}
	return cells
}

func isSeparator(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}

func alignTable(lines []string, color bool) string {
	var rows [][]string
	var right []bool
	header := -1
	for _, l := range lines {
		cells := splitRow(l)
		if isSeparator(cells) {
			right = make([]bool, len(cells))
			for i, c := range cells {
				right[i] = strings.HasSuffix(c, ":") && !strings.HasPrefix(c, ":")
			}
			header = len(rows) - 1
			continue
		}
		rows = append(rows, cells)
	}
	ncol := 0
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	width := make([]int, ncol)
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for ri, r := range rows {
		var line strings.Builder
		for i := 0; i < ncol; i++ {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if ri == header {
				c = bold(c, color)
			}
			if i > 0 {
				line.WriteString("  ")
			}
			if i < len(right) && right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
		if ri == header {
			var rule []string
			for _, w := range width {
				rule = append(rule, strings.Repeat("─", w))
			}
			b.WriteString(strings.Join(rule, "  ") + "\n")
		}
	}
	return b.String()
}

// SQLBlock formats SQL as a fenced Markdown code block: line endings
// normalised, trailing spaces and blank edges removed, and a fence longer
// than any run of backticks inside.
func SQLBlock(sql string) string {
	sql = strings.ReplaceAll(sql, "\r\n", "\n")
	lines := strings.Split(sql, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	body := strings.Trim(strings.Join(lines, "\n"), "\n")
	longest := 0
	for i := 0; i < len(body); {
		if body[i] == '`' {
			n := countPrefix(body[i:], '`')
			longest = max(longest, n)
			i += n
			continue
		}
		i++
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "sql\n" + body + "\n" + fence + "\n"
}

// Safe makes text that holds values from a database safe to print to a
// terminal: line breaks (a CRLF becomes one) and tabs stay; other control
// characters (an escape sequence could write the clipboard, clear the
// screen or move the cursor), lone carriage returns, bidirectional
// overrides and invalid UTF-8 become U+FFFD.
func Safe(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"), quarry.Unprintable(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
