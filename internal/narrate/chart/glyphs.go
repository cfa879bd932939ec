package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/narrate"
)

// font is a 5-row pixel font for the characters of formatted numbers.
var font = map[rune][5]string{
	'0': {"###", "#.#", "#.#", "#.#", "###"},
	'1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"###", "..#", "###", "#..", "###"},
	'3': {"###", "..#", "###", "..#", "###"},
	'4': {"#.#", "#.#", "###", "..#", "..#"},
	'5': {"###", "#..", "###", "..#", "###"},
	'6': {"###", "#..", "###", "#.#", "###"},
	'7': {"###", "..#", "..#", "..#", "..#"},
	'8': {"###", "#.#", "###", "#.#", "###"},
	'9': {"###", "#.#", "###", "..#", "###"},
	',': {".", ".", ".", "#", "#"},
	'.': {".", ".", ".", ".", "#"},
	'-': {"...", "...", "###", "...", "..."},
	'+': {"...", ".#.", "###", ".#.", "..."},
	'%': {"#.#", "..#", ".#.", "#..", "#.#"},
	'$': {".##", "##.", ".#.", ".##", "##."},
	' ': {".", ".", ".", ".", "."},
}

// bigText renders s in three lines of half blocks, or false when a
// character has no glyph.
func bigText(s string) ([3]string, bool) {
	var rows [6]strings.Builder
	first := true
	for _, r := range s {
		g, ok := font[r]
		if !ok {
			return [3]string{}, false
		}
		for i := range 6 {
			if !first {
				rows[i].WriteByte('.')
			}
			if i < 5 {
				rows[i].WriteString(g[i])
			} else {
				rows[i].WriteString(strings.Repeat(".", len(g[0])))
			}
		}
		first = false
	}
	var out [3]string
	for line := range 3 {
		top, bottom := rows[2*line].String(), rows[2*line+1].String()
		var b strings.Builder
		for i := 0; i < len(top); i++ {
			switch {
			case top[i] == '#' && bottom[i] == '#':
				b.WriteString("█")
			case top[i] == '#':
				b.WriteString("▀")
			case bottom[i] == '#':
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		out[line] = strings.TrimRight(b.String(), " ")
	}
	return out, true
}

func termFigure(spec narrate.ChartSpec, w int) string {
	v := spec.Series[0].Values[0]
	text := full(spec, v)
	var b strings.Builder
	title := spec.Title
	if title == "" {
		title = spec.Y
	}
	if len(spec.Labels) == 1 && spec.Labels[0] != "" {
		title += " · " + spec.Labels[0]
	}
	if title != "" {
		b.WriteString(truncate(title, w) + "\n\n")
	}
	if big, ok := bigText(text); ok && width(big[0]) <= w-2 {
		for _, l := range big {
			b.WriteString("  " + l + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  " + text + "\n")
	return b.String()
}

// braille dot bits for the 2×4 cell positions [x][y].
var brailleBits = [2][4]rune{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

func termScatter(spec narrate.ChartSpec, w int) string {
	const rows = 10
	if len(spec.Series) < 2 {
		return ""
	}
	xs, ys := spec.Series[0].Values, spec.Series[1].Values
	xlo, xhi := extent(xs)
	ylo, yhi := extent(ys)
	if xhi == xlo {
		xlo, xhi = xlo-1, xhi+1
	}
	if yhi == ylo {
		ylo, yhi = ylo-1, yhi+1
	}
	top, bottom := compact(yhi, spec.Format, spec.Currency), compact(ylo, spec.Format, spec.Currency)
	axisW := max(width(top), width(bottom))
	cols := max(10, w-axisW-2)
	grid := make([][]rune, rows)
	for i := range grid {
		grid[i] = make([]rune, cols)
	}
	for i := range min(len(xs), len(ys)) {
		px := int(math.Round((xs[i] - xlo) / (xhi - xlo) * float64(cols*2-1)))
		py := int(math.Round((yhi - ys[i]) / (yhi - ylo) * float64(rows*4-1)))
		grid[py/4][px/2] |= brailleBits[px%2][py%4]
	}
	var b strings.Builder
	for r := range rows {
		label := ""
		switch r {
		case 0:
			label = top
		case rows - 1:
			label = bottom
		}
		var line strings.Builder
		for _, bits := range grid[r] {
			if bits == 0 {
				line.WriteByte(' ')
			} else {
				line.WriteRune(0x2800 + bits)
			}
		}
		b.WriteString(padLeft(label, axisW) + " ┤" + strings.TrimRight(line.String(), " ") + "\n")
	}
	b.WriteString(strings.Repeat(" ", axisW) + " └" + strings.Repeat("─", cols) + "\n")
	left, right := compact(xlo, "", ""), compact(xhi, "", "")
	gap := max(1, cols-width(left)-width(right))
	b.WriteString(strings.Repeat(" ", axisW+2) + left + strings.Repeat(" ", gap) + right + "\n")
	b.WriteString(truncate("x: "+spec.X+" · y: "+spec.Y, w) + "\n")
	return b.String()
}

// compact formats an axis value briefly: 1,260,000 → 1.3M, 0.25 as a
// percent → 25%. Axis labels are for reading the chart, not for quoting,
// but a label never misstates a round tick (1,250,000 is 1.25M, not 1.2M),
// and it rounds as every other surface does (narrate.Fixed: half away
// from zero on the decimal value).
func compact(v float64, format, currency string) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	var s string
	if format == narrate.FormatPercent {
		s = short(v*100) + "%"
	} else {
		prefix := ""
		switch format {
		case narrate.FormatCurrency:
			prefix = currency
		case narrate.FormatCents:
			prefix, v = currency, v/100
		}
		switch {
		case v >= 1e12:
			s = short(v/1e12) + "T"
		case v >= 1e9:
			s = short(v/1e9) + "B"
		case v >= 1e6:
			s = short(v/1e6) + "M"
		case v >= 1e4:
			s = short(v/1e3) + "K"
		case v == math.Trunc(v):
			s = strconv.FormatFloat(v, 'f', 0, 64)
		case v >= 1:
			s = trimZeros(narrate.Fixed(v, 2, 0))
		default:
			// two significant digits
			s = trimZeros(narrate.Fixed(v, 1-int(math.Floor(math.Log10(v))), 0))
		}
		s = prefix + s
	}
	if strings.Trim(s, "0.%"+currency) == "" {
		sign = ""
	}
	return sign + s
}

// short writes a non-negative x with one decimal, or with two when x is
// exactly a quarter step (the ticks at 1.25 or 7.75 of a unit).
func short(x float64) string {
	if two := narrate.Fixed(x, 2, 0); strings.HasSuffix(two, "5") && two == strconv.FormatFloat(x, 'f', -1, 64) {
		return two
	}
	return trimZeros(narrate.Fixed(x, 1, 0))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") && !strings.ContainsAny(s, "e") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}
