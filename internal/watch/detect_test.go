package watch

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// readCSV reads testdata's "date,value" rows, taken from the demo
// database (anchor 2026-06-30).
func readCSV(t testing.TB, name string) []Point {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []Point
	for _, r := range recs {
		d, err := time.Parse(time.DateOnly, r[0])
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Point{Start: d, Value: v})
	}
	return out
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func demoAlerts(t *testing.T, file string, g semantic.Grain, d Detector, sens string, fill bool) []Alert {
	t.Helper()
	th, _ := Threshold(d, sens)
	m := Monitor{Name: file, Metric: "m", Grain: g, Detector: d, Threshold: th}
	rs, err := Judge(readCSV(t, file), m.Config(fill), day("2026-07-01"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Alert
	for _, a := range Incidents(m, "", rs) {
		if a.Kind == KindAlert {
			out = append(out, a)
		}
	}
	return out
}

func TestDemoDip(t *testing.T) {
	for _, tt := range []struct {
		file  string
		grain semantic.Grain
		fill  bool
	}{
		{"demo_weekly_orders.csv", semantic.GrainWeek, true},
		{"demo_weekly_conversion.csv", semantic.GrainWeek, false},
	} {
		for _, d := range Detectors() {
			alerts := demoAlerts(t, tt.file, tt.grain, d, DefaultSensitivity, tt.fill)
			var after []Alert
			for _, a := range alerts {
				t.Logf("%s %s: %s", tt.file, d, a.Message)
				if a.PeriodStart >= "2024-07-01" {
					after = append(after, a)
				}
			}
			if len(after) != 1 || after[0].PeriodStart != "2026-04-20" || after[0].Direction != "down" {
				t.Errorf("%s, %s: alerts after the first year %v, want only the dip of the week of 2026-04-20", tt.file, d, after)
			}
		}
	}
}

// TestBandIsTheJudgement: a judged period is anomalous exactly when its
// value reaches the band Judge records, for every detector, sensitivity
// and direction, on the demo's series: the band a chart shades is the
// detector's own.
func TestBandIsTheJudgement(t *testing.T) {
	for _, tt := range []struct {
		file  string
		grain semantic.Grain
		fill  bool
	}{
		{"demo_weekly_orders.csv", semantic.GrainWeek, true},
		{"demo_weekly_conversion.csv", semantic.GrainWeek, false},
		{"demo_daily_orders.csv", semantic.GrainDay, true},
	} {
		for _, d := range Detectors() {
			for _, sens := range Sensitivities() {
				for _, dir := range []Direction{Both, Up, Down} {
					th, _ := Threshold(d, sens)
					cfg := Config{Grain: tt.grain, Detector: d, Threshold: th, Direction: dir, FillZero: tt.fill}
					rs, err := Judge(readCSV(t, tt.file), cfg, day("2026-07-01"))
					if err != nil {
						t.Fatal(err)
					}
					judged, anomalous := 0, 0
					for _, r := range rs {
						if !r.Judged {
							if r.Low != 0 || r.High != 0 {
								t.Errorf("%s %s: an unjudged period has a band", tt.file, r.Start.Format(time.DateOnly))
							}
							continue
						}
						judged++
						if !(r.Low <= r.Baseline && r.Baseline <= r.High) {
							t.Errorf("%s %s %s %s %s: the band [%g, %g] leaves out the baseline %g", tt.file, d, sens, dir, r.Start.Format(time.DateOnly), r.Low, r.High, r.Baseline)
						}
						// Within a part in a million of an edge, rounding decides.
						eps := 1e-6 * math.Max(1, math.Abs(r.Baseline))
						if r.Anomalous && r.Value > r.Low+eps && r.Value < r.High-eps || !r.Anomalous && (r.Value < r.Low-eps || r.Value > r.High+eps) {
							t.Errorf("%s %s %s %s %s: value %g, band [%g, %g], anomalous %v", tt.file, d, sens, dir, r.Start.Format(time.DateOnly), r.Value, r.Low, r.High, r.Anomalous)
						}
						if r.Anomalous {
							anomalous++
						}
					}
					if judged == 0 || anomalous == 0 && dir != Up {
						t.Errorf("%s %s %s %s: %d periods judged, %d anomalous", tt.file, d, sens, dir, judged, anomalous)
					}
				}
			}
		}
	}
}
