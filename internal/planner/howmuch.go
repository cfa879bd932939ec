package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// howMuchCount refuses "how much" answered by counts alone: "how much did
// we refund last quarter" asks for an amount of money, and the refunded
// orders the verb names are a count of rows. A count given to "how much"
// reads as the amount. The change of a count ("how much did orders
// grow") and a share ("how much of revenue") are not amounts asked.
func (b *builder) howMuchCount() *Plan {
	st := b.st
	if b.rows || st.growth || st.share || len(b.q.Metrics) == 0 || !strings.Contains(" "+st.text+" ", " how much ") || strings.Contains(" "+st.text+" ", " how much of ") {
		return nil
	}
	var names []string
	for _, name := range b.q.Metrics {
		m := b.metric(name)
		if m == nil || !isCount(m) {
			return nil
		}
		names = append(names, display(name))
	}
	return b.fail(fmt.Sprintf("“how much” asks for an amount, but %s counts rows; ask “how many …” for the count, or name the amount to add up", strings.Join(names, " and ")))
}

// metric is the knowledge's metric of the name, or the plan's own.
func (b *builder) metric(name string) *semantic.Metric {
	for i := range b.adhoc {
		if b.adhoc[i].Name == name {
			return &b.adhoc[i]
		}
	}
	return b.p.m.Metric(name)
}

// isCount reports whether a metric counts rows (COUNT(…), not derived
// from other metrics).
func isCount(m *semantic.Metric) bool {
	return m.Derived == "" && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(m.Expr)), "COUNT(")
}

// shareUnit is the unit of entity.column when the knowledge says it holds
// a share or a rate ("fraction", "percent", "ratio"), whose sum means
// nothing: 0.1 off one line and 0.2 off another is not 0.3 of anything.
func (p *Planner) shareUnit(entity, column string) string {
	e := p.entity(entity)
	if e == nil {
		return ""
	}
	c := e.Column(column)
	if c == nil {
		return ""
	}
	switch u := strings.ToLower(strings.TrimSpace(c.Unit)); u {
	case "fraction", "share", "ratio", "rate", "percent", "percentage", "pct", "%", "proportion":
		return u
	}
	return ""
}
