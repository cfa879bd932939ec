package mdhtml

import "strings"

// tableAt reports whether a GFM table starts at line i: a row of cells,
// then a delimiter row with as many cells.
func tableAt(lines []string, i int) bool {
	if i+1 >= len(lines) || indent(lines[i]) >= 4 || !strings.Contains(lines[i], "|") {
		return false
	}
	aligns, ok := delimiters(lines[i+1])
	return ok && len(aligns) == len(cells(lines[i]))
}

// delimiters reads a table's delimiter row (| :-- | --: | :-: |) into the
// cells' alignments.
func delimiters(l string) ([]string, bool) {
	if indent(l) >= 4 || !strings.Contains(l, "|") && !strings.Contains(l, ":") {
		return nil, false
	}
	var aligns []string
	for _, c := range cells(l) {
		c = strings.TrimSpace(c)
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		dashes := strings.Trim(c, ":")
		if dashes == "" || strings.Trim(dashes, "-") != "" {
			return nil, false
		}
		switch {
		case left && right:
			aligns = append(aligns, "center")
		case left:
			aligns = append(aligns, "left")
		case right:
			aligns = append(aligns, "right")
		default:
			aligns = append(aligns, "")
		}
	}
	return aligns, len(aligns) > 0
}

// cells splits a table row on its unescaped pipes, without the outer ones;
// an escaped pipe is a pipe in its cell.
func cells(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) {
		l = l[:len(l)-1]
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteByte('|')
			i++
		case l[i] == '|':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(out, cur.String())
}

// table renders the table at line i; its body runs to a blank line or the
// start of another block.
func (r *renderer) table(lines []string, i int) int {
	aligns, _ := delimiters(lines[i+1])
	r.b.WriteString("<table>\n<thead>\n")
	r.row("th", cells(lines[i]), aligns)
	r.b.WriteString("</thead>\n")
	i += 2
	body := false
	for ; i < len(lines) && !blank(lines[i]) && !interrupts(lines[i]); i++ {
		if !body {
			r.b.WriteString("<tbody>\n")
			body = true
		}
		r.row("td", cells(lines[i]), aligns)
	}
	if body {
		r.b.WriteString("</tbody>\n")
	}
	r.b.WriteString("</table>\n")
	return i
}

// row renders one row with as many cells as the header: missing ones empty,
// extra ones dropped.
func (r *renderer) row(tag string, cs []string, aligns []string) {
	r.b.WriteString("<tr>\n")
	for k, a := range aligns {
		r.b.WriteString("<" + tag)
		if a != "" {
			r.b.WriteString(` align="` + a + `"`)
		}
		r.b.WriteString(">")
		if k < len(cs) {
			r.inline(strings.TrimSpace(cs[k]))
		}
		r.b.WriteString("</" + tag + ">\n")
	}
	r.b.WriteString("</tr>\n")
}
