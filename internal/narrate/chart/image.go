package chart

import (
	"math"

	"github.com/go-analyze/charts"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Default image size.
const (
	DefaultWidth  = 800
	DefaultHeight = 450
)

// maxLabel is the longest category label drawn in full on an image.
const maxLabel = 22

// palette is the light theme's colours.
type palette struct {
	background, text, muted, axis, grid charts.Color
	series                              []charts.Color
}

func light() palette {
	return palette{
		background: charts.ColorFromHex("#ffffff"),
		text:       charts.ColorFromHex("#1f2937"),
		muted:      charts.ColorFromHex("#6b7280"),
		axis:       charts.ColorFromHex("#9ca3af"),
		grid:       charts.ColorFromHex("#e5e7eb"),
		series: []charts.Color{
			charts.ColorFromHex("#2563eb"), charts.ColorFromHex("#f97316"), charts.ColorFromHex("#16a34a"),
			charts.ColorFromHex("#9333ea"), charts.ColorFromHex("#dc2626"), charts.ColorFromHex("#0d9488"),
			charts.ColorFromHex("#d97706"), charts.ColorFromHex("#475569"),
		},
	}
}

func (p palette) theme() charts.ColorPalette {
	return charts.MakeTheme(charts.ThemeOption{
		AxisStrokeColor:    p.axis,
		AxisSplitLineColor: p.grid,
		BackgroundColor:    p.background,
		TextColor:          p.text,
		TextColorTitle:     p.text,
		TextColorLegend:    p.text,
		TextColorXAxis:     p.muted,
		TextColorYAxis:     p.muted,
		TextColorLabel:     p.text,
		TextColorMark:      p.text,
		SeriesColors:       p.series,
	})
}

// RenderSVG draws spec as an SVG image of the given size (DefaultWidth ×
// DefaultHeight when either is 0 or less).
func RenderSVG(spec narrate.ChartSpec, width, height int) ([]byte, error) {
	return render(spec, width, height, "svg")
}

// RenderPNG draws spec as a PNG image of the given size (DefaultWidth ×
// DefaultHeight when either is 0 or less).
func RenderPNG(spec narrate.ChartSpec, width, height int) ([]byte, error) {
	return render(spec, width, height, "png")
}

func render(spec narrate.ChartSpec, width, height int, format string) ([]byte, error) {
	if width <= 0 || height <= 0 {
		width, height = DefaultWidth, DefaultHeight
	}
	if width < 200 || height < 120 || width > 8000 || height > 8000 {
		return nil, quarry.Errorf(quarry.KindInput, "a chart must be between 200×120 and 8000×8000 pixels, not %d×%d", width, height)
	}
	if err := validate(spec); err != nil {
		return nil, err
	}
	pal := light()
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: width, Height: height, Theme: pal.theme()})
	var err error
	switch spec.Kind {
	case narrate.ChartBar:
		err = p.BarChart(barOption(spec, pal, width))
	case narrate.ChartLine:
		err = p.LineChart(lineOption(spec, pal, width))
	case narrate.ChartFigure:
		drawFigure(p, spec, pal, width, height)
	case narrate.ChartScatter:
		drawScatter(p, spec, pal, width, height)
	}
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "could not draw the %s chart", spec.Kind)
	}
	b, err := p.Bytes()
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "could not encode the %s chart", spec.Kind)
	}
	return b, nil
}

func validate(spec narrate.ChartSpec) error {
	switch spec.Kind {
	case narrate.ChartBar, narrate.ChartLine, narrate.ChartFigure, narrate.ChartScatter:
	case narrate.ChartNone:
		return quarry.Errorf(quarry.KindInput, "there is no chart to draw for this result")
	default:
		return quarry.Errorf(quarry.KindUnsupported, "unknown chart kind %q", spec.Kind)
	}
	if len(spec.Series) == 0 || len(spec.Series[0].Values) == 0 {
		return quarry.Errorf(quarry.KindInput, "the %s chart has no values", spec.Kind)
	}
	for _, s := range spec.Series {
		for _, v := range s.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return quarry.Errorf(quarry.KindInput, "the %s chart has a value that is not a finite number", spec.Kind)
			}
		}
		if (spec.Kind == narrate.ChartBar || spec.Kind == narrate.ChartLine) && len(s.Values) != len(spec.Labels) {
			return quarry.Errorf(quarry.KindInput, "series %q has %d values for %d labels", s.Name, len(s.Values), len(spec.Labels))
		}
	}
	if spec.Kind == narrate.ChartScatter && (len(spec.Series) != 2 || len(spec.Series[0].Values) != len(spec.Series[1].Values)) {
		return quarry.Errorf(quarry.KindInput, "a scatter chart needs two series of the same length")
	}
	return nil
}

func formatter(spec narrate.ChartSpec) charts.ValueFormatter {
	return func(v float64) string { return compact(v, spec.Format, spec.Currency) }
}

func title(spec narrate.ChartSpec, pal palette) charts.TitleOption {
	return charts.TitleOption{
		Text:      spec.Title,
		Offset:    charts.OffsetStr{Left: charts.PositionLeft},
		FontStyle: charts.FontStyle{FontSize: 16, FontColor: pal.text},
	}
}

func shortLabels(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = shorten(l, maxLabel)
	}
	return out
}

// rotation turns category labels when they would not fit side by side.
func rotation(labels []string, width int) float64 {
	longest := 0
	for _, l := range labels {
		longest = max(longest, width0(l))
	}
	perLabel := float64(width-120) / float64(max(1, len(labels)))
	if float64(longest)*7 > perLabel {
		return charts.DegreesToRadians(45)
	}
	return 0
}

func reversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func width0(s string) int { return len([]rune(s)) }

func legend(spec narrate.ChartSpec, pal palette) charts.LegendOption {
	if len(spec.Series) < 2 {
		return charts.LegendOption{Show: charts.Ptr(false)}
	}
	names := make([]string, len(spec.Series))
	for i, s := range spec.Series {
		names[i] = s.Name
	}
	return charts.LegendOption{SeriesNames: names, Offset: charts.OffsetStr{Left: charts.PositionRight},
		FontStyle: charts.FontStyle{FontSize: 12, FontColor: pal.text}}
}

func values(spec narrate.ChartSpec) [][]float64 {
	out := make([][]float64, len(spec.Series))
	for i, s := range spec.Series {
		out[i] = s.Values
	}
	return out
}

func barOption(spec narrate.ChartSpec, pal palette, width int) charts.BarChartOption {
	opt := charts.NewBarChartOptionWithData(values(spec))
	opt.Theme = pal.theme()
	opt.Padding = charts.Box{Top: 20, Left: 20, Right: 30, Bottom: 20}
	opt.Title = title(spec, pal)
	opt.Legend = legend(spec, pal)
	labels := shortLabels(spec.Labels)
	horizontal := rotation(labels, width) != 0 || len(labels) > 8
	if horizontal {
		// horizontal bars are drawn bottom up: reverse so the first
		// category is on top
		labels = reversed(labels)
		for i := range opt.SeriesList {
			opt.SeriesList[i].Values = reversed(opt.SeriesList[i].Values)
		}
		opt.Horizontal = true
	}
	opt.CategoryAxis = charts.CategoryAxisOption{
		Labels:         labels,
		LabelCount:     len(labels),
		LabelFontStyle: charts.FontStyle{FontSize: 11, FontColor: pal.muted},
		TitleFontStyle: charts.FontStyle{FontSize: 12, FontColor: pal.muted},
	}
	if !horizontal {
		opt.CategoryAxis.Title = spec.X
	}
	lo, _ := extent(spec.Series[0].Values)
	for _, s := range spec.Series[1:] {
		l, _ := extent(s.Values)
		lo = math.Min(lo, l)
	}
	axis := charts.ValueAxisOption{
		Title:          spec.Y,
		LabelFontStyle: charts.FontStyle{FontSize: 11, FontColor: pal.muted},
		TitleFontStyle: charts.FontStyle{FontSize: 12, FontColor: pal.muted},
	}
	if lo >= 0 {
		axis.Min = charts.Ptr(0.0)
	}
	opt.ValueAxis = []charts.ValueAxisOption{axis}
	opt.ValueFormatter = formatter(spec)
	if len(spec.Labels)*len(spec.Series) <= 12 {
		for i := range opt.SeriesList {
			opt.SeriesList[i].Label = charts.SeriesLabel{Show: charts.Ptr(true), ValueFormatter: formatter(spec),
				FontStyle: charts.FontStyle{FontSize: 11, FontColor: pal.text}}
		}
	}
	for i := range opt.SeriesList {
		opt.SeriesList[i].Name = spec.Series[i].Name
	}
	return opt
}

func lineOption(spec narrate.ChartSpec, pal palette, width int) charts.LineChartOption {
	opt := charts.NewLineChartOptionWithData(values(spec))
	opt.Theme = pal.theme()
	opt.Padding = charts.Box{Top: 20, Left: 20, Right: 30, Bottom: 20}
	opt.Title = title(spec, pal)
	opt.Legend = legend(spec, pal)
	labels := shortLabels(spec.Labels)
	opt.XAxis = charts.XAxisOption{
		Labels:         labels,
		Title:          spec.X,
		BoundaryGap:    charts.Ptr(false),
		LabelFontStyle: charts.FontStyle{FontSize: 11, FontColor: pal.muted},
		TitleFontStyle: charts.FontStyle{FontSize: 12, FontColor: pal.muted},
	}
	if len(labels) > 12 {
		// name every k-th point only, so that labels never collide
		k := (len(labels) + 6) / 7
		sparse := make([]string, len(labels))
		for i := 0; i < len(labels); i += k {
			sparse[i] = labels[i]
		}
		opt.XAxis.Labels = sparse
		opt.XAxis.LabelCount = len(labels)
	} else {
		opt.XAxis.LabelRotation = rotation(labels, width)
	}
	opt.YAxis = []charts.YAxisOption{{
		Title:          spec.Y,
		LabelFontStyle: charts.FontStyle{FontSize: 11, FontColor: pal.muted},
		TitleFontStyle: charts.FontStyle{FontSize: 12, FontColor: pal.muted},
	}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range spec.Series {
		l, h := extent(s.Values)
		lo, hi = math.Min(lo, l), math.Max(hi, h)
	}
	if lo >= 0 && (hi == 0 || lo/hi < 0.6) {
		// values far from their range's width start the axis at zero,
		// as the terminal plot does
		opt.YAxis[0].Min = charts.Ptr(0.0)
	}
	opt.ValueFormatter = formatter(spec)
	opt.LineStrokeWidth = 2.5
	if len(spec.Series) == 1 {
		opt.FillArea = charts.Ptr(true)
		opt.FillOpacity = 40
	}
	if len(spec.Labels) > 40 {
		opt.Symbol = charts.Symbol{Shape: charts.SymbolNone}
	}
	for i := range opt.SeriesList {
		opt.SeriesList[i].Name = spec.Series[i].Name
	}
	return opt
}

func style(size float64, c charts.Color) charts.FontStyle {
	return charts.FontStyle{FontSize: size, FontColor: c, Font: charts.GetDefaultFont()}
}

// drawFigure draws a card with the title, the number and its label.
func drawFigure(p *charts.Painter, spec narrate.ChartSpec, pal palette, width, height int) {
	p.FilledRect(0, 0, width, height, pal.background, pal.background, 0)
	m := min(width, height) / 16
	p.FilledRect(m, m, width-m, height-m, charts.ColorFromHex("#f8fafc"), pal.grid, 1)
	p.FilledRect(m, m, m+6, height-m, pal.series[0], pal.series[0], 0)
	text := full(spec, spec.Series[0].Values[0])
	heading := spec.Title
	if heading == "" {
		heading = spec.Y
	}
	left := m + 40
	inner := width - left - m - 30
	hs := style(math.Max(14, float64(height)/22), pal.muted)
	p.Text(fitText(p, heading, inner, hs), left, height/2-int(float64(height)/7), 0, hs)
	size := float64(height) / 5
	ns := style(size, pal.text)
	for size > 12 && p.MeasureText(text, 0, ns).Width() > inner {
		size *= 0.9
		ns = style(size, pal.text)
	}
	nb := p.MeasureText(text, 0, ns)
	p.Text(text, left, height/2+nb.Height()/2, 0, ns)
	if len(spec.Labels) == 1 && spec.Labels[0] != "" {
		ls := style(math.Max(12, float64(height)/26), pal.muted)
		p.Text(fitText(p, spec.Labels[0], inner, ls), left, height/2+nb.Height()/2+int(float64(height)/9), 0, ls)
	}
}

// fitText shortens s until it fits in width pixels.
func fitText(p *charts.Painter, s string, width int, st charts.FontStyle) string {
	for width0(s) > 1 && p.MeasureText(s, 0, st).Width() > width {
		s = truncate(s, width0(s)-1)
	}
	return s
}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		lo, hi = lo-1, hi+1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var ticks []float64
	for v := start; v <= hi+step*0.999; v += step {
		ticks = append(ticks, math.Round(v/step)*step)
	}
	return ticks
}

// drawScatter draws the points on numeric x and y axes with grid lines.
func drawScatter(p *charts.Painter, spec narrate.ChartSpec, pal palette, width, height int) {
	p.FilledRect(0, 0, width, height, pal.background, pal.background, 0)
	xs, ys := spec.Series[0].Values, spec.Series[1].Values
	xlo0, xhi0 := extent(xs)
	ylo0, yhi0 := extent(ys)
	xt := niceTicks(xlo0, xhi0, 6)
	yt := niceTicks(ylo0, yhi0, 5)
	xlo, xhi := xt[0], xt[len(xt)-1]
	ylo, yhi := yt[0], yt[len(yt)-1]
	ls := style(11, pal.muted)
	ts := style(16, pal.text)
	yLabelW := 0
	for _, v := range yt {
		yLabelW = max(yLabelW, p.MeasureText(compact(v, spec.Format, spec.Currency), 0, ls).Width())
	}
	top := 20
	if spec.Title != "" {
		p.Text(fitText(p, spec.Title, width-40, ts), 20, top+16, 0, ts)
		top += 40
	}
	left, right, bottom := 20+18+yLabelW+8, width-30, height-20-18-20
	px := func(v float64) int { return left + int(math.Round((v-xlo)/(xhi-xlo)*float64(right-left))) }
	py := func(v float64) int { return bottom - int(math.Round((v-ylo)/(yhi-ylo)*float64(bottom-top))) }
	for _, v := range yt {
		y := py(v)
		p.LineStroke([]charts.Point{{X: left, Y: y}, {X: right, Y: y}}, pal.grid, 1)
		s := compact(v, spec.Format, spec.Currency)
		b := p.MeasureText(s, 0, ls)
		p.Text(s, left-8-b.Width(), y+b.Height()/2-1, 0, ls)
	}
	for _, v := range xt {
		x := px(v)
		p.LineStroke([]charts.Point{{X: x, Y: bottom}, {X: x, Y: bottom + 5}}, pal.axis, 1)
		s := compact(v, "", "")
		b := p.MeasureText(s, 0, ls)
		p.Text(s, x-b.Width()/2, bottom+8+b.Height(), 0, ls)
	}
	p.LineStroke([]charts.Point{{X: left, Y: bottom}, {X: right, Y: bottom}}, pal.axis, 1)
	as := style(12, pal.muted)
	xb := p.MeasureText(spec.X, 0, as)
	p.Text(spec.X, (left+right)/2-xb.Width()/2, height-14, 0, as)
	yb := p.MeasureText(spec.Y, 0, as)
	p.Text(spec.Y, 20+yb.Height(), (top+bottom)/2+yb.Width()/2, -math.Pi/2, as)
	dot := pal.series[0]
	fill := charts.Color{R: dot.R, G: dot.G, B: dot.B, A: 150}
	for i := range xs {
		p.Circle(4.5, px(xs[i]), py(ys[i]), fill, dot, 1)
	}
}
