package agent

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckGrounded is the check that every number the model's text quotes is
// a cell of the result (or a number of the question or the SQL).
const CheckGrounded = "grounded_numbers"

// submit ends the run with the model's answer. The answer must rest on a
// query that ran in this run; the checks and the explanation come from the
// result, not from the model. A non-empty message asks the model to do
// something first (an answer with no query behind it).
func (r *run) submit(ctx context.Context, text, sql string) (string, error) {
	var res *result
	if sql != "" {
		for i := len(r.results) - 1; i >= 0; i-- {
			if normSQL(r.results[i].SQL) == normSQL(sql) {
				res = r.results[i]
				break
			}
		}
		if res == nil {
			return "submit_answer names SQL that did not run in this conversation; run it with run_query first, or submit the SQL of a query that ran.", nil
		}
	} else if len(r.results) > 0 {
		res = r.results[len(r.results)-1]
	}
	if res == nil {
		if r.byTool[ToolSubmitAnswer] > 1 {
			return "", fail("no_answer", quarry.KindUnanswered, "the model could not answer from this database: %s", short(r.policy.scrub(text), 300))
		}
		return "An answer must rest on a query's result. Run the query that answers the question, then submit again; if the database cannot answer it, submit again to say so.", nil
	}
	r.answer(ctx, text, res)
	return "", nil
}

// answer verifies and explains res through the pipeline's own step, with
// the model's text on top and its numbers held to the result's cells.
func (r *run) answer(ctx context.Context, text string, res *result) {
	out := r.out
	out.SQL, out.Table, out.Rows, out.Truncated, out.Duration, out.ResultID = res.SQL, res.Table, res.Rows, res.Truncated, res.Duration, res.ResultID
	// The same input the builtin planner's results get: a metric query's
	// expected rows, filter literals and fan-out guard, not only its
	// columns (verify.InputFor).
	ev := analyst.Evidence{
		Question: r.q, AsOf: out.AsOf, Model: r.a.model(), Result: res.Result,
		Note: r.note, Currency: r.a.currency(), PreviewRows: r.a.Limits.preview(),
	}
	if res.metric != nil {
		ev.Query, ev.Compiled = &res.metric.query, res.metric.compiled
		out.Compiled = ev.Compiled
		out.Columns = narrate.ColumnsFrom(ev.Compiled.Columns)
		if r.a.Conn != nil {
			// The builtin planner's control for groups with nothing to
			// count, so that the same query gets the same checks.
			ev.ZeroGroupsControl = r.a.pipeline().ControlZeroGroups(ctx, ev.Model, ev.Query)
			extra, tied := r.a.pipeline().ControlChecksTied(ctx, ev.Model, ev.Query, res.Result, ev.Compiled)
			ev.Extra, ev.Tied = append(ev.Extra, extra...), tied
		}
	}
	// How the question was read: the model's semantic query in business
	// terms, or, for SQL it wrote itself, a plain statement that there is
	// no structured reading to check. A pasted result keeps the reading of
	// the query proposed.
	switch {
	case res.metric != nil:
		out.Reading = narrate.Read(r.a.model(), ev.Query, "model")
		r.emit(ctx, out.Reading)
	case out.Reading == nil:
		out.Reading = &event.ReadingData{Source: "model", Text: "SQL the model wrote itself, not a defined metric: read the SQL to check it"}
		r.emit(ctx, out.Reading)
	}
	ev.Reading = out.Reading
	g, lead := grounded(strings.TrimSpace(r.policy.scrub(text)), res.Table, r.q+" "+res.SQL+" "+r.out.AsOf)
	ev.Lead = lead
	ev.Extra = append(append(ev.Extra, r.extra...), g)
	out.Report, out.Answer = analyst.Explain(ctx, r.em, ev)
}

var numberRE = lazyRE(`-?\d[\d,]*(\.\d+)?`)

// groundedRE is a number as a text writes it, with a scale that follows
// it ("1.2M", "3.4 million", "12k").
var groundedRE = lazyRE(`-?\d[\d,]*(\.\d+)?(\s?(k|K|m|M|bn|B|thousand|million|billion)\b)?`)

// scales are the multipliers of groundedRE's suffixes.
var scales = map[string]float64{"k": 1e3, "K": 1e3, "thousand": 1e3, "m": 1e6, "M": 1e6, "million": 1e6, "bn": 1e9, "B": 1e9, "billion": 1e9}

// grounded checks the numbers of the model's text against the result's
// cells: a number that is in no cell (nor in the question, the SQL or the
// date), as written, rounded, scaled ("1.2M") or as a percentage of a
// fraction, is unbound. The check warns, so that confidence drops below
// verified, and the text that goes with the answer marks each unbound
// number where it stands. It returns the check and the marked text.
func grounded(text string, t *quarry.Table, context string) (verify.Check, string) {
	locs := groundedRE().FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return verify.Check{}, text
	}
	var cells []float64
	for _, row := range t.Rows {
		for _, v := range row {
			if f, ok := quarry.Float(v); ok {
				cells = append(cells, f)
			}
		}
	}
	ctxNums := map[string]bool{}
	for _, n := range numberRE().FindAllString(context, -1) {
		ctxNums[strings.ReplaceAll(n, ",", "")] = true
	}
	var missing []string
	var b strings.Builder
	last := 0
	quoted := unclaimed(text)
	for _, loc := range locs {
		if slices.ContainsFunc(quoted, func(r [2]int) bool { return loc[0] >= r[0] && loc[0] < r[1] }) {
			continue // a number in code, an address or a reference is no claim
		}
		n := text[loc[0]:loc[1]]
		digits := text[loc[0]:loc[1]]
		scale := 1.0
		if loc[6] >= 0 {
			digits = strings.TrimSpace(text[loc[0]:loc[4]])
			scale = scales[text[loc[6]:loc[7]]]
		}
		plain := strings.ReplaceAll(digits, ",", "")
		f, err := strconv.ParseFloat(plain, 64)
		if err != nil || ctxNums[plain] || math.Abs(f) < 10 && !strings.Contains(plain, ".") && scale == 1 {
			continue
		}
		if near(f*scale, cells) || scale != 1 && nearScaled(f, scale, cells) {
			continue
		}
		missing = append(missing, n)
		b.WriteString(text[last:loc[1]])
		b.WriteString(" (not in the result)")
		last = loc[1]
	}
	b.WriteString(text[last:])
	if len(missing) == 0 {
		return verify.Check{Name: CheckGrounded, Status: verify.Pass}, text
	}
	return verify.Check{Name: CheckGrounded, Status: verify.Warn,
		Detail: fmt.Sprintf("the answer's text quotes %s, which the result does not contain; marked in the text", strings.Join(missing, ", "))}, b.String()
}

// unclaimedRE matches the spans of a Markdown text whose digits are no
// figures it claims: code spans, a link's address, autolinks, bare
// addresses and character references.
var unclaimedRE = lazyRE("`+[^`]*`+" + `|\]\([^)\s]*|<[A-Za-z][A-Za-z0-9+.-]*:[^>\s]*>|https?://[^\s<>)\]]+|&#?[0-9A-Za-z]+;`)

// unclaimed is where in text its digits claim nothing: the spans
// unclaimedRE matches, and fenced code blocks (found from outside: "(not
// in the result)" was written inside a link's address, breaking it, and
// inside code).
func unclaimed(text string) [][2]int {
	var out [][2]int
	for _, m := range unclaimedRE().FindAllStringIndex(text, -1) {
		out = append(out, [2]int{m[0], m[1]})
	}
	fence, start := "", 0
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := strings.TrimSpace(text[pos:end])
		switch {
		case fence == "" && (strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")):
			fence, start = line[:3], pos
		case fence != "" && strings.HasPrefix(line, fence):
			out = append(out, [2]int{start, end})
			fence = ""
		}
		pos = end + 1
	}
	if fence != "" {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

// nearScaled reports whether f, written at a scale ("1.2" million), is a
// cell rounded to the digits written.
func nearScaled(f, scale float64, cells []float64) bool {
	for _, c := range cells {
		if x := c / scale; math.Abs(x-f) <= 0.05*math.Abs(x)+0.05 {
			return true
		}
	}
	return false
}

// near reports whether f matches a cell as written or rounded (to 0.5%,
// or as a percentage of a fraction).
func near(f float64, cells []float64) bool {
	for _, c := range cells {
		for _, x := range []float64{c, c * 100} {
			if x == f || math.Abs(x-f) <= 0.005*math.Abs(x) || math.Abs(x-f) < 0.5 && math.Round(x) == math.Round(f) {
				return true
			}
		}
	}
	return false
}

// propose ends a manual-mode turn with a query for the user to run.
func (r *run) propose(ctx context.Context, sql string, columns []string) (string, bool, bool, error) {
	r.emit(ctx, &event.SQLGeneratedData{SQL: sql, Source: "model"})
	if _, err := r.check(ctx, sql); err != nil {
		return r.repair(ctx, sql, err)
	}
	r.emit(ctx, &event.QueryProposedData{SQL: sql, Columns: columns})
	r.out.SQL = sql
	r.out.Status = event.StatusAwaitingResults
	return "", false, true, nil
}

func (a *Agent) currency() string {
	if a.Knowledge == nil {
		return ""
	}
	return a.Knowledge.Currency
}

func normSQL(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.TrimRight(strings.TrimSpace(s), ";")), " "))
}
