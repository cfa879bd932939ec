package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestOnAverage: "how many lessons did each student have on average" is
// the average number of lessons per student (found from outside: "an
// average of nothing named after it"); with a period it is refused as
// the average per student with a period is; a question of another shape
// is not read so.
func TestOnAverage(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "students", Table: "students", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
			}},
			{Name: "lessons", Table: "lessons", PrimaryKey: "id", TimeColumn: "held_on", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "student_id", Type: quarry.TypeInt},
				{Name: "held_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			}},
		},
		Relationships: []semantic.Relationship{{Name: "student", From: "lessons", FromColumn: "student_id", To: "students", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, q := range []string{
		"how many lessons did each student have on average",
		"on average how many lessons does a student have",
		"how many lessons did students take on average",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || !strings.HasSuffix(pl.Query.Metrics[0], "_per_student") {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	for _, q := range []string{
		"on average, how many lessons did each student take last month",
		"how many lessons on average",
	} {
		if pl := p.Plan(q, asOf); pl.Kind == KindMetric {
			t.Errorf("%q: answered %+v", q, pl.Query)
		}
	}
}
