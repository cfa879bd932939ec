package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// heldTitle is a filter as the title says it, with its column where the
// value is not one the knowledge lists for it: "orders with discount code
// web" is titled "discount code web", never "web", which reads as the web
// channel it is known in.
func (p *Planner) heldTitle(f semantic.Filter) string {
	t := filterTitle(f)
	if ent, _, ok := strings.Cut(f.Field, "."); ok && !f.OnRelated() && (f.Op == semantic.OpEq || f.Op == semantic.OpIn) {
		if e := p.entity(ent); e != nil && e.Role != nil {
			// "flights (destination airport Denver)": a table reached by
			// one of several links says which (found from outside:
			// "116 flights (Denver)" did not say to or from).
			return display(e.Name) + " " + t
		}
	}
	if f.Op != semantic.OpEq || len(f.Values) != 1 {
		return t
	}
	v, ok := f.Values[0].(string)
	if !ok {
		return t
	}
	known := p.knownValuesOf(f.Field)
	if len(known) == 0 {
		return t
	}
	for _, k := range known {
		if strings.EqualFold(k, v) {
			return t
		}
	}
	return fmt.Sprintf("%s %s", display(fieldColumn(f.Field)), v)
}

// knownValuesOf are the values the knowledge lists for a field: a
// dimension's or a column's.
func (p *Planner) knownValuesOf(field string) []string {
	fl, err := p.m.ResolveField(field)
	if err != nil {
		return nil
	}
	switch fl.Kind {
	case semantic.FieldDimension:
		if len(fl.Dimension.Values) > 0 {
			return fl.Dimension.Values
		}
		if f2, err := p.m.ResolveField(fl.Dimension.Expr); err == nil && f2.Kind == semantic.FieldColumn {
			return f2.Column.Values
		}
	case semantic.FieldColumn:
		return fl.Column.Values
	}
	return nil
}
