package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// addQualifiedLinks names the table a table's one link points at by the
// link's key column less its id, where that says which of the table's
// rows it is ("home branch" of vehicles.home_branch_id): "vehicles by
// home branch" is by the branch of that link (found from outside: "home"
// not understood). Two links between one pair of tables are roles of
// their own already (semantic.WithRoles).
func (l *lexicon) addQualifiedLinks(m *semantic.Model, scope *probe) {
	for i, r := range m.Relationships {
		if r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne || strings.EqualFold(r.From, r.To) {
			continue
		}
		to := m.Entity(r.To)
		if to == nil || to.Role != nil || !scope.admitsAny(r.FromColumn, nil) {
			continue
		}
		n := 0
		for j, o := range m.Relationships {
			if j != i && strings.EqualFold(o.From, r.From) && strings.EqualFold(o.To, r.To) {
				n++
			}
		}
		if n > 0 {
			continue
		}
		ws := words(r.FromColumn)
		if k := len(ws) - 1; k > 0 && (ws[k] == "id" || ws[k] == "key" || ws[k] == "fk") {
			ws = ws[:k]
		}
		tw := words(to.Name)
		if len(ws) < 2 || len(tw) == 0 || singular(ws[len(ws)-1]) != singular(tw[len(tw)-1]) {
			continue
		}
		qualified := true
		for _, w := range ws[:len(ws)-1] {
			qualified = qualified && len(w) > 2 && !genericWord(w) && !ownNameWord(r.From, w) && !ownNameWord(to.Name, w)
		}
		if !qualified {
			continue
		}
		l.addForms(strings.Join(ws, " "), sense{kind: sEntity, name: to.Name, entity: to.Name, strength: strAlias})
	}
}
