// Package export builds a run's provenance bundle: everything needed to
// understand, check and repeat one answer without quarry's state database
// — the question, how it was read, the plan, the exact SQL, the knowledge
// digest, the checks and confidence, the result's hash and rows, and the
// whole event log — as JSON and as Markdown. It is pure: the caller reads
// the events and the result and passes the time.
package export

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/format"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Format is the bundle format version; a new layout gets a new one.
const Format = "quarry-run-bundle/1"

// Bundle is one run, self-contained.
type Bundle struct {
	Format     string    `json:"format"`
	ExportedAt time.Time `json:"exported_at"`
	Exporter   string    `json:"exporter"` // the quarry version that wrote the bundle

	Run event.RunState `json:"run"` // the fold of the log: question, SQL, status, checks, confidence, result hash, answer

	// Interpretation is how the question was read: what the planner
	// understood, what it did not, and the plan it made.
	Interpretation Interpretation `json:"interpretation"`

	Result *Result       `json:"result,omitempty"` // the stored rows, when they still are
	Events []event.Event `json:"events"`
}

// Interpretation is how a question was read.
type Interpretation struct {
	Understood []string        `json:"understood,omitempty"`
	Unknown    []string        `json:"unknown,omitempty"`
	PlanSource string          `json:"plan_source,omitempty"`
	Plan       json.RawMessage `json:"plan,omitempty"`
}

// Result is a run's stored result.
type Result struct {
	ID        string          `json:"id"`
	Hash      string          `json:"hash"`
	Columns   []quarry.Column `json:"columns"`
	Rows      [][]any         `json:"rows"`
	Truncated bool            `json:"truncated,omitempty"` // the stored copy holds the first rows only
}

// Source is what Read needs of the state store (store.State has it).
type Source interface {
	Events(ctx context.Context, runID string) ([]event.Event, error)
	Result(ctx context.Context, id string) (*quarry.Table, error)
}

// Read makes the bundle of run id (any unique prefix of it) from src: its
// events and, when they are still stored, its result's rows (a result
// pruned or damaged leaves the bundle without rows; its hash stays in the
// log).
func Read(ctx context.Context, src Source, id string, now time.Time, exporter string) (*Bundle, error) {
	events, err := src.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	st, err := event.Fold(events)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "the log of run %s cannot be read", id)
	}
	b := &Bundle{Format: Format, ExportedAt: now.UTC(), Exporter: exporter, Run: st, Events: events}
	b.Interpretation.Understood, b.Interpretation.Unknown = st.Understood, st.Unknown
	for _, e := range events {
		if e.Type != event.PlanMade {
			continue
		}
		if p, err := event.Decode(e); err == nil {
			d := p.(*event.PlanMadeData)
			b.Interpretation.PlanSource, b.Interpretation.Plan = d.Source, d.Plan
		}
	}
	if st.ResultID == "" {
		return b, nil
	}
	if t, err := src.Result(ctx, st.ResultID); err == nil {
		rows := make([][]any, len(t.Rows))
		for i, r := range t.Rows {
			vals := make([]any, len(r))
			for j, v := range r {
				vals[j] = quarry.JSONValue(v)
			}
			rows[i] = vals
		}
		b.Result = &Result{ID: st.ResultID, Hash: st.ResultHash, Columns: t.Columns, Rows: rows, Truncated: t.Truncated}
	}
	return b, nil
}

// markdownRows is how many rows the Markdown shows; the JSON has them all.
const markdownRows = 50

// Markdown renders the bundle for a person: the question and answer, how
// it was read, the SQL, the checks, the provenance and the first rows.
func Markdown(b *Bundle) string {
	r := b.Run
	var w strings.Builder
	title := r.Question
	if title == "" {
		title = "Run " + r.RunID
	}
	fmt.Fprintf(&w, "# %s\n\n", oneLine(title))
	if r.Answer != "" {
		w.WriteString(strings.TrimSpace(r.Answer) + "\n\n")
	}
	fmt.Fprintf(&w, "- **Status:** %s", r.Status)
	if r.Confidence != nil {
		fmt.Fprintf(&w, " · confidence %.2f", *r.Confidence)
	}
	w.WriteString("\n")
	if r.Error != "" {
		fmt.Fprintf(&w, "- **Why:** %s\n", oneLine(r.Error))
	}
	w.WriteString("\n## How the question was read\n\n")
	if len(b.Interpretation.Understood) == 0 && len(b.Interpretation.Unknown) == 0 {
		w.WriteString("The run was SQL, not a question.\n")
	}
	for _, u := range b.Interpretation.Understood {
		fmt.Fprintf(&w, "- %s\n", u)
	}
	if len(b.Interpretation.Unknown) > 0 {
		fmt.Fprintf(&w, "- not understood: %s\n", strings.Join(b.Interpretation.Unknown, ", "))
	}
	if len(r.SQLs) > 0 || r.SQL != "" {
		fmt.Fprintf(&w, "\n## SQL\n\n```sql\n%s\n```\n", strings.TrimSpace(r.SQL))
	}
	if len(r.Checks) > 0 {
		w.WriteString("\n## Checks\n\n")
		for _, c := range r.Checks {
			fmt.Fprintf(&w, "- %s: %s", c.Name, c.Status)
			if c.Detail != "" {
				fmt.Fprintf(&w, " — %s", oneLine(c.Detail))
			}
			w.WriteString("\n")
		}
	}
	w.WriteString("\n## Provenance\n\n")
	for _, kv := range [][2]string{
		{"Run", r.RunID},
		{"Started", formatTime(r.StartedAt)},
		{"Question read as of", r.AsOf},
		{"Connection", r.Connection},
		{"Dialect", r.Dialect},
		{"Planner", r.Planner},
		{"Privacy (what a model may see)", privacy(r)},
		{"Plan", b.Interpretation.PlanSource},
		{"Knowledge digest", r.Knowledge},
		{"Result", r.ResultID},
		{"Result hash", r.ResultHash},
		{"Rows", fmt.Sprint(r.Rows)},
		{"Exported", formatTime(b.ExportedAt) + " by quarry " + b.Exporter},
	} {
		if kv[1] != "" {
			fmt.Fprintf(&w, "- **%s:** %s\n", kv[0], kv[1])
		}
	}
	for _, wh := range r.Withheld {
		fmt.Fprintf(&w, "- **Withheld from the model:** %s\n", oneLine(wh))
	}
	if b.Result != nil && len(b.Result.Columns) > 0 {
		w.WriteString("\n## Result\n\n")
		writeTable(&w, b.Result)
	}
	fmt.Fprintf(&w, "\n%d events in the log; `quarry runs rerun %s` re-executes the SQL and compares the result hash.\n", len(b.Events), r.RunID)
	return w.String()
}

// writeTable writes the first rows as a Markdown table, with the writer
// `quarry run --format markdown` uses, so a value reads the same in both.
func writeTable(w io.Writer, r *Result) {
	mw, err := format.New("markdown", w, format.Options{PreviewRows: markdownRows})
	if err != nil {
		return
	}
	mw.Begin(r.Columns)
	for _, row := range r.Rows {
		if mw.Row(row) != nil {
			break
		}
	}
	mw.End(format.Info{Rows: int64(len(r.Rows)), Truncated: r.Truncated})
	mw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// privacy is the run's privacy tier as the bundle states it, with its
// minimum group under aggregates-only.
func privacy(r event.RunState) string {
	if r.MinGroupSize > 0 {
		return fmt.Sprintf("%s (groups of at least %d rows)", r.Privacy, r.MinGroupSize)
	}
	return r.Privacy
}
