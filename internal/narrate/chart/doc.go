// Package chart draws a narrate.ChartSpec: as Unicode text for a terminal
// (RenderTerminal) and as SVG or PNG images (RenderSVG, RenderPNG).
//
// In a terminal a bar chart is horizontal bars of full and eighth blocks
// with labels on the left and values on the right; a trend is a column plot
// with a y-axis, the first and last labels and a line giving the first,
// last, lowest and highest values (several series become one sparkline
// each); a figure is the number in large block digits; a scatter is a
// braille dot plot.
//
// Images are drawn with github.com/go-analyze/charts in a light theme,
// 800×450 by default: bar value axes start at 0 and long category labels are
// shortened and turned; figures and scatters are drawn on the same painter
// by hand. The output depends only on the input: the same spec always gives
// the same bytes.
//
// The package is pure: no I/O, no clock, no randomness.
package chart
