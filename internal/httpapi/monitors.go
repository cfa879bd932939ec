package httpapi

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/schedule"
)

// Monitors is what the Monitors page needs from the runtime: the
// knowledge folder's monitors and the runner's memory, a monitor's series
// read and judged as `quarry watch test` reads it, the alerts kept for
// it, and muting.
type Monitors interface {
	// List returns the knowledge folder's monitors and what the runner
	// remembers of them (their last runs).
	List(ctx context.Context) ([]watch.Monitor, watch.State, error)
	// Check reads the monitor's series through the guard, the column
	// policy and the limits of the default connection (a recorded run)
	// and judges its periods complete before asOf, telling no one.
	Check(ctx context.Context, m watch.Monitor, asOf time.Time) (*watch.Checked, error)
	// Alerts returns a page of the alerts kept for the monitor called
	// name, newest first (the reverse of the order kept), as the column
	// policy of now lets them show; more says older ones remain.
	Alerts(ctx context.Context, name string, page AlertsPage) (alerts []KeptAlert, more bool, err error)
	// Mute writes muted_until into the monitor's file (until "": removes
	// it) and returns the monitor as read back.
	Mute(ctx context.Context, name, until string) (watch.Monitor, error)
}

// AlertsPage is a page of a monitor's kept alerts: at most Limit of
// those numbered below Before (0: from the newest).
type AlertsPage struct {
	Before, Limit int
}

// KeptAlert is one line of the alerts file: its number in the file (the
// cursor of the next page), when it was kept, the channels it was for,
// and the alert. Withheld, when set, says why its figures are not shown
// (the column policy).
type KeptAlert struct {
	Seq int      `json:"seq"`
	At  string   `json:"at"`
	To  []string `json:"to"`
	watch.Alert
	Withheld string `json:"withheld,omitempty"`
}

// The monitor's status on the page.
const (
	statusOK       = "ok"
	statusAlerting = "alerting" // its latest complete period is anomalous
	statusMuted    = "muted"
	statusNotRun   = "not_run" // quarry watch run has never run it
	statusFailing  = "failing" // its series cannot be read now
	statusNoData   = "no_data" // no segment has had a row for its latest complete periods
)

// monitorJSON is a monitor as the page shows it: its definition, when
// it runs, and how its latest complete period was judged.
type monitorJSON struct {
	watch.Monitor
	Watches string `json:"watches"`
	// Reads is how the schedule was read ("at 09:00 on Monday").
	Reads   string `json:"reads,omitempty"`
	Muted   bool   `json:"muted"`
	LastRun string `json:"last_run,omitempty"`
	NextRun string `json:"next_run,omitempty"`
	// Status is decided from a check of the series (judged); a monitor
	// answered without one (POST .../mute) has none unless it is muted.
	Status string `json:"status,omitempty"`
	// Problem says why the series cannot be read (status failing).
	Problem string `json:"problem,omitempty"`
	// AsOf is the last day whose periods count as complete.
	AsOf string   `json:"as_of,omitempty"`
	Runs []string `json:"runs,omitempty"`
	// Segments counts the series (1 without dimensions).
	Segments int `json:"segments,omitempty"`
	// Latest is the latest complete period of the segment that matters
	// most now (the most anomalous, else the first).
	Latest *pointJSON `json:"latest,omitempty"`
	// Spark is that segment's recent periods (GET /api/monitors).
	Spark *segmentJSON `json:"spark,omitempty"`
}

// pointJSON is one complete period as judged. Baseline is null before
// the history makes one; Low and High, the band the detector's threshold
// allows around it, are null when the period was not judged or the
// monitor does not watch that side.
type pointJSON struct {
	Segment     string   `json:"segment,omitempty"`
	PeriodStart string   `json:"period_start"`
	PeriodEnd   string   `json:"period_end"` // the last day, included
	Value       float64  `json:"value"`
	Baseline    *float64 `json:"baseline"`
	Low         *float64 `json:"low"`
	High        *float64 `json:"high"`
	Judged      bool     `json:"judged"`
	Anomalous   bool     `json:"anomalous"`
	Change      float64  `json:"change"`
	Score       float64  `json:"score"`
	Method      string   `json:"baseline_method,omitempty"`
}

// segmentJSON is one segment's recent periods and the notices its
// incidents make among them, judged now (told or not).
type segmentJSON struct {
	Segment string        `json:"segment"`
	Points  []pointJSON   `json:"points"`
	Notices []watch.Alert `json:"notices"`
}

// seriesJSON is what GET /api/monitors/{name}/series answers.
type seriesJSON struct {
	Monitor  monitorJSON   `json:"monitor"`
	Segments []segmentJSON `json:"segments"`
}

// viewOf is m's definition, schedule and memory as the page shows them;
// today decides whether it is muted and when it runs next.
func viewOf(m watch.Monitor, st watch.State, today time.Time) monitorJSON {
	v := monitorJSON{Monitor: m, Watches: m.Watches(), Muted: m.Muted(today)}
	last := st.Monitors[m.Name].LastRun
	if !last.IsZero() {
		v.LastRun = last.Format(time.RFC3339)
	}
	if sc, err := schedule.Parse(m.Schedule); err == nil {
		v.Reads = sc.Describe()
		from := today
		if !last.IsZero() {
			from = last
		}
		if n := sc.Next(from); !n.IsZero() {
			v.NextRun = n.Format(time.RFC3339)
		}
	}
	return v
}

// judged fills v from a check of its series (err: why it could not be
// read) and returns the index of the segment that matters most now, or
// -1. The status is, in this order: failing, muted, alerting, not run,
// ok.
func judged(v *monitorJSON, c *watch.Checked, err error) int {
	best := -1
	switch {
	case err != nil:
		v.Status, v.Problem = statusFailing, errorBody(err).Message
		return best
	case c == nil:
		return best
	}
	v.Runs, v.Segments = c.Runs, len(c.Segments)
	for i, s := range c.Segments {
		if s.Latest == nil {
			continue
		}
		if best < 0 || worse(*s.Latest, *c.Segments[best].Latest) {
			best = i
		}
	}
	if best >= 0 {
		p := pointOf(c.Segments[best].Segment, *c.Segments[best].Latest)
		v.Latest = &p
	}
	switch {
	case v.Muted:
		v.Status = statusMuted
	case c.NoData != "":
		// A metric that stopped is not "ok" at zero against a zero.
		v.Status, v.Problem = statusNoData, c.NoData
	case v.Latest != nil && v.Latest.Anomalous:
		v.Status = statusAlerting
	case v.LastRun == "":
		v.Status = statusNotRun
	default:
		v.Status = statusOK
	}
	return best
}

// worse reports whether a is a reading to show before b: anomalous
// first, then the larger score.
func worse(a, b watch.Reading) bool {
	if a.Anomalous != b.Anomalous {
		return a.Anomalous
	}
	return math.Abs(a.Score) > math.Abs(b.Score)
}

// pointOf is a reading as the page draws it.
func pointOf(segment string, r watch.Reading) pointJSON {
	p := pointJSON{
		Segment: segment, PeriodStart: r.Start.Format(time.DateOnly), PeriodEnd: r.End.AddDate(0, 0, -1).Format(time.DateOnly),
		Value: r.Value, Judged: r.Judged, Anomalous: r.Anomalous, Change: round6(r.Change), Score: round6(r.Score), Method: r.Method,
	}
	if r.Method != "" {
		p.Baseline = finite(r.Baseline)
	}
	if r.Judged {
		p.Low, p.High = finite(r.Low), finite(r.High)
	}
	return p
}

// segmentOf is the last n periods of a checked segment and the notices
// its incidents make among them.
func segmentOf(s watch.CheckedSegment, n int) segmentJSON {
	rs := s.Readings
	if len(rs) > n {
		rs = rs[len(rs)-n:]
	}
	out := segmentJSON{Segment: s.Segment, Points: make([]pointJSON, 0, len(rs)), Notices: []watch.Alert{}}
	for _, r := range rs {
		out.Points = append(out.Points, pointOf("", r))
	}
	if len(rs) > 0 {
		first := rs[0].Start.Format(time.DateOnly)
		for _, a := range s.Alerts {
			if a.PeriodStart >= first {
				out.Notices = append(out.Notices, a)
			}
		}
	}
	return out
}

// finite is f rounded, or nil for an infinity (an unbounded side).
func finite(f float64) *float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	f = round6(f)
	return &f
}

// round6 keeps six significant digits, as the alerts do.
func round6(f float64) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 6, 64), 64)
	return v
}
