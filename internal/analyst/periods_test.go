package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// firstLastConn answers the periods control's MIN and MAX of a date with
// first and last, and any other query with its table.
type firstLastConn struct {
	fakeConn
	first, last string
}

func (f *firstLastConn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if strings.Contains(sql, "quarry_first_day") {
		f.calls = append(f.calls, sql)
		return &tableRows{t: &quarry.Table{Columns: []quarry.Column{{Name: "quarry_first_day"}, {Name: "quarry_last_day"}}, Rows: [][]any{{f.first, f.last}}}, i: -1}, nil
	}
	return f.fakeConn.Query(ctx, sql, opts)
}

// TestPeriodsControl: a ranking of periods from the lowest ("which month
// last year had the fewest orders", "the worst year for revenue", whose
// metric keeps only completed orders) is answered when the same query
// without its limit has every period the range, or the data, spans, and
// refused, naming them, when some period has nothing to count.
func TestPeriodsControl(t *testing.T) {
	k := shopKnowledge()
	m := k.Model
	m.Entities[0].Columns = append(m.Entities[0].Columns, semantic.Column{Name: "status", Type: quarry.TypeText})
	m.Metrics[0].Time = "orders.ordered_at"
	m.Metrics = append(m.Metrics, semantic.Metric{Name: "completed_orders", Entity: "orders", Expr: "COUNT(orders.id)", Time: "orders.ordered_at", Filters: []string{"orders.status = 'completed'"}})
	months := func(days ...string) *quarry.Table {
		tb := &quarry.Table{Columns: []quarry.Column{{Name: "month", Type: quarry.TypeText}, {Name: "orders", Type: quarry.TypeInt}}}
		for _, d := range days {
			tb.Rows = append(tb.Rows, []any{d, int64(3)})
		}
		return tb
	}
	var year []string
	for _, mo := range []string{"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"} {
		year = append(year, "2025-"+mo+"-01")
	}
	lastYear := &semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}},
		TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}, Order: []semantic.Order{{Field: "orders"}}, Limit: 1, Hidden: []string{"orders"}}
	zs := verify.ZeroGroupsMissing(m, lastYear)
	if len(zs) != 1 {
		t.Fatalf("ZeroGroupsMissing = %+v", zs)
	}
	run := func(conn *firstLastConn, q *semantic.Query) (string, *memSink, error) {
		sink := &memSink{}
		a := newAnalyst(&conn.fakeConn)
		a.Conn = conn
		c, err := a.zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_p", fixedClock(), sink)), m, q, verify.ZeroGroupsMissing(m, q))
		return c, sink, err
	}
	conn := &firstLastConn{fakeConn: fakeConn{table: months(year...)}}
	control, _, err := run(conn, lastYear)
	if err != nil || len(conn.calls) != 1 || strings.Contains(conn.calls[0], "LIMIT") || !strings.Contains(control, "12 of the 12 months from 2025-01-01 to 2025-12-31") || !strings.Contains(control, "control query: "+conn.calls[0]) {
		t.Fatalf("every month has orders: control %q, err %v, sent %q", control, err, conn.calls)
	}
	conn = &firstLastConn{fakeConn: fakeConn{table: months(append(year[:3:3], year[4:]...)...)}}
	_, sink, err := run(conn, lastYear)
	if quarry.KindOf(err) != quarry.KindUnanswered || !strings.Contains(err.Error(), "1 have none: 2025-04-01") || len(sink.events) != 1 {
		t.Errorf("April has none: %v (%d events)", err, len(sink.events))
	}
	// A period it does not expect (another grain, another range): it
	// cannot tell, and refuses.
	conn = &firstLastConn{fakeConn: fakeConn{table: months(append(year, "2024-12-01")...)}}
	if _, _, err := run(conn, lastYear); quarry.KindOf(err) != quarry.KindUnanswered {
		t.Errorf("an unexpected period: %v", err)
	}

	// Without a range, the periods are those of the data's first to last
	// day; the metric's own filter makes no difference.
	worstYear := &semantic.Query{Metrics: []string{"completed_orders"}, Dimensions: []semantic.DimRef{{Name: "year", Grain: semantic.GrainYear}},
		Order: []semantic.Order{{Field: "completed_orders"}}, Limit: 1}
	years := &quarry.Table{Columns: []quarry.Column{{Name: "year", Type: quarry.TypeText}, {Name: "completed_orders", Type: quarry.TypeInt}},
		Rows: [][]any{{"2023-01-01", int64(1)}, {"2024-01-01", int64(2)}, {"2025-01-01", int64(3)}}}
	conn = &firstLastConn{fakeConn: fakeConn{table: years}, first: "2023-07-01 09:00:00", last: "2025-06-30 23:00:00"}
	control, _, err = run(conn, worstYear)
	if err != nil || len(conn.calls) != 2 || !strings.Contains(control, "3 of the 3 years from the data's first day of orders.ordered_at, 2023-07-01, to its last, 2025-06-30") {
		t.Fatalf("every year has completed orders: control %q, err %v, sent %q", control, err, conn.calls)
	}
	conn = &firstLastConn{fakeConn: fakeConn{table: years}, first: "2023-07-01", last: "2026-01-02"}
	if _, _, err := run(conn, worstYear); quarry.KindOf(err) != quarry.KindUnanswered || !strings.Contains(err.Error(), "2026-01-01") {
		t.Errorf("2026 has orders but no completed one: %v", err)
	}
}
