package planner

import "github.com/quarrydata/quarry/internal/semantic"

// dateRate reads "<the date of a state> rate" as the share of rows in
// that state, as "cancelled rate" reads (valueRate): "cancellation rate
// of charters" names cancelled_at before "rate", and means the share of
// charters whose status is 'cancelled' (found from outside: each
// charter's cancelled_at listed beside its boat's daily rate, at 1.00).
// Only where the date's first word is one status value of its own table.
func (p *Planner) dateRate(items []item) []item {
	for i := 0; i+1 < len(items); i++ {
		v, r := &items[i], items[i+1]
		if v.kind != itTerm || r.kind != itTerm && r.kind != itUnknown || r.text != "rate" && r.text != "ratio" || len(only(r.senses, sMetric)) > 0 {
			continue
		}
		cols := only(v.senses, sColumn)
		if len(cols) == 0 || len(cols) != len(v.senses) {
			continue
		}
		var vals []sense
		for _, c := range cols {
			if !c.temporal {
				vals = nil
				break
			}
			vals = append(vals, p.stateOfDate(c.entity, c.column)...)
		}
		if len(vals) == 1 {
			v.senses = vals
		}
	}
	return items
}

// stateOfDate is the status value of entity that date column is named
// for (cancelled of cancelled_at), as a value sense; none where there is
// no such value, or several.
func (p *Planner) stateOfDate(entity, column string) []sense {
	e := p.entity(entity)
	ws := nameWords(column)
	if e == nil || len(ws) == 0 {
		return nil
	}
	var out []sense
	for _, c := range e.Columns {
		if !semantic.StatusName(c.Name) || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		for _, v := range c.Values {
			if vw := words(v); len(vw) > 0 && vw[0] == ws[0] && len(vw) == 1 {
				out = append(out, sense{kind: sValue, entity: e.Name, column: c.Name, field: e.Name + "." + c.Name, value: v, strength: strName})
			}
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}
