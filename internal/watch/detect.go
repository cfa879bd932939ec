package watch

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Detector names how a period is judged against its baseline.
type Detector string

// The detectors.
const (
	// ZScore divides the period's change from its baseline by how much the
	// series usually moves (a robust spread of recent changes).
	ZScore Detector = "zscore"
	// PercentChange compares the change from the baseline with a fixed
	// fraction.
	PercentChange Detector = "percent_change"
)

// Detectors lists the detectors, the default first.
func Detectors() []Detector { return []Detector{ZScore, PercentChange} }

// Sensitivities lists the named sensitivities, the default in the middle.
func Sensitivities() []string { return []string{"low", "medium", "high"} }

// DefaultSensitivity is the sensitivity of a monitor that names none.
const DefaultSensitivity = "medium"

// Threshold is the detector's threshold at a named sensitivity: the
// |z| a change must reach (5, 4, 3) or the fraction it must move (50%,
// 30%, 20%). ok is false for an unknown detector or sensitivity.
func Threshold(d Detector, sensitivity string) (float64, bool) {
	var i int
	switch sensitivity {
	case "low":
		i = 0
	case "medium", "":
		i = 1
	case "high":
		i = 2
	default:
		return 0, false
	}
	switch d {
	case ZScore, "":
		return [3]float64{5, 4, 3}[i], true
	case PercentChange:
		return [3]float64{0.5, 0.3, 0.2}[i], true
	}
	return 0, false
}

// Direction says which changes count: "both" (the default), "up" or
// "down".
type Direction string

// The directions.
const (
	Both Direction = "both"
	Up   Direction = "up"
	Down Direction = "down"
)

// Config is how a series is judged.
type Config struct {
	Grain     semantic.Grain // day, week or month
	Detector  Detector       // "" is ZScore
	Threshold float64        // the detector's threshold (see Threshold); 0: the default
	Direction Direction      // "" is Both
	// MinVolume: a period whose value and baseline are both below it (in
	// the metric's own unit) is not judged.
	MinVolume float64
	// MinHistory: periods of history a period needs before it is judged
	// (0: what the detector needs to measure the spread).
	MinHistory int
	// FillZero: a complete period missing after the first present one is
	// a zero (counts and sums); otherwise it is left out (averages,
	// ratios).
	FillZero bool
}

// Point is the value of one period, keyed by the period's first day.
type Point struct {
	Start time.Time
	Value float64
}

// Reading is the judgement of one complete period.
type Reading struct {
	Start, End time.Time // the period: [Start, End)
	Value      float64
	// Baseline is the value expected from the history before the period;
	// Judged is false when the period could not be judged (NotJudged).
	Baseline float64
	Judged   bool
	// NotJudged says why a period was not judged: too little history, too
	// little volume, a baseline of 0 (a change from nothing has no size)
	// or, for the z-score, a history that never moved (a spread of 0).
	NotJudged string `json:",omitempty"`
	// Change is Value/Baseline - 1; Score is the detector's measure of
	// it: the z-score, or the change itself.
	Change, Score float64
	Anomalous     bool
	// Low and High bound the values the detector judges normal for the
	// period: the baseline and the band its threshold allows around it
	// (a value at or beyond either is anomalous). A side the monitor's
	// direction does not watch is an infinity. Set when Judged.
	Low, High float64
	// Method says how the baseline was made: "same week of year, 2
	// years" or "rolling 8 weeks".
	Method string
}

// season is how a grain's baseline is made.
type season struct {
	window  int    // periods in the rolling level
	length  int    // periods in a season
	lags    int    // seasons looked back at most
	spread  int    // past changes the z-score's spread is read from
	name    string // "same week of year"
	unit    string // "week"
	minLive int    // changes needed before judging
}

func seasonOf(g semantic.Grain) (season, error) {
	switch g {
	case semantic.GrainDay:
		return season{window: 28, length: 7, lags: 8, spread: 56, name: "same weekday", unit: "day", minLive: 14}, nil
	case semantic.GrainWeek:
		return season{window: 8, length: 52, lags: 3, spread: 52, name: "same week of year", unit: "week", minLive: 12}, nil
	case semantic.GrainMonth:
		return season{window: 3, length: 12, lags: 3, spread: 24, name: "same month of year", unit: "month", minLive: 6}, nil
	}
	return season{}, quarry.Errorf(quarry.KindInput, "a monitor's grain is day, week or month, not %q", g)
}

// PeriodEnd is the first day after the period that starts on start.
func PeriodEnd(start time.Time, g semantic.Grain) time.Time { return g.End(start) }

// PeriodStart is the first day of the period holding t: the day, the
// Monday of its week, the first of its month.
func PeriodStart(t time.Time, g semantic.Grain) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch g {
	case semantic.GrainWeek:
		return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case semantic.GrainMonth:
		return d.AddDate(0, 0, 1-d.Day())
	}
	return d
}

// maxRun is how many anomalous periods in a row the baseline leaves out
// before it takes the new values as the series' level.
const maxRun = 3

// Judge reads every complete period of a series in order and judges each
// against the baseline its history gives. Only periods that end on or
// before asOf's day (in asOf's own location) are complete; later ones are
// left out. Where history
// allows, the baseline of a period is the same period of earlier seasons
// (the same week or month of up to three earlier years; the same weekday
// of up to eight earlier weeks, for days), each scaled by the growth
// since (the rolling window before the period, 8 weeks, 28 days or 3
// months, against the same window before the earlier one), and the
// median of those; without that history, the median of the rolling
// window. Anomalous periods are replaced by their baseline in the
// history the rolling level reads, for up to three in a row, after which
// the series is taken to have moved; and in the history the seasonal
// factor reads when they were judged against earlier seasons (one judged
// against the rolling level alone may be the season itself).
func Judge(points []Point, cfg Config, asOf time.Time) ([]Reading, error) {
	s, err := seasonOf(cfg.Grain)
	if err != nil {
		return nil, err
	}
	if cfg.Threshold <= 0 {
		cfg.Threshold, _ = Threshold(cfg.Detector, DefaultSensitivity)
	}
	pts := complete(points, cfg, PeriodStart(asOf, semantic.GrainDay))
	n := len(pts)
	out := make([]Reading, n)
	clean := make([]float64, n)  // the history the rolling level reads
	season := make([]float64, n) // the history the seasonal factor reads
	var changes []float64        // relative changes of judged, normal periods
	run := 0
	for t, p := range pts {
		out[t] = Reading{Start: p.Start, End: PeriodEnd(p.Start, cfg.Grain), Value: p.Value}
		clean[t], season[t] = p.Value, p.Value
		if t < s.window {
			out[t].NotJudged = "too little history"
			continue
		}
		// The same period of earlier seasons, each scaled by how the
		// rolling window before now compares with the same window before
		// it: growth, without the lag of a rolling level through a
		// seasonal turn.
		recent := sum(clean[t-s.window : t])
		var guesses []float64
		for k := 1; k <= s.lags; k++ {
			j := t - k*s.length
			if j < s.window {
				break
			}
			if then := sum(season[j-s.window : j]); then > 0 && recent > 0 {
				guesses = append(guesses, smooth(season, j)*recent/then)
			}
		}
		years := len(guesses)
		baseline := median(clean[t-s.window : t])
		if years > 0 {
			baseline = median(guesses)
		}
		r := &out[t]
		r.Baseline = baseline
		r.Method = method(s, years)
		r.Change = relChange(p.Value, r.Baseline)
		if r.Baseline == 0 {
			// No percent change and no z-score from nothing: a made-up
			// score (2 against 0 "rose 1000%") is worse than none. Nor
			// is it a change the spread should learn from.
			r.NotJudged = "its baseline is 0, so a change from it has no size"
			continue
		}
		if len(changes) < s.minLive || t < cfg.MinHistory {
			r.NotJudged = "too little history"
			changes = append(changes, r.Change)
			continue
		}
		if math.Max(math.Abs(p.Value), math.Abs(r.Baseline)) < cfg.MinVolume {
			r.NotJudged = fmt.Sprintf("the value and its baseline are below min_volume (%g)", cfg.MinVolume)
			continue
		}
		spreadOf := changes
		if len(spreadOf) > s.spread {
			spreadOf = spreadOf[len(spreadOf)-s.spread:]
		}
		spread := 1.4826 * mad(spreadOf)
		scale := math.Max(spread, 0.01)
		switch cfg.Detector {
		case PercentChange:
			r.Score = r.Change
			scale = 1
		default:
			if spread == 0 {
				// A series that has not moved has no spread to divide
				// by: any change would score without bound.
				r.NotJudged = "the series has not moved in its history (a spread of 0), so a z-score has no size; percent_change judges such a series"
				changes = append(changes, r.Change)
				continue
			}
			r.Score = r.Change / scale
		}
		r.Judged = true
		r.Anomalous = exceeds(r.Score, cfg.Threshold, cfg.Direction)
		r.Low, r.High = band(r.Baseline, cfg.Threshold*scale, cfg.Direction)
		if r.Anomalous && years > 0 {
			// Judged against the same period of earlier seasons, an
			// anomaly is no part of the season. Judged against the
			// rolling level alone, it may be the season itself (the
			// first year-end peak), so later years learn from it.
			season[t] = r.Baseline
		}
		if r.Anomalous && run < maxRun {
			run++
			clean[t] = r.Baseline
			continue
		}
		if !r.Anomalous {
			run = 0
		}
		changes = append(changes, r.Change)
	}
	return out, nil
}

func method(s season, years int) string {
	if years == 0 {
		return fmt.Sprintf("rolling %d %ss", s.window, s.unit)
	}
	what := "year"
	if s.unit == "day" {
		what = "week"
	}
	if years > 1 {
		what += "s"
	}
	return fmt.Sprintf("%s, %d %s, times rolling %d %ss", s.name, years, what, s.window, s.unit)
}

// band is the range of values whose change from base stays within
// width (a fraction of base) in the watched direction: what the
// detector's threshold allows. The change of a value from a zero
// baseline is always the bound of relChange, so a zero baseline allows
// only zero unless the width reaches that bound.
func band(base, width float64, d Direction) (low, high float64) {
	low, high = math.Inf(-1), math.Inf(1)
	if width < 10 {
		dev := width * math.Abs(base)
		if d != Up {
			low = base - dev
		}
		if d != Down {
			high = base + dev
		}
	}
	return low, high
}

func exceeds(score, threshold float64, d Direction) bool {
	switch d {
	case Up:
		return score >= threshold
	case Down:
		return score <= -threshold
	}
	return math.Abs(score) >= threshold
}

// relChange is v/base - 1, bounded so that a change from nothing stays a
// number.
func relChange(v, base float64) float64 {
	switch {
	case base == 0 && v == 0:
		return 0
	case base == 0:
		return math.Copysign(10, v)
	}
	return math.Max(-10, math.Min(10, (v-base)/math.Abs(base)))
}

// complete sorts the points, drops those of periods that end after asOf,
// and, when cfg says so, fills with zeros the periods missing between
// them and the complete periods after the last one.
func complete(points []Point, cfg Config, asOf time.Time) []Point {
	pts := make([]Point, 0, len(points))
	for _, p := range points {
		if !PeriodEnd(p.Start, cfg.Grain).After(asOf) {
			pts = append(pts, p)
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Start.Before(pts[j].Start) })
	if !cfg.FillZero || len(pts) == 0 {
		return pts
	}
	filled := []Point{pts[0]}
	for _, p := range pts[1:] {
		for next := PeriodEnd(filled[len(filled)-1].Start, cfg.Grain); next.Before(p.Start); next = PeriodEnd(next, cfg.Grain) {
			filled = append(filled, Point{Start: next})
		}
		if p.Start.Equal(filled[len(filled)-1].Start) {
			filled[len(filled)-1].Value += p.Value
			continue
		}
		filled = append(filled, p)
	}
	// Complete periods after the last row had nothing: when rows stop
	// coming, that is what a monitor is for.
	for next := PeriodEnd(filled[len(filled)-1].Start, cfg.Grain); !PeriodEnd(next, cfg.Grain).After(asOf); next = PeriodEnd(next, cfg.Grain) {
		filled = append(filled, Point{Start: next})
	}
	return filled
}

// smooth is xs[j] weighed 2 to 1 against each neighbour (one only at
// the end of the history): an earlier season's period is read with some
// of its neighbours, which steadies a noisy series and a calendar that
// moves by a day a year, and still keeps most of a one-period peak.
func smooth(xs []float64, j int) float64 {
	if j+1 >= len(xs) || j == 0 {
		return xs[j]
	}
	return (xs[j-1] + 2*xs[j] + xs[j+1]) / 4
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// mad is the median absolute deviation from the median.
func mad(xs []float64) float64 {
	m := median(xs)
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - m)
	}
	return median(d)
}
