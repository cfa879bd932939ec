package watch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/semantic"
)

// The detection benchmark: synthetic series with trend, seasonality and
// noise, with one planted anomaly each (or none), judged by every
// detector at every sensitivity. Recall is the share of planted anomalies
// an alert opened on (spikes and dips: in their period; level shifts:
// within 2 periods of the start; trend changes: within 10); false alarms
// are the alerts that no planted anomaly explains, per 1,000 judged
// periods. The figures are in testdata/benchmark.golden and docs/watch.md;
// go test ./internal/watch -run TestDetectionBenchmark -update rewrites
// the golden file when a change to the detectors is intended.

// anomaly is a kind of planted anomaly.
type anomaly string

const (
	none       anomaly = "none"
	spike      anomaly = "spike"
	dip        anomaly = "dip"
	levelShift anomaly = "level shift"
	trendBreak anomaly = "trend change"
)

// window is how many periods after the planted one an alert still counts.
func (a anomaly) window() int {
	switch a {
	case levelShift:
		return 2
	case trendBreak:
		return 10
	}
	return 0
}

// synthetic is one generated series and where its anomaly is.
type synthetic struct {
	points []Point
	kind   anomaly
	at     int // the first anomalous period; -1 for none
	grain  semantic.Grain
}

// shape says how a family of series looks.
type shape struct {
	name     string
	grain    semantic.Grain
	n        int     // periods
	noise    float64 // relative noise (standard deviation)
	seasonal bool    // a yearly (weekly, for days) pattern
}

func shapes() []shape {
	return []shape{
		{"weekly, calm, seasonal", semantic.GrainWeek, 156, 0.03, true},
		{"weekly, noisy, seasonal", semantic.GrainWeek, 156, 0.10, true},
		{"weekly, flat", semantic.GrainWeek, 156, 0.05, false},
		{"daily, weekday pattern", semantic.GrainDay, 730, 0.08, true},
		{"monthly, seasonal", semantic.GrainMonth, 60, 0.04, true},
	}
}

// seasonalFactor is the season's multiplier for period i: a year-end peak
// (weeks 44–51 of each year at 1.45, the first weeks of the year at
// 0.8) and a gentle wave for weekly and monthly series; weekends at 1.3
// for daily series.
func seasonalFactor(s shape, start time.Time, i int) float64 {
	if !s.seasonal {
		return 1
	}
	switch s.grain {
	case semantic.GrainDay:
		if wd := start.AddDate(0, 0, i).Weekday(); wd == time.Saturday || wd == time.Sunday {
			return 1.3
		}
		return 1
	case semantic.GrainMonth:
		m := (i % 12) + 1
		f := 1 + 0.1*math.Sin(2*math.Pi*float64(m)/12)
		switch {
		case m >= 11:
			f *= 1.45
		case m == 1:
			f *= 0.8
		}
		return f
	}
	w := i % 52
	f := 1 + 0.1*math.Sin(2*math.Pi*float64(w)/52)
	switch {
	case w >= 44:
		f *= 1.45
	case w < 2:
		f *= 0.8
	}
	return f
}

// generate makes one series of shape s with anomaly kind planted after
// the first season of history, when the detectors have one to compare
// with.
func generate(r *rand.Rand, s shape, kind anomaly) synthetic {
	start := time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC) // a Monday
	step := func(i int) time.Time {
		switch s.grain {
		case semantic.GrainDay:
			return start.AddDate(0, 0, i)
		case semantic.GrainMonth:
			return time.Date(2023, time.Month(1+i), 1, 0, 0, 0, 0, time.UTC)
		}
		return start.AddDate(0, 0, 7*i)
	}
	season := map[semantic.Grain]int{semantic.GrainDay: 28, semantic.GrainWeek: 52, semantic.GrainMonth: 12}[s.grain]
	at := -1
	if kind != none {
		at = season + 8 + r.IntN(s.n-season-20)
	}
	size := 0.3 + 0.5*r.Float64()      // spikes and dips: 30% to 80%
	shift := 0.25 + 0.25*r.Float64()   // level shifts: 25% to 50%
	slope := (0.03 + 0.03*r.Float64()) // trend changes: 3% to 6% a period
	growth := 0.3 * r.Float64() / 52   // up to 30% a year
	if s.grain == semantic.GrainDay {
		growth /= 7
	} else if s.grain == semantic.GrainMonth {
		growth *= 52.0 / 12
	}
	if r.IntN(2) == 0 {
		shift = -shift
	}
	out := synthetic{kind: kind, at: at, grain: s.grain}
	for i := range s.n {
		v := 1000 * (1 + growth*float64(i)) * seasonalFactor(s, start, i)
		if at >= 0 && i >= at {
			switch kind {
			case spike:
				if i == at {
					v *= 1 + size
				}
			case dip:
				if i == at {
					v *= 1 - size
				}
			case levelShift:
				v *= 1 + shift
			case trendBreak:
				v *= 1 + slope*float64(i-at+1)
			}
		}
		v *= 1 + s.noise*r.NormFloat64()
		out.points = append(out.points, Point{Start: step(i), Value: math.Max(0, math.Round(v))})
	}
	return out
}

// score is the tally of one detector at one sensitivity.
type score struct {
	found, planted map[anomaly]int
	falseAlarms    int
	// rollingAlarms are the false alarms judged against the rolling
	// window alone, before the series had a season of history.
	rollingAlarms int
	judged        int
}

func (sc *score) add(syn synthetic, d Detector, sens string) {
	th, _ := Threshold(d, sens)
	m := Monitor{Name: "bench", Metric: "m", Grain: syn.grain, Detector: d, Threshold: th}
	end := PeriodEnd(syn.points[len(syn.points)-1].Start, syn.grain)
	rs, err := Judge(syn.points, m.Config(true), end)
	if err != nil {
		panic(err)
	}
	index := map[string]int{}
	for i, r := range rs {
		index[r.Start.Format(time.DateOnly)] = i
		if r.Judged {
			sc.judged++
		}
	}
	if syn.kind != none {
		sc.planted[syn.kind]++
	}
	found := false
	for _, a := range Incidents(m, "", rs) {
		if a.Kind != KindAlert {
			continue
		}
		i := index[a.PeriodStart]
		if syn.at >= 0 && i >= syn.at && i <= syn.at+syn.kind.window() {
			found = true
			continue
		}
		if syn.kind == levelShift || syn.kind == trendBreak {
			// The series moved for good: alerts while the baseline
			// catches up are the same incident, not false alarms.
			if i > syn.at && syn.at >= 0 {
				continue
			}
		}
		sc.falseAlarms++
		if strings.HasPrefix(a.Method, "rolling") {
			sc.rollingAlarms++
		}
	}
	if found {
		sc.found[syn.kind]++
	}
}

// benchmark runs every detector at every sensitivity over the same
// series and returns the report.
func benchmark() string {
	r := rand.New(rand.NewPCG(18, 2026))
	kinds := []anomaly{none, spike, dip, levelShift, trendBreak}
	const perKind = 40
	var series []synthetic
	for _, s := range shapes() {
		for _, k := range kinds {
			for range perKind {
				series = append(series, generate(r, s, k))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d series: %d shapes x %d kinds x %d (see bench_test.go)\n\n", len(series), len(shapes()), len(kinds), perKind)
	header := func(first string) {
		fmt.Fprintf(&b, "| %s | spike | dip | level shift | trend change | all | false alarms per 1,000 periods | of which before a season of history |\n", first)
		fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	}
	row := func(label string, sc *score) {
		line := "| " + label + " |"
		var found, planted int
		for _, k := range kinds[1:] {
			line += fmt.Sprintf(" %.0f%% |", 100*float64(sc.found[k])/float64(sc.planted[k]))
			found += sc.found[k]
			planted += sc.planted[k]
		}
		line += fmt.Sprintf(" %.0f%% | %.1f | %.1f |", 100*float64(found)/float64(planted),
			1000*float64(sc.falseAlarms)/float64(sc.judged), 1000*float64(sc.rollingAlarms)/float64(sc.judged))
		b.WriteString(line + "\n")
	}
	newScore := func() *score { return &score{found: map[anomaly]int{}, planted: map[anomaly]int{}} }
	header("detector, sensitivity (threshold)")
	for _, d := range Detectors() {
		for _, sens := range Sensitivities() {
			sc := newScore()
			for _, syn := range series {
				sc.add(syn, d, sens)
			}
			th, _ := Threshold(d, sens)
			row(fmt.Sprintf("%s, %s (%g)", d, sens, th), sc)
		}
	}
	fmt.Fprintf(&b, "\nThe default (%s, %s) by shape:\n\n", ZScore, DefaultSensitivity)
	header("shape")
	per := len(kinds) * perKind
	for i, s := range shapes() {
		sc := newScore()
		for _, syn := range series[i*per : (i+1)*per] {
			sc.add(syn, ZScore, DefaultSensitivity)
		}
		row(fmt.Sprintf("%s (noise %.0f%%)", s.name, 100*s.noise), sc)
	}
	return b.String()
}

func TestDetectionBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("the detection benchmark judges 1,000 series")
	}
	if raceEnabled {
		// Judging is pure and one goroutine; under the race detector the
		// 1,000 series take minutes.
		t.Skip("runs in the plain test pass")
	}
	got := benchmark()
	t.Log("\n" + got)
	goldentest.AssertString(t, "testdata/benchmark.golden", got)
}

// BenchmarkJudge measures judging three years of weekly history.
func BenchmarkJudge(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	syn := generate(r, shapes()[0], dip)
	cfg := Config{Grain: semantic.GrainWeek, Threshold: 4, FillZero: true}
	end := PeriodEnd(syn.points[len(syn.points)-1].Start, syn.grain)
	for b.Loop() {
		if _, err := Judge(syn.points, cfg, end); err != nil {
			b.Fatal(err)
		}
	}
}
