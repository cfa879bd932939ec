package narrate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Read says how the semantic query q reads in business terms: each
// measure and how it is computed, each filter with the column it applies
// to, the period and the date column it is applied to, the grouping and
// its grain, the order and the limit. m must hold q's metrics (a plan's
// ad-hoc ones included). source names what wrote q.
func Read(m *semantic.Model, q *semantic.Query, source string) *event.ReadingData {
	r := &event.ReadingData{Source: source}
	if q == nil || m == nil {
		return r
	}
	var parts []string
	hidden := map[string]bool{}
	for _, h := range q.Hidden {
		hidden[h] = true
	}
	var times []string
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			r.Measures = append(r.Measures, event.ReadMeasure{Name: name, How: "unknown measure"})
			continue
		}
		rm := event.ReadMeasure{Name: mt.Name, How: how(m, mt)}
		r.Measures = append(r.Measures, rm)
		if !hidden[name] {
			parts = append(parts, mt.Name+" ("+rm.How+")")
		}
		for _, t := range metricTimes(m, mt, 0) {
			if !contains(times, t) {
				times = append(times, t)
			}
		}
	}
	if q.Rows != nil {
		r.List = q.Rows.Entity
		if len(q.Rows.Columns) > 0 {
			r.List += ": " + strings.Join(q.Rows.Columns, ", ")
		}
		if q.Rows.Distinct {
			r.List = "distinct " + r.List
		}
		parts = append(parts, "a list of "+r.List)
	}
	if len(parts) == 0 && q.Rows == nil && len(q.Dimensions) > 0 && slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return slices.Contains(q.Metrics, f.Field) }) {
		// Every measure hidden, and compared ("rooms with an average
		// rating below 4"): the groups that meet it are the answer.
		parts = append(parts, "the groups whose "+strings.Join(q.Metrics, ", ")+" meet the conditions")
	}
	for _, f := range q.Filters {
		rf := event.ReadFilter{Column: columnOf(m, f.Field), Text: filterText(f, semantic.KeepsEmpty(m, *q, f))}
		if g, ok := m.CycleGrain(f); ok {
			// "on weekends (Saturday and Sunday) of orders.ordered_at".
			rf.Text = cycleText(f, g)
			if m.OwnDate(f) {
				rf.Column = strings.Join(times, ", ")
			}
			on := rf.Column
			if on == "" {
				on = "the date"
			}
			rf.Text = on + " falls " + rf.Text
			r.Filters = append(r.Filters, rf)
			continue
		}
		if f.Op == semantic.OpNone || f.Op == semantic.OpSome || f.Count {
			rf.Column = f.Field // a table whose rows each row must have, or lack, or count
		}
		if rf.Column != f.Field {
			rf.Text += " (" + rf.Column + ")"
		}
		if f.Through != "" {
			rf.Text += " by way of " + f.Through // its ticket's agent
		}
		r.Filters = append(r.Filters, rf)
	}
	if len(r.Filters) > 0 {
		var fs []string
		for _, f := range r.Filters {
			fs = append(fs, f.Text)
		}
		parts = append(parts, "where "+strings.Join(fs, " and "))
	}
	if tr := q.TimeRange; tr != nil {
		p := &event.ReadPeriod{From: tr.From, To: lastDay(tr.To)}
		if tr.Field != "" {
			p.Column = columnOf(m, tr.Field)
		} else {
			p.Column = strings.Join(times, ", ")
		}
		r.Period = p
		s := periodText(p)
		if p.Column != "" {
			s += " by " + p.Column
		}
		parts = append(parts, s)
	}
	for _, c := range q.Compare {
		r.Compare = append(r.Compare, fmt.Sprintf("%s (%s to %s)", c.Label, c.From, lastDay(c.To)))
	}
	if len(r.Compare) > 0 {
		s := "comparing " + strings.Join(r.Compare, " with ")
		if len(times) > 0 {
			s += " by " + strings.Join(times, ", ")
		}
		parts = append(parts, s)
	}
	if q.CountGroups != "" {
		countGroups(m, q, r, parts)
		return r
	}
	var gs []string
	keyed := keyGroupings(m, q.Dimensions)
	for _, d := range q.Dimensions {
		g := event.ReadGrouping{Name: d.Name, Column: columnOf(m, d.Name), Grain: string(d.Grain)}
		if g.Grain != "" && g.Column == d.Name && !strings.Contains(d.Name, ".") && m.Dimension(d.Name) == nil && len(times) > 0 {
			// A bare grain ("by month"): the metrics' own time axis.
			g.Column = strings.Join(times, ", ")
		}
		r.GroupBy = append(r.GroupBy, g)
		if keyed[d.Name] {
			continue // an entity's key beside its label: the label names the group
		}
		s := d.Name
		if g.Grain != "" {
			s = d.Grain.Words() + " of " + g.Column
		} else if g.Column != "" && g.Column != d.Name {
			s += " (" + g.Column + ")"
		}
		gs = append(gs, s)
	}
	if len(gs) > 0 {
		parts = append(parts, "by "+strings.Join(gs, ", "))
	}
	if o := orderText(q); o != "" {
		r.Order = o
		if q.Ties {
			o += " with ties"
			r.Ties = true
		}
		parts = append(parts, o)
	}
	if q.Share {
		parts = append(parts, "as a share of the total")
	}
	r.Population = population(m, q)
	if r.Population != "" {
		r.KnownGroups = knownGroups(m, q)
	}
	r.Text = strings.Join(parts, ", ")
	return r
}

// how says how a metric is computed: its formula, over which rows.
func how(m *semantic.Model, mt *semantic.Metric) string {
	var s string
	switch {
	case mt.Derived != "":
		s = mt.Derived
	default:
		s = mt.Expr
	}
	if mt.Entity != "" && mt.Derived == "" {
		s += " over " + mt.Entity
	}
	if len(mt.Filters) > 0 {
		s += " where " + strings.Join(mt.Filters, " and ")
	}
	return s
}

// columnOf is the column a field reads: a dimension's expression, or the
// field itself (entity.column).
func columnOf(m *semantic.Model, field string) string {
	if d := m.Dimension(field); d != nil {
		return d.Expr
	}
	if mt := m.Metric(field); mt != nil {
		return mt.Name
	}
	return field
}

// orEmptyText follows a "not" filter's values in the reading: it keeps the
// rows with no value too (the compiler's "<> … OR … IS NULL").
const orEmptyText = " (or empty)"

func filterText(f semantic.Filter, keepsEmpty bool) string {
	orEmpty := ""
	if keepsEmpty {
		orEmpty = orEmptyText
	}
	// A value the column holds in several spellings, which the filter
	// takes all of, is one value, its spellings named: "category =
	// 'electronics' (3 spellings: 'ELECTRONICS', 'Electronics',
	// 'electronics')".
	spelled := semantic.SpellingsOf(f.Values)
	vals := make([]string, len(spelled))
	for i, g := range spelled {
		vals[i] = spelledText(g)
	}
	one := strings.Join(vals, ", ")
	if f.Against != "" {
		one = "the " + semantic.AgainstName(f.Against) + " of all rows"
	}
	switch {
	case f.Count:
		op := string(f.Op)
		if f.Op == semantic.OpNe {
			op = "≠"
		}
		return "the number of " + f.Field + " rows" + whereText(f.Where) + " that refer to it " + op + " " + one
	case f.Op == semantic.OpEq && len(vals) > 1:
		return f.Field + " is one of " + one
	// The related rows refer to it (a customer's orders) or it refers to
	// them (a visit's vet): said either way.
	case f.Op == semantic.OpNone:
		return "it has no related " + f.Field + " row" + whereText(f.Where)
	case f.Op == semantic.OpSome:
		return "it has a related " + f.Field + " row" + whereText(f.Where)
	}
	switch f.Op {
	case semantic.OpIn:
		if len(vals) == 1 {
			return f.Field + " = " + one
		}
		return f.Field + " is one of " + one
	case semantic.OpNotIn:
		if len(vals) == 1 {
			return f.Field + " ≠ " + one + orEmpty
		}
		return f.Field + " is none of " + one + orEmpty
	case semantic.OpLike:
		return f.Field + " contains " + one
	case semantic.OpPrefix:
		return f.Field + " starts with " + one
	case semantic.OpSuffix:
		return f.Field + " ends with " + one
	case semantic.OpNull:
		return f.Field + " is empty"
	case semantic.OpNotNull:
		return f.Field + " is not empty"
	case semantic.OpNe:
		if len(vals) > 1 {
			return f.Field + " is none of " + one + orEmpty
		}
		return f.Field + " ≠ " + one + orEmpty
	}
	return f.Field + " " + string(f.Op) + " " + one + orEmpty
}

// spelledText is one value of a filter as the reading writes it: text
// quoted, and a value in several spellings with each of them.
func spelledText(g semantic.Spelled) string {
	switch len(g.Spellings) {
	case 0:
		return g.Value
	case 1:
		return "'" + g.Spellings[0] + "'"
	}
	q := make([]string, len(g.Spellings))
	for i, s := range g.Spellings {
		q[i] = "'" + s + "'"
	}
	return fmt.Sprintf("'%s' (%d spellings: %s)", g.Value, len(g.Spellings), strings.Join(q, ", "))
}

// lastDay turns an exclusive end "YYYY-MM-DD" into the last day included.
func lastDay(to string) string {
	t, err := time.Parse("2006-01-02", to)
	if err != nil {
		return to
	}
	return t.AddDate(0, 0, -1).Format("2006-01-02")
}

func periodText(p *event.ReadPeriod) string {
	switch {
	case p.From != "" && p.To != "":
		return "from " + p.From + " to " + p.To
	case p.From != "":
		return "from " + p.From
	case p.To != "":
		return "up to " + p.To
	}
	return "at any time"
}

func orderText(q *semantic.Query) string {
	if len(q.Order) == 0 {
		if q.Limit > 0 {
			return fmt.Sprintf("first %d", q.Limit)
		}
		return ""
	}
	o := q.Order[0]
	dir := "lowest " + o.Field + " first"
	if o.Desc {
		dir = "highest " + o.Field + " first"
	}
	if q.Limit > 0 {
		if o.Desc {
			return fmt.Sprintf("top %d by %s", q.Limit, o.Field)
		}
		return fmt.Sprintf("bottom %d by %s", q.Limit, o.Field)
	}
	return dir
}

// population says which rows a grouped count or sum runs over: the
// groups that have none are not listed, which matters when the question
// is about few or none.
func population(m *semantic.Model, q *semantic.Query) string {
	if len(q.Dimensions) == 0 || len(q.Metrics) == 0 || q.Rows != nil {
		return ""
	}
	var over []string
	for _, name := range q.Metrics {
		if mt := m.Metric(name); mt != nil && mt.Entity != "" && !contains(over, mt.Entity) {
			over = append(over, mt.Entity)
		}
	}
	if len(over) == 0 {
		return ""
	}
	return "only groups with at least one " + strings.Join(over, " or ") + " row are listed"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

var metricRef = regexp.MustCompile(`\{([^{}]+)\}`)

// metricTimes is the time axis of a metric: its own, or for a derived
// metric those of the metrics its formula names.
func metricTimes(m *semantic.Model, mt *semantic.Metric, depth int) []string {
	if t := m.MetricTime(mt); t != "" {
		return []string{t}
	}
	if mt.Derived == "" || depth > 4 {
		return nil
	}
	var out []string
	for _, ref := range metricRef.FindAllStringSubmatch(mt.Derived, -1) {
		if sub := m.Metric(ref[1]); sub != nil {
			for _, t := range metricTimes(m, sub, depth+1) {
				if !contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// keyGroupings are the groupings by an entity's primary key that stand
// beside another column of the same entity (products.id next to
// products.name): they tell rows apart, and the reading names the group
// by the other column.
func keyGroupings(m *semantic.Model, dims []semantic.DimRef) map[string]bool {
	out := map[string]bool{}
	for _, d := range dims {
		ent, col, ok := strings.Cut(d.Name, ".")
		e := m.Entity(ent)
		if !ok || e == nil || e.PrimaryKey == "" || !strings.EqualFold(col, e.PrimaryKey) {
			continue
		}
		for _, o := range dims {
			if o.Name != d.Name && strings.HasPrefix(o.Name, ent+".") {
				out[d.Name] = true
			}
		}
	}
	return out
}

// whereText is a related filter's conditions on the related rows: " with
// status = 'refunded'".
func whereText(ws []semantic.Filter) string {
	if len(ws) == 0 {
		return ""
	}
	var parts []string
	for _, w := range ws {
		t := filterText(w, w.Op == semantic.OpNe || w.Op == semantic.OpNotIn || w.OrNull) // the related rows' own filters keep the empty
		if w.Through != "" {
			t += " by way of " + w.Through
		}
		parts = append(parts, t)
	}
	return " with " + strings.Join(parts, " and ")
}

// cycleText names the days a filter on the days of the week keeps: "on
// weekends (Saturday and Sunday)", "on weekdays (Monday to Friday)", "on
// Mondays"; the reading says whose date falls on them.
func cycleText(f semantic.Filter, g semantic.Grain) string {
	vals := semantic.CycleValues(f, g)
	out := make([]string, len(vals))
	for i, v := range vals {
		switch v {
		case semantic.Weekend:
			out[i] = "weekends (Saturday and Sunday)"
		case semantic.Weekday:
			out[i] = "weekdays (Monday to Friday)"
		default:
			out[i] = v + "s"
		}
	}
	return "on " + strings.Join(out, " and ")
}

// countGroups finishes the reading of a query that counts its groups
// ("how many customers had revenue over 1000"): one measure, the count of
// the groups, whose computation says what each group's measure is and
// that only the groups passing the conditions count.
func countGroups(m *semantic.Model, q *semantic.Query, r *event.ReadingData, parts []string) {
	var keys []string
	for _, d := range q.Dimensions {
		keys = append(keys, columnOf(m, d.Name))
	}
	var of []string
	for _, mm := range r.Measures {
		of = append(of, mm.Name+" being "+mm.How)
	}
	// "COUNT(customers.id) over customers, …": the rows counted are the
	// groups' own, never those of the measure they pass on (found from
	// outside: "36 invoices issued in 2025" for 36 customers).
	ent, _, _ := strings.Cut(keys[0], ".")
	how := "COUNT(" + strings.Join(keys, ", ") + ") over " + ent + ", the groups that pass the conditions, " + strings.Join(of, "; ")
	r.Measures = []event.ReadMeasure{{Name: q.CountGroups, How: how}}
	if len(parts) > 0 {
		parts[0] = "the number of " + strings.Join(keys, ", ") + ", each with its " + parts[0]
	}
	for _, d := range q.Dimensions {
		r.GroupBy = append(r.GroupBy, event.ReadGrouping{Name: d.Name, Column: columnOf(m, d.Name)})
	}
	// A group with none of the measure's rows is not counted; a condition
	// it would pass is refused before (verify.ZeroGroupsMissing), so
	// nothing is said of it.
	r.Text = strings.Join(parts, ", ")
}
