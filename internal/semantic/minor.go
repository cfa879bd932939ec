package semantic

import (
	"strings"
)

// FormatCents is the format of an amount of money held in its minor unit
// (cents, pence): shown as money, divided by 100. The value itself, in the
// result, the SQL and every export, stays as the database holds it.
const FormatCents = "cents"

// OutFormat is the format of metric mt's column in a result: the
// metric's own, but FormatCents where the metric is a total, average,
// minimum or maximum of one column that holds money in its minor unit
// (`unit: cents`, or a name that ends in cents or pence), or says so by its
// own unit, and its format is a number's or money's (found from outside:
// "total late fees" shown as 1,447,500 for $14,475.00). A count, a share
// or a date of such a column keeps its format.
func (m *Model) OutFormat(mt *Metric) string {
	switch mt.Format {
	case "", "number", "integer", "currency":
	default:
		return mt.Format
	}
	if MinorUnit(mt.Unit, "") {
		return FormatCents
	}
	if col := m.aggregatedColumn(mt.Expr); col != nil && MinorUnit(col.Unit, col.Name) {
		return FormatCents
	}
	return mt.Format
}

// aggregatedColumn is the column an expression that is one SUM, AVG, MIN
// or MAX of one entity.column reads, or nil.
func (m *Model) aggregatedColumn(expr string) *Column {
	e := strings.TrimSpace(expr)
	open := strings.IndexByte(e, '(')
	if open < 0 || !strings.HasSuffix(e, ")") {
		return nil
	}
	switch strings.ToUpper(strings.TrimSpace(e[:open])) {
	case "SUM", "AVG", "MIN", "MAX":
	default:
		return nil
	}
	ref := strings.TrimSpace(e[open+1 : len(e)-1])
	ent, col, ok := strings.Cut(ref, ".")
	if !ok || strings.ContainsAny(col, " ()+-*/,.") || strings.ContainsAny(ent, " ()+-*/,") {
		return nil
	}
	en := m.Entity(ent)
	if en == nil {
		return nil
	}
	return en.Column(col)
}

// MinorUnitLess is a name, in words or as a column writes it, without
// the minor unit it ends with: "amount cents" is "amount", price_cents
// is price, as an answer that shows it as money says it. A name of the
// unit alone stays.
func MinorUnitLess(name string) string {
	lower := strings.ToLower(name)
	for _, u := range []string{"cents", "cent", "pence"} {
		for _, sep := range []string{" ", "_"} {
			if len(name) > len(u)+1 && strings.HasSuffix(lower, sep+u) {
				return strings.TrimSpace(name[:len(name)-len(u)-1])
			}
		}
	}
	return name
}

// columnFormat is the format of a listed column: FormatCents for a plain
// column that holds money in its minor unit ("the cheapest ticket": its
// price_cents shown as money, as its total is), else none.
func (m *Model) columnFormat(x string, refs []colRef) string {
	if len(refs) != 1 {
		return ""
	}
	e := m.Entity(refs[0].Entity)
	if e == nil {
		return ""
	}
	if col := e.Column(refs[0].Column); col != nil && col.Type.IsNumeric() && MinorUnit(col.Unit, col.Name) && !strings.ContainsAny(x, "()+-*/") {
		return FormatCents
	}
	return ""
}
