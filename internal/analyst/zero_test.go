package analyst

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/verify"
)

func zeroModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "courses", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "sections", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "course_id", Type: quarry.TypeInt}, {Name: "term", Type: quarry.TypeText}}},
		},
		Relationships: []semantic.Relationship{{From: "sections", FromColumn: "course_id", To: "courses", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics: []semantic.Metric{
			{Name: "sections", Entity: "sections", Expr: "COUNT(sections.id)", Description: "number of sections"},
			{Name: "fall_sections", Entity: "sections", Expr: "COUNT(sections.id)", Filters: []string{"sections.term = 'fall'"}},
			{Name: "seats", Entity: "sections", Expr: "SUM(sections.seats)"},
			{Name: "avg_seats", Entity: "sections", Expr: "AVG(sections.seats)"},
		},
	}
}

// TestZeroGroupsControl: "courses with fewer than 2 sections" is answered
// only when a control query finds no course without sections; otherwise,
// or when a control cannot decide it, it is refused.
func TestZeroGroupsControl(t *testing.T) {
	m := zeroModel()
	fewer := func(metric string) *semantic.Query {
		return &semantic.Query{Metrics: []string{metric}, Dimensions: []semantic.DimRef{{Name: "courses.id"}, {Name: "courses.name"}},
			Filters: []semantic.Filter{{Field: metric, Op: semantic.OpLt, Values: []any{int64(2)}}}, Hidden: []string{metric}}
	}
	allow := GuardFunc(func(context.Context, string) sqlguard.Verdict { return sqlguard.Verdict{Allowed: true} })
	count := func(n int64) *fakeConn {
		return &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "empty_groups"}}, Rows: [][]any{{n}}}}
	}
	q := fewer("sections")
	zs := verify.ZeroGroupsMissing(m, q)
	if len(zs) != 1 || zs[0].Group != "courses" || zs[0].Counted != "sections" || !strings.Contains(zs[0].Why, "number of sections < 2") {
		t.Fatalf("ZeroGroupsMissing = %+v", zs)
	}

	conn := count(0)
	a := &Analyst{Conn: conn, Guard: allow}
	control, err := a.zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, zs)
	if err != nil || !strings.Contains(control, "every courses has at least one sections") {
		t.Fatalf("no empty group: control %q, err %v", control, err)
	}
	if len(conn.calls) != 1 || !strings.Contains(conn.calls[0], "courses.id NOT IN (SELECT sections.course_id FROM sections WHERE sections.course_id IS NOT NULL)") {
		t.Errorf("control query = %q", conn.calls)
	}
	in := verify.InputFor(m, q, nil, &quarry.Table{Columns: []quarry.Column{{Name: "id"}}, Rows: [][]any{{int64(1)}}}, 1, false)
	in.ZeroGroupsControl = control
	if rep := verify.Run(in); rep.Confidence != 1 {
		t.Errorf("a controlled result lost confidence: %+v", rep)
	}

	_, err = (&Analyst{Conn: count(4), Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, zs)
	if quarry.KindOf(err) != quarry.KindUnanswered || !strings.Contains(err.Error(), "4 courses have no sections") {
		t.Errorf("empty groups exist: %v", err)
	}
	// The control query that was sent is in the run's log, with what it
	// found, even though the question is refused.
	sink := &memSink{}
	(&Analyst{Conn: count(4), Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), sink)), m, q, zs)
	if len(sink.events) != 1 || sink.events[0].Type != event.ChecksRan || !strings.Contains(string(sink.events[0].Data), "NOT IN (SELECT") || !strings.Contains(string(sink.events[0].Data), "→ 4") {
		t.Errorf("recorded %+v; want the failed zero_groups check with the control query", sink.events)
	}
	// A metric with its own filter, or a period, changes which groups are
	// empty: no control can decide it, so it is refused.
	for name, q := range map[string]*semantic.Query{
		"metric filter": fewer("fall_sections"),
		"period": func() *semantic.Query {
			q := fewer("sections")
			q.TimeRange = &semantic.TimeRange{From: "2025-01-01"}
			return q
		}(),
	} {
		conn := count(0)
		_, err := (&Analyst{Conn: conn, Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, verify.ZeroGroupsMissing(m, q))
		if quarry.KindOf(err) != quarry.KindUnanswered || len(conn.calls) != 0 {
			t.Errorf("%s: err %v, %d queries; want a refusal without a control query", name, err, len(conn.calls))
		}
	}
	// The guard decides the control query too.
	deny := GuardFunc(func(context.Context, string) sqlguard.Verdict { return sqlguard.Verdict{Allowed: false} })
	conn = count(0)
	if _, err := (&Analyst{Conn: conn, Guard: deny}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, zs); err == nil || len(conn.calls) != 0 {
		t.Errorf("a refused control query ran or was trusted: %v", err)
	}
}

// TestKnownValuesControl: "the course with the fewest sections", where
// the knowledge lists the course names, is answered when the ranking
// without its limit has every name, refused when one has none, and the
// check names the control query it sent either way.
func TestKnownValuesControl(t *testing.T) {
	m := zeroModel()
	m.Entities[0].Columns[1].Values = []string{"Art", "Biology"}
	q := &semantic.Query{Metrics: []string{"sections"}, Dimensions: []semantic.DimRef{{Name: "courses.name"}},
		Order: []semantic.Order{{Field: "sections"}}, Limit: 1}
	zs := verify.ZeroGroupsMissing(m, q)
	if len(zs) != 1 {
		t.Fatalf("ZeroGroupsMissing = %+v", zs)
	}
	allow := GuardFunc(func(context.Context, string) sqlguard.Verdict { return sqlguard.Verdict{Allowed: true} })
	groups := func(names ...string) *fakeConn {
		tb := &quarry.Table{Columns: []quarry.Column{{Name: "name", Type: quarry.TypeText}, {Name: "sections", Type: quarry.TypeInt}}}
		for _, n := range names {
			tb.Rows = append(tb.Rows, []any{n, int64(3)})
		}
		return &fakeConn{table: tb}
	}
	conn := groups("Art", "Biology")
	control, err := (&Analyst{Conn: conn, Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, zs)
	if err != nil || len(conn.calls) != 1 || strings.Contains(conn.calls[0], "LIMIT") {
		t.Fatalf("every course has sections: control %q, err %v, sent %q", control, err, conn.calls)
	}
	if !strings.Contains(control, "control query: "+conn.calls[0]) {
		t.Errorf("the control does not name the query it sent: %q", control)
	}
	sink := &memSink{}
	conn = groups("Art")
	_, err = (&Analyst{Conn: conn, Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), sink)), m, q, zs)
	if quarry.KindOf(err) != quarry.KindUnanswered || !strings.Contains(err.Error(), "Biology") {
		t.Errorf("a course without sections: %v", err)
	}
	var ran event.ChecksRanData
	if len(sink.events) != 1 || len(conn.calls) != 1 || json.Unmarshal(sink.events[0].Data, &ran) != nil || len(ran.Checks) != 1 || !strings.Contains(ran.Checks[0].Detail, "control query: "+conn.calls[0]) {
		t.Errorf("recorded %+v; want the failed zero_groups check with the control query %q", ran, conn.calls)
	}
	// A whole list lowest first under a condition ("fall sections by
	// course, fewest first") is decided the same way.
	list := *q
	list.Limit, list.Filters = 0, []semantic.Filter{{Field: "sections.term", Op: semantic.OpEq, Values: []any{"fall"}}}
	if zs := verify.ZeroGroupsMissing(m, &list); len(zs) != 1 {
		t.Fatalf("ZeroGroupsMissing(list) = %+v", zs)
	}
	conn = groups("Art", "Biology")
	if _, err := (&Analyst{Conn: conn, Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, &list, verify.ZeroGroupsMissing(m, &list)); err != nil || len(conn.calls) != 1 {
		t.Errorf("a whole list where every course has sections: %v, sent %q", err, conn.calls)
	}
}

// TestZeroGroupsMissing: only a count grouped by another entity with a
// condition that admits zero is reported.
func TestZeroGroupsMissing(t *testing.T) {
	m := zeroModel()
	for _, tt := range []struct {
		op   semantic.Op
		v    any
		dim  string
		want bool
	}{
		{semantic.OpLt, int64(2), "courses.name", true},
		{semantic.OpLe, int64(0), "courses.name", true},
		{semantic.OpEq, int64(0), "courses.name", true},
		{semantic.OpLt, int64(0), "courses.name", false}, // nothing is below zero
		{semantic.OpGt, int64(1), "courses.name", false},
		{semantic.OpGe, int64(1), "courses.name", false},
		{semantic.OpEq, int64(3), "courses.name", false},
		{semantic.OpLt, int64(2), "sections.term", false}, // grouped by the counted entity itself
	} {
		q := &semantic.Query{Metrics: []string{"sections"}, Dimensions: []semantic.DimRef{{Name: tt.dim}},
			Filters: []semantic.Filter{{Field: "sections", Op: tt.op, Values: []any{tt.v}}}}
		if got := len(verify.ZeroGroupsMissing(m, q)) > 0; got != tt.want {
			t.Errorf("sections %s %v by %s: reported %v, want %v", tt.op, tt.v, tt.dim, got, tt.want)
		}
	}
	// A sum that admits zero misses the groups with none too ("courses
	// with fewer than 100 seats"); an average is not compared with zero.
	for metric, want := range map[string]bool{"seats": true, "avg_seats": false} {
		q := &semantic.Query{Metrics: []string{metric}, Dimensions: []semantic.DimRef{{Name: "courses.name"}},
			Filters: []semantic.Filter{{Field: metric, Op: semantic.OpLt, Values: []any{int64(100)}}}}
		if got := len(verify.ZeroGroupsMissing(m, q)) > 0; got != want {
			t.Errorf("%s < 100 by course: reported %v, want %v", metric, got, want)
		}
	}
}

// TestZeroGroupsInRankings: ranking from the lowest count ("the course
// with the fewest sections", "the department with the fewest sections")
// misses the groups with none, an entity's rows or an attribute's values
// alike (found from outside: "which department has the fewest tickets"
// named a department with 274 while six had none); ranking from the
// highest does not.
func TestZeroGroupsInRankings(t *testing.T) {
	m := zeroModel()
	m.Entities[0].Columns = append(m.Entities[0].Columns, semantic.Column{Name: "dept", Type: quarry.TypeText})
	rank := func(desc bool, dims ...string) *semantic.Query {
		q := &semantic.Query{Metrics: []string{"sections"}, Order: []semantic.Order{{Field: "sections", Desc: desc}}, Limit: 3}
		for _, d := range dims {
			q.Dimensions = append(q.Dimensions, semantic.DimRef{Name: d})
		}
		return q
	}
	for _, tt := range []struct {
		name string
		q    *semantic.Query
		want bool
	}{
		{"fewest, by course", rank(false, "courses.id", "courses.name"), true},
		{"most, by course", rank(true, "courses.id", "courses.name"), false},
		{"fewest, by department", rank(false, "courses.dept"), true},
		{"fewest, no limit", func() *semantic.Query { q := rank(false, "courses.id"); q.Limit = 0; return q }(), false},
		// "which month had the fewest sections last year": a month with
		// none has no row (an outside tester got the one month that had
		// any, the most, as the fewest).
		{"fewest, by month in a period", func() *semantic.Query {
			q := &semantic.Query{Metrics: []string{"sections"}, Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}},
				TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}, Order: []semantic.Order{{Field: "sections"}}, Limit: 1}
			return q
		}(), true},
		// "worst selling products last month": a whole list lowest first
		// over a period (an outside tester read "lowest with 1" while 18
		// products sold none).
		{"fewest, no limit, in a period", func() *semantic.Query {
			q := rank(false, "courses.id")
			q.Limit, q.TimeRange = 0, &semantic.TimeRange{From: "2025-01-01", To: "2025-02-01"}
			return q
		}(), true},
	} {
		zs := verify.ZeroGroupsMissing(m, tt.q)
		if got := len(zs) > 0; got != tt.want {
			t.Errorf("%s: reported %v, want %v", tt.name, got, tt.want)
		}
		if tt.want && !strings.Contains(zs[0].Why, "missing from the bottom") {
			t.Errorf("%s: %q", tt.name, zs[0].Why)
		}
	}
	// With no other condition the control query decides it.
	conn := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "empty_groups"}}, Rows: [][]any{{int64(0)}}}}
	allow := GuardFunc(func(context.Context, string) sqlguard.Verdict { return sqlguard.Verdict{Allowed: true} })
	q := rank(false, "courses.id", "courses.name")
	if c, err := (&Analyst{Conn: conn, Guard: allow}).zeroGroupsControl(context.Background(), NewEmitter(event.NewRecorder("r_z", fixedClock(), &memSink{})), m, q, verify.ZeroGroupsMissing(m, q)); err != nil || c == "" {
		t.Errorf("control of a ranking: %q, %v", c, err)
	}
}
