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

// TestSeriesAhead: with no period asked, visits booked ahead of today are
// not ranked or charted as visits that happened (found from outside: "which
// month had the most visits" answered a month of bookings, at 0.85, with a
// warning that it was short). The ranking takes the whole months that are
// over; the series ends today; a table with no rows ahead is as before.
func TestSeriesAhead(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE visits (id INTEGER PRIMARY KEY, visit_date DATE);
CREATE TABLE calls (id INTEGER PRIMARY KEY, called_on DATE);
INSERT INTO visits (visit_date) VALUES ('2026-03-02'), ('2026-03-09'), ('2026-03-16'),
 ('2026-04-01'), ('2026-04-02'), ('2026-04-03'), ('2026-04-04'),
 ('2026-06-10'), ('2026-06-29'),
 ('2026-07-01'), ('2026-07-02'), ('2026-07-03'), ('2026-07-04'), ('2026-07-05');
INSERT INTO calls (called_on) VALUES ('2026-04-01'), ('2026-06-01'), ('2026-06-02');`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "visits", Table: "visits", PrimaryKey: "id", TimeColumn: "visit_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "visit_date", Type: quarry.TypeDate}}},
			{Name: "calls", Table: "calls", PrimaryKey: "id", TimeColumn: "called_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "called_on", Type: quarry.TypeDate}}},
		},
		Metrics: []semantic.Metric{{Name: "visits", Entity: "visits", Expr: "COUNT(visits.id)"}, {Name: "calls", Entity: "calls", Expr: "COUNT(calls.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	k := &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	ask := func(q string) *quarry.Table {
		t.Helper()
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, &memSink{}), k, q, asOf)
		if err != nil || out.Table == nil || len(out.Table.Rows) == 0 {
			t.Fatalf("%q: %v (%s)", q, err, out.Status)
		}
		return out.Table
	}
	month := func(v any) string { d, _ := time.Parse("2006-01-02", v.(string)); return d.Format("2006-01") }
	if tb := ask("which month had the most visits"); month(tb.Rows[0][0]) != "2026-04" || tb.Rows[0][1] != int64(4) {
		t.Errorf("most visits: %v, want 2026-04 with 4 (July's are booked ahead)", tb.Rows)
	}
	if tb := ask("visits by month"); month(tb.Rows[len(tb.Rows)-1][0]) != "2026-06" || tb.Rows[len(tb.Rows)-1][1] != int64(2) {
		t.Errorf("visits by month: last row %v, want 2026-06 with 2", tb.Rows[len(tb.Rows)-1])
	}
	// No call is dated ahead: June, not over, still ranks (with the
	// partial_period warning), as before.
	if tb := ask("which month had the most calls"); month(tb.Rows[0][0]) != "2026-06" {
		t.Errorf("most calls: %v, want 2026-06", tb.Rows)
	}
}
