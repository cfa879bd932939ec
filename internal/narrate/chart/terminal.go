package chart

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/quarrydata/quarry/internal/narrate"
)

// DefaultTerminalWidth is the width RenderTerminal uses when given 0.
const DefaultTerminalWidth = 80

// eighths are the partial blocks for 1/8 … 7/8 of a cell, left to right.
var eighths = [...]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// levels are the partial blocks for 1/8 … 8/8 of a cell, bottom to top.
var levels = [...]string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// RenderTerminal draws spec as Unicode text at most width columns wide
// (DefaultTerminalWidth when width ≤ 0). A spec with no chart gives "".
func RenderTerminal(spec narrate.ChartSpec, width int) string {
	if width <= 0 {
		width = DefaultTerminalWidth
	}
	width = max(width, 30)
	if len(spec.Series) == 0 {
		return ""
	}
	var body string
	switch spec.Kind {
	case narrate.ChartBar:
		body = termBar(spec, width)
	case narrate.ChartLine:
		if len(spec.Series) > 1 {
			body = termSparklines(spec, width)
		} else {
			body = termColumns(spec, width)
		}
	case narrate.ChartFigure:
		body = termFigure(spec, width)
	case narrate.ChartScatter:
		body = termScatter(spec, width)
	default:
		return ""
	}
	if spec.Title != "" && spec.Kind != narrate.ChartFigure {
		body = truncate(spec.Title, width) + "\n\n" + body
	}
	return body
}

func full(spec narrate.ChartSpec, v float64) string {
	return narrate.Number(v, spec.Format, spec.Currency)
}

func width(s string) int { return utf8.RuneCountInString(s) }

func truncate(s string, n int) string {
	if width(s) <= n {
		return s
	}
	if n <= 1 {
		return string([]rune(s)[:n])
	}
	return string([]rune(s)[:n-1]) + "…"
}

// shorten cuts s to n runes in the middle, keeping both ends, which tell
// similar labels apart: "Product with a long name 25" → "Product wi…name 25".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 8 {
		return truncate(s, n)
	}
	tail := (n - 1) * 2 / 5
	return string(r[:n-1-tail]) + "…" + string(r[len(r)-tail:])
}

func padRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-width(s))) }
func padLeft(s string, n int) string  { return strings.Repeat(" ", max(0, n-width(s))) + s }

// bar is a horizontal bar of v/top of cells cells, in eighths.
func bar(v, top float64, cells int) string {
	if top <= 0 || v <= 0 || math.IsNaN(v) {
		return ""
	}
	units := int(math.Round(v / top * float64(cells*8)))
	if units == 0 {
		units = 1 // a positive value is never invisible
	}
	return strings.Repeat("█", units/8) + eighths[units%8]
}

func termBar(spec narrate.ChartSpec, w int) string {
	type row struct {
		label, value string
		v            float64
	}
	var rows []row
	multi := len(spec.Series) > 1
	for i, l := range spec.Labels {
		for _, s := range spec.Series {
			if i >= len(s.Values) {
				continue
			}
			label := l
			if multi {
				label = l + " · " + s.Name
			}
			rows = append(rows, row{label, full(spec, s.Values[i]), s.Values[i]})
		}
	}
	labelW, valueW, top := 0, 0, 0.0
	for _, r := range rows {
		labelW = max(labelW, width(r.label))
		valueW = max(valueW, width(r.value))
		top = math.Max(top, r.v)
	}
	labelW = min(labelW, max(8, w/3))
	cells := max(5, w-labelW-valueW-2)
	var b strings.Builder
	for _, r := range rows {
		line := padRight(shorten(r.label, labelW), labelW) + " " + padRight(bar(r.v, top, cells), cells) + " " + padLeft(r.value, valueW)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// resample fits values into n columns: one column per value when they fit
// (repeated to fill), otherwise the mean of each group of values.
func resample(values []float64, n int) []float64 {
	if len(values) == 0 || n <= 0 {
		return nil
	}
	if len(values) <= n {
		per := n / len(values)
		out := make([]float64, 0, per*len(values))
		for _, v := range values {
			for range per {
				out = append(out, v)
			}
		}
		return out
	}
	out := make([]float64, n)
	for i := range n {
		lo, hi := i*len(values)/n, (i+1)*len(values)/n
		sum := 0.0
		for _, v := range values[lo:hi] {
			sum += v
		}
		out[i] = sum / float64(hi-lo)
	}
	return out
}

func extent(values []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// termColumns draws one series as columns of eighth blocks with a y-axis.
func termColumns(spec narrate.ChartSpec, w int) string {
	const height = 8
	values := spec.Series[0].Values
	lo, hi := extent(values)
	base := lo - (hi-lo)*0.1
	if lo >= 0 && (hi == 0 || lo/hi < 0.6) {
		base = 0
	}
	if hi == base {
		base = hi - 1
	}
	top, bottom := compact(hi, spec.Format, spec.Currency), compact(base, spec.Format, spec.Currency)
	axisW := max(width(top), width(bottom))
	plotW := max(8, w-axisW-2)
	cols := resample(values, plotW)
	var b strings.Builder
	for row := height - 1; row >= 0; row-- {
		label := ""
		switch row {
		case height - 1:
			label = top
		case 0:
			label = bottom
		}
		b.WriteString(padLeft(label, axisW) + " ┤")
		var line strings.Builder
		for _, v := range cols {
			units := int(math.Round((v - base) / (hi - base) * height * 8))
			cell := min(8, max(0, units-row*8))
			if row == 0 && cell == 0 && units >= 0 {
				cell = 1
			}
			line.WriteString(levels[cell])
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	b.WriteString(strings.Repeat(" ", axisW) + " └" + strings.Repeat("─", len(cols)) + "\n")
	if n := len(spec.Labels); n > 0 {
		first, last := spec.Labels[0], spec.Labels[n-1]
		gap := len(cols) - width(first) - width(last)
		if n > 1 && gap >= 1 {
			b.WriteString(strings.Repeat(" ", axisW+2) + first + strings.Repeat(" ", gap) + last + "\n")
		} else {
			b.WriteString(strings.Repeat(" ", axisW+2) + first + "\n")
		}
	}
	b.WriteString(summary(spec, values, w) + "\n")
	return b.String()
}

// summary is "first … · last … · low … · high …" with full values.
func summary(spec narrate.ChartSpec, values []float64, w int) string {
	lo, hi := extent(values)
	parts := []string{
		"first " + full(spec, values[0]),
		"last " + full(spec, values[len(values)-1]),
		"low " + full(spec, lo),
		"high " + full(spec, hi),
	}
	return truncate(strings.Join(parts, " · "), w)
}

func sparkline(values []float64, n int) string {
	cols := resample(values, n)
	lo, hi := extent(values)
	var b strings.Builder
	for _, v := range cols {
		i := 4
		if hi > lo {
			i = 1 + int(math.Round((v-lo)/(hi-lo)*7))
		}
		b.WriteString(levels[i])
	}
	return b.String()
}

// termSparklines draws one sparkline per series, with its first and last
// values.
func termSparklines(spec narrate.ChartSpec, w int) string {
	nameW := 0
	for _, s := range spec.Series {
		nameW = max(nameW, width(s.Name))
	}
	nameW = min(nameW, w/4)
	type ends struct{ first, last string }
	var es []ends
	endW := 0
	for _, s := range spec.Series {
		e := ends{full(spec, s.Values[0]), full(spec, s.Values[len(s.Values)-1])}
		es = append(es, e)
		endW = max(endW, width(e.first)+width(e.last)+3)
	}
	lineW := max(4, w-nameW-endW-2)
	n := min(lineW, len(spec.Labels)*max(1, lineW/max(1, len(spec.Labels))))
	var b strings.Builder
	for i, s := range spec.Series {
		b.WriteString(padRight(truncate(s.Name, nameW), nameW) + " " + padRight(sparkline(s.Values, n), n) + " " + es[i].first + " → " + es[i].last + "\n")
	}
	if len(spec.Labels) > 0 {
		b.WriteString(strings.Repeat(" ", nameW+1) + spec.Labels[0] + " … " + spec.Labels[len(spec.Labels)-1] + "\n")
	}
	return b.String()
}
