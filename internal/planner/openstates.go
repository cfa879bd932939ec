package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// openStates asks which rows are meant where a question says "open" of
// rows whose status column holds 'open' beside other states that are not
// over either (in_progress, on_hold, pending, new) and states that are
// (closed, cancelled, resolved): the rows whose status is 'open' itself,
// or every row not closed (found from outside: "how many maintenance
// requests are open" counted 142 of the 425 not closed, "open tickets by
// team" a seventh of them, at 1.00). Each option is the question said
// plainly: "… are 'open'" (the value quoted, which is not asked again)
// and "… are not closed or cancelled".
func (p *Planner) openStates(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	m := pl.over(p.m)
	for _, f := range pl.Query.Filters {
		if f.Op != semantic.OpEq || len(f.Values) != 1 || !strings.EqualFold(fmt.Sprint(f.Values[0]), "open") {
			continue
		}
		fl, ok := m.ColumnField(f.Field)
		if !ok {
			continue
		}
		var pending, over []string
		for _, v := range fl.Column.Values {
			switch w := strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(v)); {
			case w == "open":
			case slices.Contains(overStates, w):
				over = append(over, v)
			case slices.Contains(pendingStates, w):
				pending = append(pending, v)
			}
		}
		loc := openWordRE().FindStringSubmatchIndex(question)
		if len(pending) == 0 || len(over) == 0 || loc == nil {
			continue
		}
		at, end := loc[2], loc[3]
		quoted := question[:at] + "'" + question[at:end] + "'" + question[end:]
		notOver := question[:at] + "not " + strings.Join(over, " or ") + question[end:]
		things := display(fl.Entity.Name)
		return clarify(fmt.Sprintf("Only the %s whose %s is 'open', or every one not %s (%s too)?", things, display(fl.Column.Name), strings.Join(over, " or "), strings.Join(pending, ", ")),
			quoted, notOver)
	}
	return pl
}

// openWordRE finds "open" as a word, not quoted.
var openWordRE = lazyRE(`(?i)(?:^|[^\pL\pN'"])(open)(?:$|[^\pL\pN'"])`)

// overStates are statuses of rows whose business is over; pendingStates
// of rows whose business is not, other than 'open' itself.
var (
	overStates    = []string{"closed", "cancelled", "canceled", "resolved", "solved", "fulfilled", "delivered", "done", "completed", "complete", "rejected", "declined", "void", "voided", "archived", "expired", "won", "lost", "withdrawn", "finished", "fixed", "duplicate"}
	pendingStates = []string{"new", "pending", "in progress", "on hold", "waiting", "assigned", "reopened", "escalated", "in review", "triage", "backlog", "todo", "to do", "awaiting", "blocked", "acknowledged", "scheduled", "waiting on customer"}
)
