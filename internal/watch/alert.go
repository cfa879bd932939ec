package watch

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// The kinds of alert.
const (
	// KindAlert opens an incident: the first anomalous period.
	KindAlert = "alert"
	// KindRecovery closes it: the first normal period after it.
	KindRecovery = "recovery"
)

// Alert is one notice about a monitor: an incident began, or ended.
type Alert struct {
	Monitor string `json:"monitor"`
	Kind    string `json:"kind"`              // KindAlert or KindRecovery
	Segment string `json:"segment,omitempty"` // "channel=web"; empty for the whole
	// PeriodStart and PeriodEnd are the first and last day of the period
	// (ISO dates, both included).
	PeriodStart string  `json:"period_start"`
	PeriodEnd   string  `json:"period_end"`
	Value       float64 `json:"value"`
	Baseline    float64 `json:"baseline"`
	Change      float64 `json:"change"` // value / baseline - 1
	Score       float64 `json:"score"`  // the detector's measure (z, or the change)
	Detector    string  `json:"detector"`
	Threshold   float64 `json:"threshold"`
	Direction   string  `json:"direction"` // "up" or "down"
	Method      string  `json:"baseline_method"`
	// IncidentStart is the first day of the incident's first period.
	IncidentStart string   `json:"incident_start"`
	Message       string   `json:"message"`
	Notify        []string `json:"notify,omitempty"`
	// Run is the recorded run that read the series the alert was judged
	// on (set when the runner tells of it).
	Run string `json:"run,omitempty"`
	// Investigation, when an alert was investigated: the segments that
	// moved most between the period and its baseline period.
	Investigation *Investigation `json:"investigation,omitempty"`
}

// Incidents turns a segment's readings into notices: an alert at the
// first anomalous period of an incident, nothing while it lasts (the same
// direction, period after period), and a recovery at the first period
// after it whose value is back in the range the baseline allowed when the
// incident began. After a few anomalous periods the baseline takes the
// new values as the series' level, so a period judged normal against it
// is no recovery by itself: a count that fell to 0 and stays there, or to
// half and stays there, has not recovered. A period back in that range
// recovers even when the drifted baseline calls it anomalous the other
// way, and such periods open no incident of their own until one is
// judged normal. A period that was not judged (too little history or
// volume, a baseline of 0) neither opens nor closes an incident. A change
// of direction while an incident is open opens a new one.
func Incidents(m Monitor, segment string, rs []Reading) []Alert {
	var out []Alert
	open, dir, since := false, "", ""
	var start Reading   // the incident's first period
	var settle *Reading // the band of the incident just recovered from
	for _, r := range rs {
		if !r.Judged {
			continue
		}
		back := open && backIn(r.Value, start)
		if !r.Anomalous || back {
			if open && back {
				out = append(out, notice(m, segment, r, KindRecovery, dir, since))
				open = false
				if r.Anomalous {
					s := start
					settle = &s
				}
			}
			if !r.Anomalous {
				settle = nil
			}
			continue
		}
		d := "up"
		if r.Score < 0 {
			d = "down"
		}
		if settle != nil && backIn(r.Value, *settle) {
			continue // the baseline still learning the old level again
		}
		settle = nil
		if open && d == dir {
			continue
		}
		open, dir, since, start = true, d, r.Start.Format(time.DateOnly), r
		out = append(out, notice(m, segment, r, KindAlert, d, since))
	}
	return out
}

// backIn reports whether v is in the range the baseline of the
// incident's first period allowed (a zero that began it is never back).
func backIn(v float64, start Reading) bool {
	if start.Value == 0 && v == 0 {
		return false
	}
	return v > start.Low && v < start.High
}

func notice(m Monitor, segment string, r Reading, kind, dir, since string) Alert {
	a := Alert{
		Monitor: m.Name, Kind: kind, Segment: segment,
		PeriodStart: r.Start.Format(time.DateOnly), PeriodEnd: r.End.AddDate(0, 0, -1).Format(time.DateOnly),
		Value: r.Value, Baseline: round(r.Baseline), Change: round(r.Change), Score: round(r.Score),
		Detector: string(detectorOr(m.Detector)), Threshold: m.Threshold, Direction: dir, Method: r.Method,
		IncidentStart: since, Notify: m.Notify,
	}
	a.Message = message(m, a)
	return a
}

func detectorOr(d Detector) Detector {
	if d == "" {
		return ZScore
	}
	return d
}

// round keeps six significant digits, so that the JSON reads cleanly.
func round(f float64) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return v
}

func message(m Monitor, a Alert) string {
	what := m.Metric
	if what == "" {
		what = m.Name
	}
	if a.Segment != "" {
		what += " (" + a.Segment + ")"
	}
	period := fmt.Sprintf("in the %s of %s", m.Grain, a.PeriodStart)
	if m.Grain == "day" {
		period = "on " + a.PeriodStart
	}
	if a.Kind == KindRecovery {
		// "returned to the", not "is back within its": a metric's name is often a plural.
		return fmt.Sprintf("%s returned to the expected range %s: %s against a baseline of %s (the incident began %s)",
			what, period, num(a.Value), num(a.Baseline), a.IncidentStart)
	}
	verb := "rose"
	if a.Direction == "down" {
		verb = "fell"
	}
	score := fmt.Sprintf("z = %.1f, threshold %g", a.Score, a.Threshold)
	if a.Detector == string(PercentChange) {
		score = fmt.Sprintf("threshold %.0f%%", a.Threshold*100)
	}
	return fmt.Sprintf("%s %s %.0f%% %s: %s against a baseline of %s (%s; baseline: %s)",
		what, verb, math.Abs(a.Change)*100, period, num(a.Value), num(a.Baseline), score, a.Method)
}

// num writes a figure with up to four significant digits, whole numbers
// as they are.
func num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	if math.Abs(f) >= 100 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}
