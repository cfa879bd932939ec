package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckJoinPath is the check that a result does not depend on which of two
// equally good relationships the compiler joined through.
const CheckJoinPath = "join_path"

// PathCheck runs the query again through the second join path, where the
// compiler chose between two relationships that join the same entities
// equally well (tickets to employees by assignee or by opener): the same
// result passes; another warns, since the answer then rests on the
// relationship declared first rather than on the question; where the
// question named a table on the route taken (JoinChoice.Named) it passes
// and says what the other route gives. The check names its control query. It returns an empty check when the compiler
// made no such choice, or the control cannot run.
func (a *Analyst) PathCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled) verify.Check {
	if q == nil || compiled == nil || len(compiled.Choices) == 0 || res == nil || res.Table == nil || res.Truncated || a.Conn == nil {
		return verify.Check{}
	}
	if compiled.Choices[0].Used >= len(m.Relationships) {
		return verify.Check{}
	}
	// Each route passed over into the first table reached by a choice
	// (a city through an order's courier, its customer or its
	// restaurant): the first whose result differs warns.
	target := m.Relationships[compiled.Choices[0].Used].To
	var pass verify.Check
	for _, ch := range compiled.Choices {
		if ch.Used >= len(m.Relationships) || ch.Other >= len(m.Relationships) || !strings.EqualFold(m.Relationships[ch.Used].To, target) {
			continue
		}
		c := a.pathCheck(ctx, m, q, res, compiled, ch, target)
		if c.Status == verify.Warn {
			return c
		}
		if pass.Name == "" {
			pass = c
		}
	}
	return pass
}

// pathCheck is PathCheck of one route passed over, ch's, into target.
func (a *Analyst) pathCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled, ch semantic.JoinChoice, target string) verify.Check {
	route := ch.OtherPath
	if len(route) == 0 {
		route = []int{ch.Other}
	}
	var other *Result
	var c *semantic.Compiled
	var ok bool
	if ch.Longer {
		// The longer route, through its own tables: the shortest way
		// is taken wherever another is as good, so no order of the
		// relationships leads the compiler there.
		via := m.OtherWay(ch, target)
		if len(via) == 0 {
			return verify.Check{}
		}
		qv := *q
		qv.Via = append(slices.Clip(q.Via), via...)
		other, c, ok = a.controlBy(ctx, semantic.Compile, m, qv, len(res.Table.Rows)+1)
	} else {
		other, c, ok = a.controlBy(ctx, semantic.CompileAsDeclared, m.Preferring(route...), *q, len(res.Table.Rows)+1)
	}
	if !ok || c.SQL == compiled.SQL {
		return verify.Check{}
	}
	used, alt := routeText(m, ch.UsedPath, ch.OtherPath, ch.Used), routeText(m, ch.OtherPath, ch.UsedPath, ch.Other)
	usedVia := strings.Join(m.Through(ch.UsedPath, ch.OtherPath, target), " and ")
	altVia := strings.Join(m.Through(ch.OtherPath, ch.UsedPath, target), " and ")
	if sameRows(res.Table, other.Table) {
		return verify.Check{Name: CheckJoinPath, Status: verify.Pass, Detail: fmt.Sprintf("joined through %s; through %s the result is the same (control query: %s)", used, alt, c.SQL)}
	}
	if len(ch.Named) > 0 {
		// The question named a table on the route taken and none on the
		// other ("tickets handled by agents in the Billing team"): the
		// answer follows the question; the other route is said.
		return verify.Check{Name: CheckJoinPath, Status: verify.Pass, Detail: fmt.Sprintf("%s reached through %s (%s), which the question names; through %s (%s) the result differs (control query: %s)", target, usedVia, used, altVia, alt, c.SQL)}
	}
	if usedVia != "" && altVia != "" {
		// Two routes through other tables: named by those tables, as a
		// reader would ask ("regions of the agents or of the holders?").
		first := "the route declared first"
		if ch.Longer {
			first = "the shorter route"
		}
		return verify.Check{Name: CheckJoinPath, Status: verify.Warn, Detail: fmt.Sprintf("%s reached through %s (%s), %s; through %s (%s) the result differs, so the answer depends on which one the question means (control query: %s)", target, usedVia, used, first, altVia, alt, c.SQL)}
	}
	return verify.Check{Name: CheckJoinPath, Status: verify.Warn, Detail: fmt.Sprintf("joined through %s, the relationship declared first; through %s the result differs, so the answer depends on which one the question means (control query: %s)", used, alt, c.SQL)}
}

func relText(r semantic.Relationship) string {
	return r.From + "." + r.FromColumn + " = " + r.To + "." + r.ToColumn
}

// routeText names the joins of route that the other route does not share
// ("policies.holder_id = policyholders.holder_id and policyholders.region_id
// = regions.region_id"); without routes, the relationship last entered.
func routeText(m *semantic.Model, route, other []int, last int) string {
	var parts []string
	for _, rel := range route {
		if !slices.Contains(other, rel) && rel < len(m.Relationships) {
			parts = append(parts, relText(m.Relationships[rel]))
		}
	}
	if len(parts) == 0 {
		return relText(m.Relationships[last])
	}
	return strings.Join(parts, " and ")
}

// sameRows reports whether two tables hold the same values in the same
// order, in each column of a, found in b by its name: the control may
// show a column the answer leaves out (found from outside: a list of
// invoices joined to accounts through subscriptions showed
// invoices.account_id too, and the check said the lists differed though
// they held the same invoices).
func sameRows(a, b *quarry.Table) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	at := make([]int, len(a.Columns))
	for j, c := range a.Columns {
		at[j] = -1
		for k, d := range b.Columns {
			if d.Name == c.Name {
				at[j] = k
				break
			}
		}
		if at[j] < 0 {
			return false
		}
	}
	for i := range a.Rows {
		if len(a.Rows[i]) != len(a.Columns) || len(b.Rows[i]) != len(b.Columns) {
			return false
		}
		for j := range a.Rows[i] {
			if fmt.Sprint(quarry.JSONValue(a.Rows[i][j])) != fmt.Sprint(quarry.JSONValue(b.Rows[i][at[j]])) {
				return false
			}
		}
	}
	return true
}
