package semantic

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// A filter on a cycle keeps the rows whose date falls on some days of the
// week: {field: part_of_week, op: "=", values: [weekend]} (Saturday and
// Sunday), {field: day_of_week, op: in, values: [Monday, Friday]}. Its
// field is the grain's name (or "time", or empty, with Grain set): the
// date of each metric, as a time range without a field is; or a time
// column or time dimension with Grain set: that date.

// CycleGrain is the cyclic grain filter f restricts, and whether it
// restricts one: its Grain, or a field named like a cyclic grain
// ("part_of_week") that is not a dimension of the model.
func (m *Model) CycleGrain(f Filter) (Grain, bool) {
	if f.OnRelated() {
		return "", false
	}
	if f.Grain != "" {
		return f.Grain, true
	}
	if g := Grain(strings.ToLower(f.Field)); g.Cyclic() && m.Dimension(f.Field) == nil {
		return g, true
	}
	return "", false
}

// OwnDate reports whether cycle filter f is on each metric's own date
// (its field empty, "time" or the grain's name) rather than a named one.
func (m *Model) OwnDate(f Filter) bool {
	n := strings.ToLower(f.Field)
	return n == "" || n == "time" || Grain(n).Cyclic() && m.Dimension(f.Field) == nil
}

// CycleDays are the ISO days (1 for Monday through 7 for Sunday,
// ascending) that cycle filter f of grain g keeps: "=" and "in" the days
// of its values, "!=" and "not_in" the others.
func CycleDays(f Filter, g Grain) ([]int, error) {
	if !g.Cyclic() {
		return nil, quarry.Errorf(quarry.KindInput, "filter on %s has grain %q; a filter takes the grain day_of_week or part_of_week", f.Field, g)
	}
	if f.Against != "" || f.Count || len(f.Where) > 0 {
		return nil, quarry.Errorf(quarry.KindInput, "filter on %s by %s takes values, not a comparison", f.Field, g.Words())
	}
	switch f.Op {
	case OpEq, OpIn, OpNe, OpNotIn:
	default:
		return nil, quarry.Errorf(quarry.KindInput, "filter on %s by %s takes =, !=, in or not_in, not %q", f.Field, g.Words(), f.Op)
	}
	if len(f.Values) == 0 {
		return nil, quarry.Errorf(quarry.KindInput, "filter on %s by %s needs at least one value: %s", f.Field, g.Words(), strings.Join(g.Values(), ", "))
	}
	var keep [8]bool
	for _, v := range f.Values {
		s, _ := v.(string)
		days := g.Days(s)
		if days == nil {
			return nil, quarry.Errorf(quarry.KindInput, "filter on %s by %s has the value %v; use %s", f.Field, g.Words(), v, strings.Join(g.Values(), ", "))
		}
		for _, d := range days {
			keep[d] = true
		}
	}
	neg := f.Op == OpNe || f.Op == OpNotIn
	var out []int
	for d := 1; d <= 7; d++ {
		if keep[d] != neg {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, quarry.Errorf(quarry.KindInput, "filter on %s by %s keeps no day of the week", f.Field, g.Words())
	}
	return out, nil
}

// cycleCond renders cycle filter f of grain g over the date x.
func (c *compiler) cycleCond(x string, refs []colRef, f Filter, g Grain) (cond, error) {
	days, err := CycleDays(f, g)
	if err != nil {
		return cond{}, err
	}
	return cond{sql: c.d.cycleIn(x, days), refs: refs}, nil
}

// namedCycleCond renders a cycle filter on a named date (a time column or
// time dimension).
func (c *compiler) namedCycleCond(f Filter, g Grain) (cond, error) {
	fd, err := c.m.ResolveField(f.Field)
	if err != nil {
		return cond{}, err
	}
	x, refs, err := c.fieldExpr(fd)
	if err != nil {
		return cond{}, err
	}
	return c.cycleCond(x, refs, f, g)
}

// cycleConds renders the query's cycle filters on metric mt's own date.
func (c *compiler) cycleConds(mt *Metric, filters []Filter) ([]cond, error) {
	var out []cond
	for _, f := range filters {
		g, ok := c.m.CycleGrain(f)
		if !ok || !c.m.OwnDate(f) {
			continue
		}
		t, err := c.timeRef(mt)
		if err != nil {
			return nil, err
		}
		cd, err := c.cycleCond(c.col(t), []colRef{t}, f, g)
		if err != nil {
			return nil, err
		}
		out = append(out, cd)
	}
	return out, nil
}

// CycleValues are the values a cyclic filter keeps, named (["weekend"],
// ["Monday"]), for a reading: its values when it keeps them, else the
// days it keeps by name.
func CycleValues(f Filter, g Grain) []string {
	days, err := CycleDays(f, g)
	if err != nil {
		return nil
	}
	if f.Op == OpEq || f.Op == OpIn {
		out := make([]string, 0, len(f.Values))
		for _, v := range f.Values {
			s, _ := v.(string)
			for _, n := range g.Values() {
				if strings.EqualFold(s, n) && !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	for _, n := range PartNames() {
		if slices.Equal(GrainPartOfWeek.Days(n), days) {
			return []string{n}
		}
	}
	out := make([]string, len(days))
	for i, d := range days {
		out[i] = DayNames[d-1]
	}
	return out
}

// PartNames are the parts of the week, in their order: weekday, weekend.
func PartNames() []string { return GrainPartOfWeek.Values() }
