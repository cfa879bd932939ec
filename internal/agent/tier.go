package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/privacy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// The connection's privacy tier (quarry.Privacy) is applied here, in the
// one place each kind of data passes on its way to the model: a result
// (show), a failed query's error (errorFor), the earlier turns of a
// conversation (turns), and what the tools and the schema context offer
// (tools, values, shownModel). A tool's output reaches the model only as
// the string these return; run.loop is the one path from a tool's output
// to a request.

// tier is the connection's privacy tier; full when not set.
func (a *Agent) tier() quarry.Privacy { return a.Privacy.Or() }

// restricted reports whether rows' values are kept from the model.
func (a *Agent) restricted() bool { return a.tier() != quarry.PrivacyFull }

// minGroup is the smallest group an aggregates-only connection shows.
func (a *Agent) minGroup() int {
	if a.MinGroupSize > 1 {
		return a.MinGroupSize
	}
	return quarry.DefaultMinGroupSize
}

// tierNote tells the model what the tier keeps from it, and why.
func (a *Agent) tierNote() string {
	switch a.tier() {
	case quarry.PrivacySchema:
		return "\n\nPrivacy tier schema-only: this connection's owner does not let any value of a row reach you. Query results reach you as the names of their columns only (not their rows, their number or their types); sample_values is not offered and a failed query's database message is withheld (its class is given). Write the query that answers the question and submit it: the user sees the full result, and quarry writes the figures into the answer from it. Do not try to get values another way."
	case quarry.PrivacyAggregates:
		return fmt.Sprintf("\n\nPrivacy tier aggregates-only: only aggregated results reach you. A result is shown when the query is one SELECT over tables (no WITH, UNION, subquery in what it returns, or window function) whose every output is a GROUP BY key or an aggregate (count, sum, avg, stddev, variance) of one column, and every group stands on at least %d rows of every table it reads; anything else reaches you as the names of its columns only (not its rows, their number or the columns' types), with the reason. min and max (one row's value), group_concat, string_agg, array_agg and json aggregates are refused, and so are an output named after a column you group by, a LIMIT or OFFSET that is not a number, and an aggregate of a column with fewer than %d values that are not NULL in a group. sample_values is not offered and a failed query's database message is withheld (its class is given). Group by columns of the table you count, and add HAVING count(*) >= %d when small groups are possible. The user sees the full result either way.", a.minGroup(), a.minGroup(), a.minGroup())
	}
	return ""
}

// show is what the model sees of a result under the tier, and what of it
// was withheld ("" when nothing).
func (r *run) show(ctx context.Context, res *result) (content, withheld string) {
	switch r.a.tier() {
	case quarry.PrivacyFull:
		return r.preview(res), ""
	case quarry.PrivacyAggregates:
		why := r.aggregated(ctx, res)
		if why == "" {
			return r.preview(res), ""
		}
		w := "the rows of the result: " + why
		return r.shape(res, fmt.Sprintf("Privacy tier aggregates-only: the rows are withheld from you because %s. The user sees the full result.", why)), w
	}
	return r.shape(res, "Privacy tier schema-only: the rows are withheld from you; the user sees the full result."), "the rows of the result (schema-only)"
}

// aggregated says why res may not reach the model under aggregates-only,
// or "" when it may: the statement read by the engine's parser
// (privacy.Aggregated), then its companion run on the same connection
// through the same guard, and the two results judged (privacy.Judge).
func (r *run) aggregated(ctx context.Context, res *result) string {
	if res.Truncated {
		return "the row cap cut the result, so its groups cannot all be counted"
	}
	p, err := privacy.Aggregated(r.a.dialect(), res.SQL, r.a.Catalog)
	if err != nil {
		return quarry.Message(err)
	}
	t, err := r.a.pipeline().Read(ctx, r.em, p.Companion, r.a.Limits.maxRows()+1)
	if err != nil {
		return "quarry could not count the rows behind each group (" + Classify(err) + ")"
	}
	r.policy.redact(t)
	return privacy.Judge(p, res.Table, t, r.a.minGroup())
}

// shape is a result without its rows: the names of its columns, and
// nothing that depends on the rows' values. Not the columns' types: on
// SQLite a column's type follows its first value that is not NULL (CASE
// WHEN … THEN 1 ELSE 'x' END is a bit per column, and a NULL another),
// and not the row count, a count of whatever the statement filters
// (SELECT id FROM people WHERE salary > X) under no group size at all.
func (r *run) shape(res *result, note string) string {
	var b strings.Builder
	b.WriteString("rows withheld (their number too)\ncolumns:\n")
	for _, c := range res.Table.Columns {
		fmt.Fprintf(&b, "- %s\n", c.Name)
	}
	b.WriteString(note)
	return fence("result", `privacy="`+string(r.a.tier())+`"`, b.String())
}

// errorFor is a failed query's error as the model is shown it. Under a
// restricted tier, only errors raised before the database read a row
// (the guard's, the cost governor's, a timeout) keep their words: a
// database's message can quote a value (PostgreSQL's "invalid input
// syntax for type integer: \"…\""), so it is reduced to its class.
func (r *run) errorFor(err error) (text string, withheld bool) {
	if !r.a.restricted() {
		return r.policy.scrub(errorText(err)), false
	}
	switch quarry.KindOf(err) {
	case quarry.KindRejected, quarry.KindForbidden, quarry.KindTooCostly, quarry.KindTimeout:
		return r.policy.scrub(errorText(err)), false
	}
	return fmt.Sprintf("the database refused the statement while running it (%s); its message is withheld from you under this connection's privacy tier (%s), because a database's message can quote a row's value", Classify(err), r.a.tier()), true
}

// turns are the earlier turns as the model may see them: under a
// restricted tier their questions only. Answers quote results, and the
// builtin planner's SQL can hold a value the value index matched (the
// question said "Zeb", the SQL filters on the stored "Zebulon Quist").
func (a *Agent) turns(history []Turn) []Turn {
	if !a.restricted() {
		return history
	}
	out := make([]Turn, len(history))
	for i, t := range history {
		t.Answer, t.SQL = "", ""
		out[i] = t
	}
	return out
}

// sameFile reports whether name, in the knowledge folder, is file there
// under another name (a link to it): the model file and the metrics file
// are read only as shownModel and shownMetrics show them.
func (a *Agent) sameFile(name, file string) bool {
	if a.KnowledgeDir == "" {
		return false
	}
	want, err := os.Stat(filepath.Join(a.KnowledgeDir, file))
	if err != nil {
		return false
	}
	got, err := os.Stat(filepath.Join(a.KnowledgeDir, filepath.FromSlash(strings.TrimSpace(name))))
	return err == nil && os.SameFile(want, got)
}

// groupSizeRecorded is the minimum group size a run records: only under
// aggregates-only, where it applies.
func (a *Agent) groupSizeRecorded() int {
	if a.tier() == quarry.PrivacyAggregates {
		return a.minGroup()
	}
	return 0
}
