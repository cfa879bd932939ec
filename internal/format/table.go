package format

import (
	"bufio"
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/quarry"
)

// tableWriter writes an aligned table for a terminal:
//
//	id  name  price
//	──  ────  ─────
//	 1  Ada     9.5
//	(1 row)
//
// It keeps only the first Options.PreviewRows rows, already rendered, and
// counts the rest. Numbers are right-aligned; when the table is wider than
// Options.Width the widest columns are narrowed and long cells end with …;
// control characters in cells are shown escaped so data cannot drive the
// terminal.
type tableWriter struct {
	w       *bufio.Writer
	opts    Options
	cols    []quarry.Column
	cells   [][]string
	numeric []bool // per column: every non-NULL preview value is a number
	seen    []bool // per column: a non-NULL value was seen
	n       int64
	buf     []byte
}

const columnGap = "  "

func (t *tableWriter) Begin(cols []quarry.Column) error {
	t.cols = cols
	t.numeric = make([]bool, len(cols))
	t.seen = make([]bool, len(cols))
	for i, c := range cols {
		t.numeric[i] = true
		if c.Type.IsNumeric() {
			t.seen[i] = true
		}
	}
	return nil
}

func (t *tableWriter) Row(vals []any) error {
	t.n++
	if len(t.cells) >= t.opts.PreviewRows {
		return nil
	}
	row := make([]string, len(t.cols))
	for i := range row {
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		switch v.(type) {
		case nil:
		case int64, float64, int, int32, uint64, float32:
			t.seen[i] = true
		default:
			t.seen[i] = true
			t.numeric[i] = false
		}
		t.buf = appendText(t.buf[:0], v, "NULL")
		row[i] = displayText(t.buf)
	}
	t.cells = append(t.cells, row)
	return nil
}

func (t *tableWriter) End(info Info) error {
	total := max(t.n, info.Rows)
	if len(t.cols) > 0 {
		t.writeTable()
	}
	var notes []string
	if shown := int64(len(t.cells)); shown < total {
		notes = append(notes, moreRows(total-shown))
	} else if total == 1 {
		notes = append(notes, "(1 row)")
	} else {
		notes = append(notes, "("+groupDigits(total)+" rows)")
	}
	if info.Truncated {
		notes = append(notes, "the row limit stopped the result early; raise --max-rows to read more")
	}
	if info.Notice != "" {
		notes = append(notes, displayText([]byte(info.Notice)))
	}
	for _, n := range notes {
		t.w.WriteString(n)
		t.w.WriteByte('\n')
	}
	return t.Flush()
}

func (t *tableWriter) writeTable() {
	n := len(t.cols)
	heads := make([]string, n)
	widths := make([]int, n)
	right := make([]bool, n)
	for i, c := range t.cols {
		heads[i] = displayText([]byte(c.Name))
		widths[i] = textWidth(heads[i])
		right[i] = t.numeric[i] && t.seen[i]
		for _, row := range t.cells {
			widths[i] = max(widths[i], textWidth(row[i]))
		}
	}
	fit(widths, right, t.opts.Width)
	line := func(cells []string, under bool) {
		t.buf = t.buf[:0]
		for i, s := range cells {
			if i > 0 {
				t.buf = append(t.buf, columnGap...)
			}
			if under {
				t.buf = append(t.buf, strings.Repeat("─", widths[i])...)
				continue
			}
			s = cut(s, widths[i])
			pad := widths[i] - textWidth(s)
			if right[i] {
				t.buf = append(t.buf, strings.Repeat(" ", pad)...)
				t.buf = append(t.buf, s...)
			} else {
				t.buf = append(t.buf, s...)
				if i < n-1 {
					t.buf = append(t.buf, strings.Repeat(" ", pad)...)
				}
			}
		}
		t.buf = append(t.buf, '\n')
		t.w.Write(t.buf)
	}
	line(heads, false)
	line(heads, true)
	for _, row := range t.cells {
		line(row, false)
	}
}

// fit narrows the widest text columns, one character at a time, until the
// table fits in width or no column can shrink below its minimum. Number
// columns keep their width: a cut number would read as another number.
func fit(widths []int, numeric []bool, width int) {
	if width <= 0 {
		return
	}
	const minWidth = 5
	total := func() int {
		s := len(columnGap) * (len(widths) - 1)
		for _, w := range widths {
			s += w
		}
		return s
	}
	for over := total() - width; over > 0; over-- {
		widest := -1
		for i, w := range widths {
			if !numeric[i] && w > minWidth && (widest < 0 || w >= widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return
		}
		widths[widest]--
	}
}

func (t *tableWriter) Flush() error { return writeError(t.w.Flush()) }

// markdownWriter writes a GitHub-flavoured Markdown table of the first
// Options.PreviewRows rows, numbers right-aligned by column type, pipes
// escaped and line breaks as <br>, followed by a line for left-out rows.
type markdownWriter struct {
	w    *bufio.Writer
	opts Options
	cols int
	n    int64
	buf  []byte
}

func (m *markdownWriter) Begin(cols []quarry.Column) error {
	m.cols = len(cols)
	if len(cols) == 0 {
		return nil
	}
	m.buf = append(m.buf[:0], '|')
	for _, c := range cols {
		m.buf = append(m.buf, ' ')
		m.buf = appendMarkdownCell(m.buf, c.Name)
		m.buf = append(m.buf, " |"...)
	}
	m.buf = append(m.buf, "\n|"...)
	for _, c := range cols {
		if c.Type.IsNumeric() {
			m.buf = append(m.buf, " ---: |"...)
		} else {
			m.buf = append(m.buf, " --- |"...)
		}
	}
	m.buf = append(m.buf, '\n')
	_, err := m.w.Write(m.buf)
	return writeError(err)
}

func (m *markdownWriter) Row(vals []any) error {
	m.n++
	if m.n > int64(m.opts.PreviewRows) || m.cols == 0 {
		return nil
	}
	var cell []byte
	m.buf = append(m.buf[:0], '|')
	for _, v := range vals {
		cell = appendText(cell[:0], v, "NULL")
		m.buf = append(m.buf, ' ')
		m.buf = appendMarkdownCell(m.buf, string(cell))
		m.buf = append(m.buf, " |"...)
	}
	m.buf = append(m.buf, '\n')
	_, err := m.w.Write(m.buf)
	return writeError(err)
}

func appendMarkdownCell(b []byte, s string) []byte {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if i > 0 {
			b = append(b, "<br>"...)
		}
		b = append(b, strings.ReplaceAll(displayText([]byte(l)), "|", `\|`)...)
	}
	return b
}

func (m *markdownWriter) End(info Info) error {
	total := max(m.n, info.Rows)
	shown := min(m.n, int64(m.opts.PreviewRows))
	if m.cols == 0 {
		shown = 0
	}
	var notes []string
	if shown < total {
		notes = append(notes, moreRows(total-shown))
	}
	if info.Truncated {
		notes = append(notes, "The row limit stopped the result early; raise --max-rows to read more.")
	}
	if info.Notice != "" {
		notes = append(notes, displayText([]byte(info.Notice)))
	}
	for _, n := range notes {
		m.w.WriteString("\n")
		m.w.WriteString(n)
		m.w.WriteString("\n")
	}
	return m.Flush()
}

func (m *markdownWriter) Flush() error { return writeError(m.w.Flush()) }

// displayText makes text safe to show in a terminal or a Markdown cell:
// tab, line feed and carriage return become \t, \n and \r; other control
// characters, bidirectional overrides and invalid UTF-8 become U+FFFD.
func displayText(b []byte) string {
	clean := true
	for _, c := range b {
		if c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		switch {
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == utf8.RuneError && size == 1, quarry.Unprintable(r):
			sb.WriteRune(utf8.RuneError)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// textWidth is the number of terminal cells s takes: East Asian wide
// characters and most emoji take two, combining marks none.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r <= 0x36f, r >= 0x200b && r <= 0x200f, r >= 0xfe00 && r <= 0xfe0f:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1f64f, r >= 0x1f900 && r <= 0x1f9ff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// cut shortens s to at most width cells, ending with … when it cut.
func cut(s string, width int) string {
	if textWidth(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	w := 0
	for i, r := range s {
		rw := runeWidth(r)
		if w+rw > width-1 {
			return s[:i] + "…"
		}
		w += rw
	}
	return s
}

// DisplayText is s made safe to print in a terminal (displayText): no
// control characters, escape sequences or bidirectional overrides reach
// it from data.
func DisplayText(s string) string { return displayText([]byte(s)) }
