package workflow

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/narrate"
)

// StepDetail is what a report shows of an ask or query node's run beyond
// its output: the question as asked, the SQL, the answer's headline, a
// chart of the result (SVG), and where its provenance is (a URL when the
// server has a public address, and the command that exports it).
type StepDetail struct {
	Asked    string
	SQL      string
	Headline string
	ChartSVG []byte
	Link     string // an http(s) URL, or ""
	Command  string
}

// Section is one node of a report.
type Section struct {
	ID, Kind, Title, Status string
	// Source is what the node was written as: the question, the verified
	// query, the SQL, the expression or condition, the message.
	Source string
	// Text is what it gave, in words; Figures are its numbers, each bound
	// to where it came from.
	Text    string
	Figures []Figure
	Detail  StepDetail
	RunID   string
	Message string
}

// Figure is a number of the report and where it came from: a result cell
// (Result, Column, Row) or an expression over earlier figures.
type Figure struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Report is a workflow run as one document.
type Report struct {
	Workflow, Description, RunID, Status, Message, AsOf string
	Params                                              map[string]string
	Sections                                            []Section
}

// NewReport lays a run out as a report: each node that ran, in the order
// it ran, with its figures bound to result cells or to the expression
// that made them. details are by node ID.
func NewReport(w *Workflow, st State, details map[string]StepDetail) Report {
	rep := Report{Workflow: st.Workflow, Description: w.Description, RunID: st.RunID, Status: st.Status, Message: st.Message, AsOf: st.AsOf, Params: st.Params}
	for _, ns := range st.Nodes {
		n := w.Node(ns.ID)
		if n == nil {
			continue
		}
		sec := Section{ID: n.ID, Kind: string(n.Kind), Title: n.Title, Status: ns.Status, RunID: ns.RunID, Message: ns.Message, Detail: details[n.ID]}
		if sec.Title == "" {
			sec.Title = n.ID
		}
		var out map[string]any
		_ = json.Unmarshal(ns.Output, &out)
		switch n.Kind {
		case Ask:
			sec.Source = n.Question
			if sec.Detail.Asked != "" {
				sec.Source = sec.Detail.Asked // as asked, placeholders filled
			}
		case Query:
			sec.Source = n.Verified
			if n.SQL != "" {
				sec.Source = n.SQL
			}
		case Compute, Branch:
			sec.Source = n.Expr
		case Notify, End:
			sec.Source = n.Message
		case Wait:
			sec.Source = n.Approval
			if ns.Approval != "" {
				sec.Source = ns.Approval // as shown, placeholders filled
			}
			if sec.Source == "" {
				sec.Source = "wait " + n.For + n.Until
			}
		}
		if mark, ok := out["restricted"].(string); ok {
			sec.Text = mark + " (the column policy restricts what this step read, or what it was made from)"
			rep.Sections = append(rep.Sections, sec)
			continue
		}
		switch n.Kind {
		case Ask, Query:
			sec.Text = sec.Detail.Headline
			if has, _ := out["has_value"].(bool); has {
				cell := fmt.Sprintf("result %v, column %v, row 1", out["result"], out["column"])
				sec.Figures = append(sec.Figures, Figure{Name: n.ID + ".value", Value: figure(out["value"]), Source: cell})
			}
			if vs, _ := out["values"].([]any); len(vs) > 1 {
				labels, _ := out["labels"].([]any)
				for i, v := range vs {
					src := fmt.Sprintf("result %v, column %v, row %d", out["result"], out["column"], i+1)
					if i < len(labels) {
						src += fmt.Sprintf(" (%v)", labels[i])
					}
					sec.Figures = append(sec.Figures, Figure{Name: fmt.Sprintf("%s.values[%d]", n.ID, i), Value: figure(v), Source: src})
				}
			}
		case Compute:
			sec.Figures = append(sec.Figures, Figure{Name: n.ID + ".value", Value: fmt.Sprint(show(out["value"])), Source: n.Expr})
		case Branch:
			sec.Text = fmt.Sprintf("%s: took %v", n.Expr, out["taken"])
		case Notify:
			sec.Text, _ = out["message"].(string)
		case Wait:
			if out != nil {
				verdict := "refused"
				if ok, _ := out["approved"].(bool); ok {
					verdict = "approved"
				}
				by, _ := out["by"].(string)
				note, _ := out["note"].(string)
				switch {
				case by == "" && note == "the time came":
					verdict = "the time came"
				case by != "":
					verdict += " by " + by
				}
				if note != "" && note != "the time came" {
					verdict += ": " + note
				}
				sec.Text = verdict
			}
		case End:
			sec.Text = ns.Message
		}
		rep.Sections = append(rep.Sections, sec)
	}
	return rep
}

func figure(v any) string {
	if f, ok := v.(float64); ok {
		return narrate.Number(f, narrate.FormatNumber, "")
	}
	return fmt.Sprint(v)
}

// Markdown writes the report as Markdown. Every text that came from a
// file, a parameter, a person or the data is escaped (md, cellText), so
// none of it becomes markup, a link, a heading or a table row.
func (r Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", md(r.Workflow))
	if r.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", md(r.Description))
	}
	fmt.Fprintf(&b, "Run `%s`, %s", r.RunID, r.Status)
	if r.AsOf != "" {
		fmt.Fprintf(&b, ", dates read against %s", r.AsOf)
	}
	b.WriteString(".")
	if r.Message != "" {
		fmt.Fprintf(&b, " %s", md(r.Message))
	}
	b.WriteString("\n")
	for _, k := range sortedKeys(r.Params) {
		fmt.Fprintf(&b, "\n- parameter %s = %s", md(k), md(r.Params[k]))
	}
	b.WriteString("\n")
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "\n## %s\n\n", md(s.Title))
		fmt.Fprintf(&b, "*%s node `%s`, %s*", s.Kind, s.ID, s.Status)
		if s.RunID != "" {
			fmt.Fprintf(&b, " · run `%s`", s.RunID)
		}
		if s.Detail.Link != "" {
			fmt.Fprintf(&b, " · provenance: <%s>", s.Detail.Link)
		} else if s.Detail.Command != "" {
			fmt.Fprintf(&b, " · provenance: `%s`", s.Detail.Command)
		}
		b.WriteString("\n\n")
		if s.Source != "" {
			for _, l := range strings.Split(strings.TrimSpace(s.Source), "\n") {
				fmt.Fprintf(&b, "> %s\n", md(l))
			}
			b.WriteString("\n")
		}
		if s.Text != "" {
			fmt.Fprintf(&b, "%s\n\n", md(s.Text))
		}
		if s.Message != "" && s.Kind != string(End) {
			fmt.Fprintf(&b, "**%s**\n\n", md(s.Message))
		}
		if len(s.Figures) > 0 {
			b.WriteString("| figure | value | from |\n|---|---:|---|\n")
			for _, f := range s.Figures {
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, md(f.Value), md(f.Source))
			}
			b.WriteString("\n")
		}
		if s.Detail.SQL != "" {
			fmt.Fprintf(&b, "```sql\n%s\n```\n", strings.ReplaceAll(strings.TrimSpace(s.Detail.SQL), "```", "` ` `"))
		}
	}
	return b.String()
}

// md is text as Markdown shows it literally, on one line: markup
// characters escaped, line breaks as spaces, HTML's angle brackets as
// entities.
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\n', '\r':
			b.WriteByte(' ')
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '(', ')', '#', '|', '!', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reportHTML is the report page; built on first use.
var reportHTML = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		// svg shows a chart as an image: an SVG loaded by <img> runs no
		// script, whatever text the data put in it.
		"svg": func(b []byte) template.HTML {
			return template.HTML(`<img alt="chart" src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString(b) + `">`) //nolint:gosec // base64 only
		},
	}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Workflow}} · {{.RunID}}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2433}
h1{margin-bottom:.2rem}h2{margin-top:2rem;border-top:1px solid #d8dde6;padding-top:1rem}
.meta{color:#5b6475;font-size:.9rem}blockquote{margin:.5rem 0;padding:.2rem .8rem;border-left:3px solid #b8c2d6;color:#3b4456}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d8dde6;padding:.2rem .6rem}td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f4f6fa;padding:.6rem;overflow:auto}.stopped,.failed{color:#a4262c}.completed,.succeeded{color:#1e7b34}
figure img{max-width:100%;height:auto}
</style></head><body>
<h1>{{.Workflow}}</h1>
{{with .Description}}<p>{{.}}</p>{{end}}
<p class="meta">Run <code>{{.RunID}}</code>, <span class="{{.Status}}">{{.Status}}</span>{{with .AsOf}}, dates read against {{.}}{{end}}.{{with .Message}} {{.}}{{end}}</p>
{{range $k, $v := .Params}}<p class="meta">parameter <code>{{$k}}</code> = {{$v}}</p>{{end}}
{{range .Sections}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="meta">{{.Kind}} node <code>{{.ID}}</code>, <span class="{{.Status}}">{{.Status}}</span>{{with .RunID}} · run <code>{{.}}</code>{{end}}{{if .Detail.Link}} · <a href="{{.Detail.Link}}">provenance</a>{{else}}{{with .Detail.Command}} · provenance: <code>{{.}}</code>{{end}}{{end}}</p>
{{with .Source}}<blockquote>{{.}}</blockquote>{{end}}
{{with .Text}}<p>{{.}}</p>{{end}}
{{if and .Message (ne .Kind "end")}}<p><strong>{{.Message}}</strong></p>{{end}}
{{with .Figures}}<table><tr><th>figure</th><th>value</th><th>from</th></tr>{{range .}}<tr><td><code>{{.Name}}</code></td><td class="num">{{.Value}}</td><td>{{.Source}}</td></tr>{{end}}</table>{{end}}
{{with .Detail.ChartSVG}}<figure>{{svg .}}</figure>{{end}}
{{with .Detail.SQL}}<pre><code>{{.}}</code></pre>{{end}}
</section>
{{end}}</body></html>
`))
})

// HTML writes the report as one HTML page with its charts inline (as
// images).
func (r Report) HTML() (string, error) {
	var b bytes.Buffer
	if err := reportHTML().Execute(&b, r); err != nil {
		return "", err
	}
	return b.String(), nil
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
