package narrate

import (
	"github.com/quarrydata/quarry/internal/quarry"
)

// Chart kinds.
const (
	ChartNone    = ""
	ChartLine    = "line"
	ChartBar     = "bar"
	ChartFigure  = "figure"
	ChartScatter = "scatter"
)

// MaxBars is the largest number of categories drawn as a bar chart.
const MaxBars = 30

// maxSeries is the largest number of series a pivoted chart may have.
const maxSeries = 8

// Series is one named sequence of values, one per label.
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// ChartSpec describes a chart independently of how it is drawn. For line
// and bar charts Labels name the points and every series has one value per
// label. A figure has one series with one value (Labels may name the row).
// A scatter has no labels and two series: the x values, then the y values.
// Format and Currency say how to show values (see Number).
type ChartSpec struct {
	Kind     string   `json:"kind"`
	Title    string   `json:"title,omitempty"`
	X        string   `json:"x,omitempty"`
	Y        string   `json:"y,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	Series   []Series `json:"series,omitempty"`
	Format   string   `json:"format,omitempty"`
	Currency string   `json:"currency,omitempty"`
}

// ChooseChart picks a chart from the shape of a result:
//
//   - a date or period dimension and numbers → line (a second, category
//     dimension becomes one series per category when every pair is present);
//     period labels of a comparison → bar;
//   - a category and a number → bar, at most MaxBars categories, in the
//     result's order (a share column is preferred over the measure);
//   - one row with one number → figure;
//   - two numeric columns and no dimension → scatter;
//   - anything else → no chart (Kind "").
//
// Rows whose plotted value is NULL are left out.
func ChooseChart(t *quarry.Table, infos []ColumnInfo, title string) ChartSpec {
	none := ChartSpec{}
	if t == nil || len(t.Rows) == 0 {
		return none
	}
	cols := resolve(t, infos)
	var nums, dims []column
	for _, c := range cols {
		switch {
		case c.key || c.surname:
			// An entity's key beside its label (products.id next to
			// products.name) tells rows apart; it is not a measure. Last
			// names name the rows with the first names beside them.
		case c.numeric:
			nums = append(nums, c)
		default:
			dims = append(dims, c)
		}
	}
	if len(nums) == 0 {
		return none
	}
	if len(t.Rows) == 1 && len(nums) == 1 && len(dims) <= 1 {
		f, ok := quarry.Float(nums[0].cell(t.Rows[0]))
		if !ok {
			return none
		}
		spec := ChartSpec{Kind: ChartFigure, Title: title, Y: humanize(nums[0].Name), Format: nums[0].Format,
			Series: []Series{{Name: nums[0].Name, Values: []float64{f}}}}
		if len(dims) == 1 {
			spec.X = humanize(dims[0].Name)
			spec.Labels = []string{dims[0].name(cols, t.Rows[0], "")}
		}
		return spec
	}
	switch len(dims) {
	case 0:
		if len(nums) == 2 && len(t.Rows) >= 2 {
			spec := ChartSpec{Kind: ChartScatter, Title: title, X: humanize(nums[0].Name), Y: humanize(nums[1].Name), Format: nums[1].Format}
			xs, ys := Series{Name: nums[0].Name}, Series{Name: nums[1].Name}
			for _, r := range t.Rows {
				x, okx := quarry.Float(nums[0].cell(r))
				y, oky := quarry.Float(nums[1].cell(r))
				if okx && oky {
					xs.Values = append(xs.Values, x)
					ys.Values = append(ys.Values, y)
				}
			}
			if len(xs.Values) < 2 {
				return none
			}
			spec.Series = []Series{xs, ys}
			return spec
		}
		return none
	case 1:
		d := dims[0]
		kind := ChartBar
		if d.time {
			kind = ChartLine
		}
		plotted := nums
		if kind == ChartBar {
			plotted = nums[:1]
			for _, n := range nums {
				if n.Role == RoleShare {
					plotted = []column{n}
					break
				}
			}
			if len(t.Rows) > MaxBars {
				return none
			}
		} else {
			// one line per measure of the same format as the first
			var same []column
			for _, n := range nums {
				if n.Format == nums[0].Format && n.Role != RoleChange {
					same = append(same, n)
				}
			}
			plotted = same
		}
		spec := ChartSpec{Kind: kind, Title: title, X: humanize(d.Name), Y: humanize(plotted[0].Name), Format: plotted[0].Format}
		series := make([]Series, len(plotted))
		for i, p := range plotted {
			series[i].Name = p.Name
		}
	rows:
		for _, r := range t.Rows {
			vals := make([]float64, len(plotted))
			for i, p := range plotted {
				f, ok := quarry.Float(p.cell(r))
				if !ok {
					continue rows
				}
				vals[i] = f
			}
			spec.Labels = append(spec.Labels, d.name(cols, r, ""))
			for i := range series {
				series[i].Values = append(series[i].Values, vals[i])
			}
		}
		if len(spec.Labels) == 0 {
			return none
		}
		spec.Series = series
		return spec
	case 2:
		// time × category → one line per category; period label × category
		// → bars grouped by category, one series per period.
		var axis, split column
		kind := ChartLine
		switch {
		case dims[0].time && !dims[1].time:
			axis, split = dims[0], dims[1]
		case dims[1].time && !dims[0].time:
			axis, split = dims[1], dims[0]
		case dims[0].label && !dims[1].label:
			axis, split, kind = dims[1], dims[0], ChartBar
		case dims[1].label && !dims[0].label:
			axis, split, kind = dims[0], dims[1], ChartBar
		default:
			return none
		}
		m := nums[0]
		spec, ok := pivot(t, axis, split, m)
		if !ok || (kind == ChartBar && len(spec.Labels) > MaxBars) {
			return none
		}
		spec.Kind, spec.Title, spec.X, spec.Y, spec.Format = kind, title, humanize(axis.Name), humanize(m.Name), m.Format
		return spec
	}
	return none
}

// pivot spreads value over labels from axis and one series per distinct
// value of split. It fails unless every (axis, split) pair appears exactly
// once with a number.
func pivot(t *quarry.Table, axis, split, value column) (ChartSpec, bool) {
	var spec ChartSpec
	labelAt := map[string]int{}
	seriesAt := map[string]int{}
	type cell struct{ l, s int }
	vals := map[cell]float64{}
	for _, r := range t.Rows {
		l, s := axis.text(r, ""), split.text(r, "")
		if _, ok := labelAt[l]; !ok {
			labelAt[l] = len(spec.Labels)
			spec.Labels = append(spec.Labels, l)
		}
		if _, ok := seriesAt[s]; !ok {
			if len(spec.Series) == maxSeries {
				return spec, false
			}
			seriesAt[s] = len(spec.Series)
			spec.Series = append(spec.Series, Series{Name: s})
		}
		f, ok := quarry.Float(value.cell(r))
		k := cell{labelAt[l], seriesAt[s]}
		if _, dup := vals[k]; dup || !ok {
			return spec, false
		}
		vals[k] = f
	}
	if len(vals) != len(spec.Labels)*len(spec.Series) {
		return spec, false
	}
	for si := range spec.Series {
		spec.Series[si].Values = make([]float64, len(spec.Labels))
		for li := range spec.Labels {
			spec.Series[si].Values[li] = vals[cell{li, si}]
		}
	}
	return spec, true
}
