package httpapi

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/mdhtml"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/narrate/chart"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// answerJSON is an answer as the API shows it: in done.answer and in a
// session's turns.
type answerJSON struct {
	Markdown string       `json:"markdown"`
	HTML     string       `json:"html"` // rendered on the server and sanitised
	Headline string       `json:"headline"`
	SQL      string       `json:"sql"`
	Columns  []columnJSON `json:"columns"`
	Rows     [][]any      `json:"rows"` // the first rows, at most 100
	// Cells are those rows as the answer's text writes them (narrate's
	// formatting: 2025-01 for a month, $ and the same rounding); rows
	// keeps the raw values, which sorting and the CSV use.
	Cells      [][]string         `json:"cells,omitempty"`
	RowCount   int64              `json:"row_count"`
	Truncated  bool               `json:"truncated"`
	Checks     []verify.Check     `json:"checks"`
	Confidence float64            `json:"confidence"`
	Chart      *narrate.ChartSpec `json:"chart,omitempty"`
	ChartSVG   string             `json:"chart_svg,omitempty"` // the CLI's renderer
	ResultID   string             `json:"result_id,omitempty"`
}

type columnJSON struct {
	Name string      `json:"name"`
	Type quarry.Type `json:"type"`
}

// chart sizes, as the CLI draws them.
const chartWidth, chartHeight = 800, 450

// answerOf shows a finished ask.
func (s *Server) answerOf(out *analyst.AskOutcome) *answerJSON {
	a := &answerJSON{
		Markdown: out.Answer.Markdown, HTML: mdhtml.Render(out.Answer.Markdown), Headline: out.Answer.Headline,
		SQL: out.SQL, RowCount: out.Rows, Truncated: out.Truncated,
		Checks: out.Report.Checks, Confidence: out.Report.Confidence, ResultID: out.ResultID,
	}
	a.Columns, a.Rows = preview(out.Table)
	if len(out.Answer.Cells) >= len(a.Rows) {
		a.Cells = out.Answer.Cells[:len(a.Rows)]
	}
	a.setChart(&s.charts, out.Answer.Chart)
	if a.Checks == nil {
		a.Checks = []verify.Check{}
	}
	return a
}

// rebuiltAnswer shows an answer from its run's log and stored result, as
// a session's history does after a restart. The chart is chosen again
// from the stored rows.
func (s *Server) rebuiltAnswer(st event.RunState, t *quarry.Table) *answerJSON {
	a := &answerJSON{
		Markdown: st.Answer, HTML: mdhtml.Render(st.Answer), Headline: headline(st.Answer), SQL: st.SQL,
		RowCount: st.Rows, Truncated: st.Truncated, ResultID: st.ResultID, Checks: []verify.Check{},
	}
	for _, c := range st.Checks {
		a.Checks = append(a.Checks, verify.Check{Name: c.Name, Status: c.Status, Detail: c.Detail})
	}
	if st.Confidence != nil {
		a.Confidence = *st.Confidence
	}
	a.Columns, a.Rows = preview(t)
	if len(st.Cells) >= len(a.Rows) {
		a.Cells = st.Cells[:len(a.Rows)]
	}
	if t != nil && st.Chart != "" {
		a.setChart(&s.charts, narrate.ChooseChart(t, nil, st.Question))
	}
	return a
}

func (a *answerJSON) setChart(c *svgCache, spec narrate.ChartSpec) {
	if spec.Kind == narrate.ChartNone {
		return
	}
	a.Chart = &spec
	a.ChartSVG = c.render(spec)
}

// svgCache keeps recently drawn charts: drawing one costs milliseconds and
// megabytes of glyph buffers, and the same answer is often asked again.
type svgCache struct {
	mu   sync.Mutex
	svgs map[string]string
}

// svgCacheSize bounds the cache; when full it starts again empty.
const svgCacheSize = 256

func (c *svgCache) render(spec narrate.ChartSpec) string {
	key, err := json.Marshal(spec)
	if err != nil {
		return ""
	}
	c.mu.Lock()
	svg, ok := c.svgs[string(key)]
	c.mu.Unlock()
	if ok {
		return svg
	}
	b, err := chart.RenderSVG(spec, chartWidth, chartHeight)
	if err != nil {
		return ""
	}
	c.mu.Lock()
	if c.svgs == nil || len(c.svgs) >= svgCacheSize {
		c.svgs = map[string]string{}
	}
	c.svgs[string(key)] = string(b)
	c.mu.Unlock()
	return string(b)
}

// headline is the first non-empty line of an answer's Markdown, without
// its emphasis and heading marks.
func headline(md string) string {
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(strings.TrimLeft(strings.NewReplacer("**", "", "`", "").Replace(line), "# "))
		if len(line) > 1 && (line[0] == '_' || line[0] == '*') && line[len(line)-1] == line[0] {
			line = line[1 : len(line)-1] // a line in italics
		}
		line = strings.TrimSpace(narrate.Unescape(line))
		if line != "" {
			return line
		}
	}
	return ""
}

// preview returns a table's columns and its first rows as JSON values.
func preview(t *quarry.Table) ([]columnJSON, [][]any) {
	cols := []columnJSON{}
	rows := [][]any{}
	if t == nil {
		return cols, rows
	}
	for _, c := range t.Columns {
		cols = append(cols, columnJSON{Name: c.Name, Type: c.Type})
	}
	for i, r := range t.Rows {
		if i == previewRows {
			break
		}
		rows = append(rows, jsonRow(r))
	}
	return cols, rows
}

func jsonRow(r []any) []any {
	vals := make([]any, len(r))
	for i, v := range r {
		vals[i] = quarry.JSONValue(v)
	}
	return vals
}
