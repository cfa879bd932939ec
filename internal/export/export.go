// Package export builds a run's provenance bundle: everything needed to
// understand, check and repeat one answer without quarry's state database
// — the question, how it was read, the plan, the exact SQL, the knowledge
// digest, the checks and confidence, the result's hash and rows, and the
// whole event log — as JSON and as Markdown. It is pure: the caller reads
// the events and the result and passes the time.
package export

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
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

// Build makes the bundle of a run from its events and, when it is still
// stored, its result (nil otherwise).
func Build(events []event.Event, result *quarry.Table, now time.Time, exporter string) (*Bundle, error) {
	st, err := event.Fold(events)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "the run's log cannot be read")
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
	if result != nil && st.ResultID != "" {
		rows := make([][]any, len(result.Rows))
		for i, r := range result.Rows {
			vals := make([]any, len(r))
			for j, v := range r {
				vals[j] = quarry.JSONValue(v)
			}
			rows[i] = vals
		}
		b.Result = &Result{ID: st.ResultID, Hash: st.ResultHash, Columns: result.Columns, Rows: rows, Truncated: result.Truncated}
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
	if b.Result != nil && len(b.Result.Columns) > 0 {
		w.WriteString("\n## Result\n\n")
		var names []string
		for _, c := range b.Result.Columns {
			names = append(names, cell(c.Name))
		}
		w.WriteString("| " + strings.Join(names, " | ") + " |\n|" + strings.Repeat(" --- |", len(names)) + "\n")
		for i, row := range b.Result.Rows {
			if i == markdownRows {
				fmt.Fprintf(&w, "\n%d more rows are in the JSON bundle.\n", len(b.Result.Rows)-markdownRows)
				break
			}
			vals := make([]string, len(row))
			for j, v := range row {
				vals[j] = cell(fmt.Sprint(valueText(v)))
			}
			w.WriteString("| " + strings.Join(vals, " | ") + " |\n")
		}
	}
	fmt.Fprintf(&w, "\n%d events in the log; `quarry runs rerun %s` re-executes the SQL and compares the result hash.\n", len(b.Events), r.RunID)
	return w.String()
}

func valueText(v any) any {
	if v == nil {
		return "NULL"
	}
	return v
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
