package analyst

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func shopKnowledge() *Knowledge {
	m := &semantic.Model{
		Entities: []semantic.Entity{{
			Name: "orders", Table: "orders", PrimaryKey: "id", TimeColumn: "ordered_at",
			Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeTimestamp},
				{Name: "channel", Type: quarry.TypeText, Values: []string{"web", "store"}},
				{Name: "email", Type: quarry.TypeText},
			},
		}},
		Metrics:    []semantic.Metric{{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)", Format: "integer"}},
		Restricted: []string{"orders.email"},
	}
	return &Knowledge{Model: m, Planner: planner.New(m, nil), Hash: "test"}
}

func TestAskAnswersAndRecords(t *testing.T) {
	conn := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "orders", Type: quarry.TypeInt}}, Rows: [][]any{{int64(42)}}}}
	sink := &memSink{}
	a := newAnalyst(conn)
	out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, sink), shopKnowledge(), "how many orders from the web channel", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// The answer's one query, besides the controls that count rows
	// dated after today (none here).
	calls := slices.DeleteFunc(slices.Clone(conn.calls), func(sql string) bool { return strings.Contains(sql, aheadName) })
	if len(calls) != 1 || !strings.Contains(calls[0], "'web'") {
		t.Fatalf("SQL: %q", conn.calls)
	}
	if !strings.Contains(out.Answer.Markdown, "42") || out.Report.Confidence <= 0 {
		t.Errorf("answer %q, confidence %v", out.Answer.Markdown, out.Report.Confidence)
	}
	st, err := event.Fold(sink.events)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != event.StatusSucceeded || st.Question == "" || st.Answer == "" || st.Confidence == nil || st.Knowledge != "test" {
		t.Errorf("folded state: %+v", st)
	}
}

func TestAskRefusesWithoutTouchingTheDatabase(t *testing.T) {
	for _, c := range []struct {
		question string
		kind     quarry.Kind
		status   string
	}{
		{"list the email of orders", quarry.KindForbidden, event.StatusRejected},
		{"delete all orders", quarry.KindForbidden, event.StatusRejected},
		{"how many unicorns", quarry.KindUnanswered, event.StatusUnanswered},
	} {
		conn := &fakeConn{}
		sink := &memSink{}
		a := newAnalyst(conn)
		out, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, sink), shopKnowledge(), c.question, time.Now())
		if quarry.KindOf(err) != c.kind {
			t.Errorf("%q: err %v, want kind %s", c.question, err, c.kind)
		}
		if len(conn.calls) != 0 || out.SQL != "" {
			t.Errorf("%q: ran %q", c.question, conn.calls)
		}
		st, _ := event.Fold(sink.events)
		if st.Status != c.status {
			t.Errorf("%q: status %s, want %s", c.question, st.Status, c.status)
		}
	}
}

// dropsFilter plans every question as all orders, whatever it names: a
// planner that misreads.
type dropsFilter struct{}

func (dropsFilter) Plan(string, time.Time) *planner.Plan {
	return &planner.Plan{Kind: planner.KindMetric, Query: &semantic.Query{Metrics: []string{"orders"}}, Title: "Orders"}
}

// TestAskRefusesAReadingThatDropsPartOfTheQuestion: a plan that leaves
// out the value the question names is refused before anything runs, with
// the check that found it recorded.
func TestAskRefusesAReadingThatDropsPartOfTheQuestion(t *testing.T) {
	k := shopKnowledge()
	k.Planner = dropsFilter{}
	conn := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "orders", Type: quarry.TypeInt}}, Rows: [][]any{{int64(42)}}}}
	sink := &memSink{}
	a := newAnalyst(conn)
	_, err := a.Ask(context.Background(), event.NewRecorder("r1", a.Clock, sink), k, "how many orders from the web channel", time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	if quarry.KindOf(err) != quarry.KindUnanswered || !strings.Contains(quarry.Message(err), "'web'") {
		t.Fatalf("err = %v, want unanswered naming 'web'", err)
	}
	if len(conn.calls) != 0 {
		t.Errorf("the database was queried: %q", conn.calls)
	}
	st, err := event.Fold(sink.events)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Checks) == 0 || st.Checks[0].Name != "question_coverage" || st.Checks[0].Status != "fail" {
		t.Errorf("recorded checks: %+v", st.Checks)
	}
}

// TestTieCheck: a ranking whose limit cuts a tie says so (found from
// outside: "which department has the most employees" named one of two
// departments with 15).
func TestTieCheck(t *testing.T) {
	k := shopKnowledge()
	k.Model.Dimensions = []semantic.Dimension{{Name: "channel", Entity: "orders", Expr: "orders.channel"}}
	q := &semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "channel"}}, Order: []semantic.Order{{Field: "orders", Desc: true}}, Limit: 1}
	tied := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "channel", Type: quarry.TypeText}, {Name: "orders", Type: quarry.TypeInt}},
		Rows: [][]any{{"web", int64(5)}, {"store", int64(5)}}}}
	c := newAnalyst(tied).TieCheck(context.Background(), k.Model, q)
	if c.Status != "warn" || !strings.Contains(c.Detail, "store ties web at 5") {
		t.Errorf("a tie cut by the limit: %+v", c)
	}
	if len(tied.calls) != 1 || !strings.Contains(tied.calls[0], "quarry_rank <= 1") {
		t.Errorf("the control reads every row that ties the last one kept: %q", tied.calls)
	}
	// Several rows tie; the answer showed one of them, and the others
	// are named whatever order the control lists them in.
	three := &fakeConn{table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"mobile", int64(5)}, {"store", int64(5)}, {"web", int64(5)}}}}
	shownWeb := &Result{Table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"web", int64(5)}}}}
	c, names := newAnalyst(three).tieCheck(context.Background(), k.Model, q, shownWeb)
	if c.Status != "warn" || !strings.Contains(c.Detail, "mobile and store tie web at 5") || strings.Join(names, ",") != "mobile,store" {
		t.Errorf("three tied, web shown: %+v %v", c, names)
	}
	// Several rows the answer shows share the boundary with rows it
	// leaves out ("the newest 5 customers", 7 of whom signed up on the
	// last day): no one row shown is named as the one tied.
	four := &fakeConn{table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"app", int64(5)}, {"mobile", int64(5)}, {"store", int64(5)}, {"web", int64(5)}}}}
	shownTwo := &Result{Table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"web", int64(5)}, {"app", int64(5)}}}}
	two := *q
	two.Limit = 2
	if c4, names := newAnalyst(four).tieCheck(context.Background(), k.Model, &two, shownTwo); c4.Status != "warn" || !strings.Contains(c4.Detail, "mobile and store also have 5 on orders, as do 2 of the rows shown; the limit of 2 left them out") || strings.Join(names, ",") != "mobile,store" {
		t.Errorf("four tied, two shown: %+v %v", c4, names)
	}
	// Two rows share a name: the one shown above the boundary is not the
	// one tied at it (found from outside: a second Reese Dunn, left out at
	// 6, was taken for the Reese Dunn shown at 6.5).
	named := &fakeConn{table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"reese", int64(7)}, {"drew", int64(5)}, {"reese", int64(5)}, {"kit", int64(5)}}}}
	shownTop := &Result{Table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"reese", int64(7)}, {"drew", int64(5)}}}}
	if c5, names := newAnalyst(named).tieCheck(context.Background(), k.Model, &two, shownTop); c5.Status != "warn" || !strings.Contains(c5.Detail, "reese and kit tie drew at 5") || strings.Join(names, ",") != "reese,kit" {
		t.Errorf("a name shown above the boundary, tied below it: %+v %v", c5, names)
	}
	// The control query reaches the user's database, so the run's record
	// names it, whatever it found.
	if len(tied.calls) == 1 && !strings.Contains(c.Detail, "control query: "+tied.calls[0]) {
		t.Errorf("the tie check does not name the query it sent: %q", c.Detail)
	}
	// A list sorted and cut ("the 2 earliest orders") reads the sort
	// column one row past the limit too.
	list := &semantic.Query{Rows: &semantic.RowsQuery{Entity: "orders", Columns: []string{"channel"}}, Order: []semantic.Order{{Field: "orders.ordered_at"}}, Limit: 1}
	tiedList := &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: "channel", Type: quarry.TypeText}, {Name: "ordered_at", Type: quarry.TypeText}},
		Rows: [][]any{{"web", "2026-01-01"}, {"store", "2026-01-01"}}}}
	if c := newAnalyst(tiedList).TieCheck(context.Background(), k.Model, list); c.Status != "warn" || !strings.Contains(c.Detail, "store ties web at 2026-01-01") || len(tiedList.calls) != 1 || !strings.Contains(tiedList.calls[0], "orders.ordered_at") {
		t.Errorf("a tie cut from a list: %+v, sent %q", c, tiedList.calls)
	}
	apart := &fakeConn{table: &quarry.Table{Columns: tied.table.Columns, Rows: [][]any{{"web", int64(7)}, {"store", int64(5)}}}}
	if c := newAnalyst(apart).TieCheck(context.Background(), k.Model, q); c.Status != "pass" || len(apart.calls) != 1 || !strings.Contains(c.Detail, "control query: "+apart.calls[0]) {
		t.Errorf("no tie: %+v, sent %q", c, apart.calls)
	}
}
