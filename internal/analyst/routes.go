package analyst

import (
	"context"
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
	// The route used, then each passed over into the same table ("orders
	// by city": the couriers', the customers' or the restaurants' city).
	var ways [][]string
	for _, c := range compiled.Choices {
		if c.Used != ch.Used || !slices.Equal(c.UsedPath, ch.UsedPath) {
			continue
		}
		if len(ways) == 0 {
			ways = append(ways, m.Through(c.UsedPath, c.OtherPath, target))
		}
		ways = append(ways, m.OtherWay(c, target))
	}
	if slices.ContainsFunc(ways, func(w []string) bool { return len(w) == 0 }) {
		return "", nil
	}
	base := strings.TrimRight(strings.TrimSpace(question), "?.! ")
	// "through …" at the end, else right after the word that names the
	// table reached ("top 3 regions through agents by premium").
	wheres := []int{len(base)}
	words := strings.Fields(strings.ToLower(base))
	at := 0
	for _, w := range words {
		i := strings.Index(strings.ToLower(base[at:]), w) + at
		at = i + len(w)
		if t := strings.ToLower(target); w == t || w+"s" == t || strings.TrimSuffix(w, "s") == strings.TrimSuffix(t, "s") {
			wheres = append(wheres, at)
			break
		}
	}
	var opts, names []string
	for _, via := range ways {
		opt := ""
		for _, w := range wheres {
			o := base[:w] + " through " + strings.Join(via, " and ") + base[w:]
			if a.takesRoute(ctx, k, o, asOf, via) {
				opt = o
				break
			}
		}
		if opt == "" {
			return "", nil
		}
		opts = append(opts, opt)
		names = append(names, strings.Join(via, " and "))
	}
	q := "the " + target + " reached through " + names[0]
	for i, n := range names[1:] {
		if i == len(names)-2 {
			q += ", or"
		} else {
			q += ","
		}
		q += " those reached through " + n
	}
	return q + "? The answers differ.", opts
}

// takesRoute reports whether question, planned, goes to the table it
// reaches through the tables via.
func (a *Analyst) takesRoute(ctx context.Context, k *Knowledge, question string, asOf time.Time, via []string) bool {
	pl, _, err := k.Plan(ctx, question, asOf)
	if err != nil || pl.Query == nil || (pl.Kind != planner.KindMetric && pl.Kind != planner.KindRows) {
		return false
	}
	c, err := semantic.Compile(k.modelOf(pl), *pl.Query, a.Conn.Dialect())
	if err != nil {
		return false
	}
	if len(c.Choices) > 0 && slices.Equal(c.Choices[0].Named, via) {
		return true
	}
	// A route one join longer than the shortest is taken only through
	// its tables, and leaves no choice behind.
	return len(c.Choices) == 0 && len(via) > 0 && !slices.ContainsFunc(via, func(v string) bool {
		return !slices.ContainsFunc(pl.Query.Via, func(w string) bool { return strings.EqualFold(v, w) })
	})
}
