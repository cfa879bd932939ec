package watch

import (
	"encoding/csv"
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
