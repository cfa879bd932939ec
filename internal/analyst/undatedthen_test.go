package analyst

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestUndatedThen: rows with no date of their own (grades) whose owner
// has two dates that could date them, asked of an earlier day, are
// refused where some belong to rows dated after it (a grade of an
// enrollment made since), and answered where those later rows have none
// of them (found from outside: every grade average as of
// March refused for 194 enrollments made later, none with a grade).
func TestUndatedThen(t *testing.T) {
	for _, tc := range []struct {
		name, grades string
		refused      bool
	}{
		{"no grade of a later enrollment", "(1, 1, 80)", false},
		{"a grade of a later enrollment", "(1, 1, 80), (2, 2, 60)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := sqliteAnalyst(t, `CREATE TABLE enrollments (id INTEGER PRIMARY KEY, enrolled_on DATE, start_date DATE);
CREATE TABLE grades (id INTEGER PRIMARY KEY, enrollment_id INTEGER REFERENCES enrollments (id), score REAL);
INSERT INTO enrollments VALUES (1, '2026-01-10', '2026-02-01'), (2, '2026-05-01', '2026-09-01');
INSERT INTO grades VALUES `+tc.grades+`;`)
			m := &semantic.Model{
				Entities: []semantic.Entity{
					{Name: "enrollments", Table: "enrollments", PrimaryKey: "id", TimeColumn: "enrolled_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
						{Name: "enrolled_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "start_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}}},
					{Name: "grades", Table: "grades", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
						{Name: "enrollment_id", Type: quarry.TypeInt}, {Name: "score", Type: quarry.TypeFloat}}},
				},
				Relationships: []semantic.Relationship{{From: "grades", FromColumn: "enrollment_id", To: "enrollments", ToColumn: "id", Cardinality: semantic.ManyToOne}},
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
			out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "average score of grades", time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC))
			switch {
			case tc.refused && (err == nil || !strings.Contains(quarry.Message(err), "no date of their own")):
				t.Errorf("%v %+v; want refused, the grades having no date of their own", err, out)
			case !tc.refused && (err != nil || out.Table == nil || out.Table.Rows[0][0] != 80.0):
				t.Errorf("%v %+v; want 80", err, out)
			}
		})
	}
}
