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
// relationship declared first rather than on the question. The check
// names its control query. It returns an empty check when the compiler
// made no such choice, or the control cannot run.
func (a *Analyst) PathCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled) verify.Check {
	if q == nil || compiled == nil || len(compiled.Choices) == 0 || res == nil || res.Table == nil || res.Truncated || a.Conn == nil {
		return verify.Check{}
	}
	ch := compiled.Choices[0]
	if ch.Used >= len(m.Relationships) || ch.Other >= len(m.Relationships) {
		return verify.Check{}
	}
	route := ch.OtherPath
	if len(route) == 0 {
		route = []int{ch.Other}
	}
	other, c, ok := a.control(ctx, m.Preferring(route...), *q, len(res.Table.Rows)+1)
	if !ok || c.SQL == compiled.SQL {
		return verify.Check{}
	}
	used, alt := routeText(m, ch.UsedPath, ch.OtherPath, ch.Used), routeText(m, ch.OtherPath, ch.UsedPath, ch.Other)
	target := m.Relationships[ch.Used].To
	usedVia, altVia := via(m, ch.UsedPath, ch.OtherPath, target), via(m, ch.OtherPath, ch.UsedPath, target)
	if sameRows(res.Table, other.Table) {
		return verify.Check{Name: CheckJoinPath, Status: verify.Pass, Detail: fmt.Sprintf("joined through %s; through %s the result is the same (control query: %s)", used, alt, c.SQL)}
	}
	if usedVia != "" && altVia != "" {
		// Two routes through other tables: named by those tables, as a
		// reader would ask ("regions of the agents or of the holders?").
		return verify.Check{Name: CheckJoinPath, Status: verify.Warn, Detail: fmt.Sprintf("%s reached through %s (%s), the route declared first; through %s (%s) the result differs, so the answer depends on which one the question means (control query: %s)", target, usedVia, used, altVia, alt, c.SQL)}
	}
	return verify.Check{Name: CheckJoinPath, Status: verify.Warn, Detail: fmt.Sprintf("joined through %s, the relationship declared first; through %s the result differs, so the answer depends on which one the question means (control query: %s)", used, alt, c.SQL)}
}

// via names the tables a route passes through where the other route does
// not: those both entered and left by its own joins ("agents" of claims →
// policies → agents → regions, against the route through the policies'
// holders); "" for one relationship against another.
func via(m *semantic.Model, route, other []int, target string) string {
	seen := map[string]int{}
	var order []string
	for _, rel := range route {
		if rel >= len(m.Relationships) || slices.Contains(other, rel) {
			continue
		}
		r := m.Relationships[rel]
		for _, e := range []string{r.From, r.To} {
			if seen[e] == 0 {
				order = append(order, e)
			}
			seen[e]++
		}
	}
	var out []string
	for _, e := range order {
		if seen[e] > 1 && !strings.EqualFold(e, target) {
			out = append(out, e)
		}
	}
	return strings.Join(out, " and ")
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
// order.
func sameRows(a, b *quarry.Table) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		if len(a.Rows[i]) != len(b.Rows[i]) {
			return false
		}
		for j := range a.Rows[i] {
			if fmt.Sprint(quarry.JSONValue(a.Rows[i][j])) != fmt.Sprint(quarry.JSONValue(b.Rows[i][j])) {
				return false
			}
		}
	}
	return true
}
