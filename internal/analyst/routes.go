package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// routeQuestion is the question to ask back where the builtin planner's
// answer rests on one of two routes to a table that give different
// results and the question named neither ("tickets by team": the teams of
// their products, or of their agents?): the join_path check warned, and
// each route passes through tables of its own. The options are the
// question with "through" and those tables, each planned again to check
// that it takes its route; nil where either does not, and the answer
// stands with its warning.
func (a *Analyst) routeQuestion(ctx context.Context, k *Knowledge, question string, asOf time.Time, m *semantic.Model, compiled *semantic.Compiled, checks []verify.Check) (string, []string) {
	if compiled == nil || len(compiled.Choices) == 0 || !slices.ContainsFunc(checks, func(c verify.Check) bool { return c.Name == CheckJoinPath && c.Status == verify.Warn }) {
		return "", nil
	}
	ch := compiled.Choices[0]
	if len(ch.Named) > 0 || ch.Used >= len(m.Relationships) {
		return "", nil
	}
	target := m.Relationships[ch.Used].To
	used, other := m.Through(ch.UsedPath, ch.OtherPath, target), m.Through(ch.OtherPath, ch.UsedPath, target)
	if len(used) == 0 || len(other) == 0 {
		return "", nil
	}
	base := strings.TrimRight(strings.TrimSpace(question), "?.! ")
	var opts []string
	for _, via := range [][]string{used, other} {
		opt := base + " through " + strings.Join(via, " and ")
		pl, _, err := k.Plan(ctx, opt, asOf)
		if err != nil || pl.Query == nil || (pl.Kind != planner.KindMetric && pl.Kind != planner.KindRows) {
			return "", nil
		}
		c, err := semantic.Compile(pl.Model(k.Model), *pl.Query, a.Conn.Dialect())
		if err != nil || len(c.Choices) == 0 || !slices.Equal(c.Choices[0].Named, via) {
			return "", nil
		}
		opts = append(opts, opt)
	}
	return fmt.Sprintf("the %s reached through %s, or those reached through %s? The answers differ.",
		target, strings.Join(used, " and "), strings.Join(other, " and ")), opts
}
