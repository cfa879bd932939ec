package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
)

// The Monitors page's endpoints (docs/api.md): the monitors with their
// status and latest judged period, one monitor's recent periods with the
// baseline and the band its detector allows, the alerts kept for it with
// their investigations, muting, and "test now". Every figure comes from
// the runtime's check of the series (the same read and the same Judge as
// `quarry watch test`); nothing here judges anything.

// Bounds of ?periods=.
const (
	sparkPeriods  = 26  // GET /api/monitors: the sparkline's periods
	seriesPeriods = 52  // GET /api/monitors/{name}/series
	maxPeriods    = 520 // ten years of weeks
	// MaxMuteDays is the longest a monitor is muted for at once (POST
	// .../mute's days, quarry watch mute --for): ten years.
	MaxMuteDays = 3660
)

// muteRequest is the body of POST /api/monitors/{name}/mute: one of
// until (the last muted day), days (from today) or off.
type muteRequest struct {
	Until string `json:"until,omitempty"`
	Days  *int   `json:"days,omitempty"`
	Off   *bool  `json:"off,omitempty"`
}

// testRequest is the body of POST /api/monitors/{name}/test.
type testRequest struct {
	AsOf string `json:"as_of,omitempty"`
}

// testJSON is what "test now" answers, as `quarry watch test --json`:
// each segment's latest complete period.
type testJSON struct {
	Monitor   string         `json:"monitor"`
	AsOf      string         `json:"as_of"`
	Runs      []string       `json:"runs"`
	Detector  watch.Detector `json:"detector"`
	Threshold float64        `json:"threshold"`
	Segments  []pointJSON    `json:"segments"`
}

// monitorsOf returns the server's monitors, or answers 404 when it has
// none.
func (s *Server) monitorsOf(w http.ResponseWriter) Monitors {
	if s.cfg.Monitors == nil {
		writeError(w, quarry.Errorf(quarry.KindNotFound, "this server has no monitors"))
	}
	return s.cfg.Monitors
}

// judgeDay reads as_of, the last day whose periods count as complete,
// as `quarry watch test --as-of` does: periods are judged as on the day
// after it. Without it, as on today (the server's clock). It returns
// that day and as_of as answered. A day after today is refused: its
// periods have not happened.
func (s *Server) judgeDay(day string) (time.Time, string, error) {
	now := s.cfg.Clock()
	if day == "" {
		return now, now.AddDate(0, 0, -1).Format(time.DateOnly), nil
	}
	t, err := s.asOf(day)
	if err != nil {
		return time.Time{}, "", err
	}
	if today := now.Format(time.DateOnly); t.Format(time.DateOnly) > today {
		return time.Time{}, "", errf("as_of %s is after today (%s): its periods have not happened yet; give a day up to today", day, today)
	}
	return t.AddDate(0, 0, 1), day, nil
}

// periodsParam reads ?periods=, def when absent.
func periodsParam(r *http.Request, def int) (int, error) {
	p := r.URL.Query().Get("periods")
	if p == "" {
		return def, nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > maxPeriods {
		return 0, errf("periods %q is not a number from 1 to %d", p, maxPeriods)
	}
	return n, nil
}

// listMonitors answers every monitor with its status, its latest judged
// period and a sparkline of its recent periods. Each monitor's series is
// read (a recorded run each, in one run slot); one that cannot be read
// is failing, with why.
func (s *Server) listMonitors(w http.ResponseWriter, r *http.Request) {
	mons := s.monitorsOf(w)
	if mons == nil {
		return
	}
	judge, asOf, err := s.judgeDay(r.URL.Query().Get("as_of"))
	if err != nil {
		writeError(w, err)
		return
	}
	n, err := periodsParam(r, sparkPeriods)
	if err != nil {
		writeError(w, err)
		return
	}
	out := []monitorJSON{}
	ran := s.inSlot(w, r, func(ctx context.Context) {
		var ms []watch.Monitor
		var st watch.State
		if ms, st, err = mons.List(ctx); err != nil {
			return
		}
		for _, m := range ms {
			v := viewOf(m, st, s.cfg.Clock())
			v.AsOf = asOf
			c, cerr := mons.Check(ctx, m, judge)
			if best := judged(&v, c, cerr); best >= 0 {
				sp := segmentOf(c.Segments[best], n)
				v.Spark = &sp
			}
			out = append(out, v)
		}
	})
	if !ran {
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"as_of": asOf, "monitors": out})
}

// monitorNamed finds the monitor of the request's {name}, or answers 404.
func (s *Server) monitorNamed(ctx context.Context, w http.ResponseWriter, r *http.Request, mons Monitors) (watch.Monitor, watch.State, bool) {
	ms, st, err := mons.List(ctx)
	if err != nil {
		writeError(w, err)
		return watch.Monitor{}, st, false
	}
	name := r.PathValue("name")
	for _, m := range ms {
		if m.Name == name {
			return m, st, true
		}
	}
	writeError(w, quarry.Errorf(quarry.KindNotFound, "no monitor %q; GET /api/monitors lists them", name))
	return watch.Monitor{}, st, false
}

// checkNamed judges the monitor the path names as of day (as_of; "" for
// the clock's yesterday) in a run slot, as `quarry watch test` does. When
// it says false it has written the error.
func (s *Server) checkNamed(w http.ResponseWriter, r *http.Request, mons Monitors, day string) (watch.Monitor, watch.State, *watch.Checked, string, bool) {
	judge, asOf, err := s.judgeDay(day)
	if err != nil {
		writeError(w, err)
		return watch.Monitor{}, watch.State{}, nil, "", false
	}
	m, st, ok := s.monitorNamed(r.Context(), w, r, mons)
	if !ok {
		return watch.Monitor{}, watch.State{}, nil, "", false
	}
	var c *watch.Checked
	if !s.inSlot(w, r, func(ctx context.Context) { c, err = mons.Check(ctx, m, judge) }) {
		return watch.Monitor{}, watch.State{}, nil, "", false
	}
	if err != nil {
		writeError(w, err)
		return watch.Monitor{}, watch.State{}, nil, "", false
	}
	return m, st, c, asOf, true
}

// monitorSeries answers one monitor's recent complete periods, every
// segment's, each with its value, baseline and band, and the notices of
// its incidents among them. A series that cannot be read (the guard, the
// column policy, the database) is the error, with nothing of the data.
func (s *Server) monitorSeries(w http.ResponseWriter, r *http.Request) {
	mons := s.monitorsOf(w)
	if mons == nil {
		return
	}
	n, err := periodsParam(r, seriesPeriods)
	if err != nil {
		writeError(w, err)
		return
	}
	m, st, c, asOf, ok := s.checkNamed(w, r, mons, r.URL.Query().Get("as_of"))
	if !ok {
		return
	}
	out := seriesJSON{Monitor: viewOf(m, st, s.cfg.Clock()), Segments: []segmentJSON{}}
	out.Monitor.AsOf = asOf
	judged(&out.Monitor, c, nil)
	for _, seg := range c.Segments {
		out.Segments = append(out.Segments, segmentOf(seg, n))
	}
	writeJSON(w, http.StatusOK, out)
}

// Pages of kept alerts: how many by default, and at most.
const (
	alertsLimit    = 50
	alertsLimitMax = 500
)

// alertsPage reads ?limit= and ?before= of GET .../alerts.
func alertsPage(r *http.Request) (AlertsPage, error) {
	p := AlertsPage{Limit: alertsLimit}
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > alertsLimitMax {
			return p, errf("limit %q: give a number of alerts from 1 to %d", v, alertsLimitMax)
		}
		p.Limit = n
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, errf("before %q: give the next_before of the previous page (a number of at least 1)", v)
		}
		p.Before = n
	}
	return p, nil
}

// monitorAlerts answers a page of the alerts kept for a monitor, newest
// first, with their investigations, as the column policy of now shows
// them, and next_before when older ones remain.
func (s *Server) monitorAlerts(w http.ResponseWriter, r *http.Request) {
	mons := s.monitorsOf(w)
	if mons == nil {
		return
	}
	m, _, ok := s.monitorNamed(r.Context(), w, r, mons)
	if !ok {
		return
	}
	page, err := alertsPage(r)
	if err != nil {
		writeError(w, err)
		return
	}
	as, more, err := mons.Alerts(r.Context(), m.Name, page)
	if err != nil {
		writeError(w, err)
		return
	}
	if as == nil {
		as = []KeptAlert{}
	}
	out := map[string]any{"monitor": m.Name, "alerts": as}
	if more && len(as) > 0 {
		out["next_before"] = as[len(as)-1].Seq
	}
	writeJSON(w, http.StatusOK, out)
}

// muteMonitor mutes a monitor up to a day, for some days from today, or
// unmutes it, as `quarry watch mute` does, and answers it as read back.
func (s *Server) muteMonitor(w http.ResponseWriter, r *http.Request) {
	mons := s.monitorsOf(w)
	if mons == nil {
		return
	}
	var req muteRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	var given []string
	if req.Until != "" {
		given = append(given, `"until"`)
	}
	if req.Days != nil {
		given = append(given, `"days"`)
	}
	if req.Off != nil {
		given = append(given, `"off"`)
	}
	switch {
	case len(given) == 0:
		writeError(w, errf(`say how long, with one of "until" (YYYY-MM-DD), "days" or "off"`))
		return
	case len(given) > 1:
		writeError(w, errf("give one of %s, not both", strings.Join(given, " and ")))
		return
	case req.Off != nil && !*req.Off:
		writeError(w, errf(`"off" unmutes, so it can only be true; to mute, give "until" or "days"`))
		return
	}
	today := s.cfg.Clock()
	until := ""
	switch {
	case req.Until != "":
		t, err := time.Parse(time.DateOnly, req.Until)
		if err != nil {
			writeError(w, errf("until %q is not a date; write it as YYYY-MM-DD", req.Until))
			return
		}
		if req.Until < today.Format(time.DateOnly) {
			writeError(w, errf("until %s is in the past; give today or a later day", req.Until))
			return
		}
		until = t.Format(time.DateOnly)
	case req.Days != nil:
		if *req.Days < 1 || *req.Days > MaxMuteDays {
			writeError(w, errf("days is %d; mute for 1 to %d days", *req.Days, MaxMuteDays))
			return
		}
		until = today.AddDate(0, 0, *req.Days).Format(time.DateOnly)
	}
	m, st, ok := s.monitorNamed(r.Context(), w, r, mons)
	if !ok {
		return
	}
	m, err := mons.Mute(r.Context(), m.Name, until)
	if err != nil {
		writeError(w, err)
		return
	}
	v := viewOf(m, st, today)
	if v.Muted {
		v.Status = statusMuted
	}
	writeJSON(w, http.StatusOK, v)
}

// testMonitor judges a monitor's latest complete period now, as `quarry
// watch test` does: read through the guard and recorded, told to no one
// and remembered nowhere.
func (s *Server) testMonitor(w http.ResponseWriter, r *http.Request) {
	mons := s.monitorsOf(w)
	if mons == nil {
		return
	}
	var req testRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	m, _, c, asOf, ok := s.checkNamed(w, r, mons, req.AsOf)
	if !ok {
		return
	}
	out := testJSON{Monitor: m.Name, AsOf: asOf, Runs: c.Runs, Detector: m.Detector, Threshold: m.Threshold, Segments: []pointJSON{}}
	if out.Runs == nil {
		out.Runs = []string{}
	}
	for _, seg := range c.Segments {
		if seg.Latest != nil {
			out.Segments = append(out.Segments, pointOf(seg.Segment, *seg.Latest))
		}
	}
	writeJSON(w, http.StatusOK, out)
}
