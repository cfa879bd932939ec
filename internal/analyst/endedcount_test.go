package analyst

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestEndedInACount: asked as of an earlier day, the rows a count counts
// are those not deleted by then: "owners with more than 1 pet" as of
// June 10th counts a pet deleted on June 20th (found from outside: 115
// for 119, the owners whose pets were deleted after the day left out).
func TestEndedInACount(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE owners (id INTEGER PRIMARY KEY, full_name TEXT);
CREATE TABLE pets (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owners (id), name TEXT, created_at TEXT, deleted_at TEXT);
INSERT INTO owners VALUES (1, 'Ann'), (2, 'Ben');
INSERT INTO pets VALUES (1, 1, 'Rex', '2026-01-01', NULL), (2, 1, 'Tom', '2026-01-02', '2026-06-20'),
	(3, 2, 'Kit', '2026-01-03', NULL), (4, 2, 'Bo', '2026-01-04', '2026-05-01');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "owners", Table: "owners", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "pets", Table: "pets", PrimaryKey: "id", Label: "name", TimeColumn: "created_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "owner_id", Type: quarry.TypeInt},
				{Name: "name", Type: quarry.TypeText},
				{Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
				{Name: "deleted_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "pets", FromColumn: "owner_id", To: "owners", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	for _, c := range []struct {
		asOf time.Time
		want int64
	}{
		{time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), 1}, // Ann: Rex and Tom, deleted later
		{time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC), 0},
	} {
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, "how many owners have more than 1 pet", c.asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) != 1 || out.Table.Rows[0][0] != c.want {
			sql := ""
			if out != nil {
				sql = out.SQL
			}
			t.Errorf("as of %s: %v %+v; want %d\n%s", c.asOf.Format("2006-01-02"), err, out, c.want, sql)
		}
	}
}
