package planner

import "strings"

// rolesOnly drops, from the tables named on one side of a verb, each
// table of which a role is named there too: "which inspector inspected
// the most jobs" names staff by its role inspector (service_jobs'
// inspector_id), which says which of the links to staff is meant (found
// from outside: asked between the inspector, the mechanic and a
// booking's staff). The verb must then be the role's link's, or it stays
// unknown: "how many jobs did each mechanic inspect" is refused.
func (p *Planner) rolesOnly(side []string) []string {
	if len(side) < 2 {
		return side
	}
	named := func(table string) bool {
		for _, e := range side {
			if x := p.entity(e); x != nil && x.Role != nil && strings.EqualFold(x.Role.Of, table) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, e := range side {
		if !named(e) {
			out = append(out, e)
		}
	}
	return out
}
