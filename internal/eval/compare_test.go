package eval

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func tab(cols int, rows ...[]any) *quarry.Table {
	t := &quarry.Table{Columns: make([]quarry.Column, cols), Rows: rows}
	return t
}

func row(v ...any) []any { return v }

func TestCompare(t *testing.T) {
	tests := []struct {
		name      string
		gold, got *quarry.Table
		opts      CompareOptions
		want      Match
	}{
		{"equal", tab(1, row(int64(3))), tab(1, row(int64(3))), CompareOptions{}, Match{OK: true}},
		{"int equals float", tab(1, row(int64(1))), tab(1, row(1.0)), CompareOptions{}, Match{OK: true}},
		{"numeric text", tab(1, row("2014")), tab(1, row(int64(2014))), CompareOptions{}, Match{OK: true}},
		{"bool is 0/1", tab(1, row(int64(1))), tab(1, row(true)), CompareOptions{}, Match{OK: true}},
		{"text is not a number", tab(1, row("abc")), tab(1, row(int64(0))), CompareOptions{}, Match{Reason: ReasonWrongResult}},
		{"within tolerance", tab(1, row(1000.0)), tab(1, row(1000.0005)), CompareOptions{}, Match{OK: true}},
		{"beyond tolerance", tab(1, row(1000.0)), tab(1, row(1000.01)), CompareOptions{}, Match{Reason: ReasonWrongResult}},
		{"stated tolerance", tab(1, row(1000.0)), tab(1, row(1000.01)), CompareOptions{RelTolerance: 1e-4}, Match{OK: true}},
		{"absolute near zero", tab(1, row(0.0)), tab(1, row(1e-12)), CompareOptions{}, Match{OK: true}},
		{"null", tab(1, row(nil)), tab(1, row(nil)), CompareOptions{}, Match{OK: true}},
		{"null is not zero", tab(1, row(nil)), tab(1, row(int64(0))), CompareOptions{}, Match{Reason: ReasonWrongResult}},
		{"multiset order", tab(2, row("a", int64(1)), row("b", int64(2))), tab(2, row("b", int64(2)), row("a", int64(1))), CompareOptions{}, Match{OK: true}},
		{"ordered", tab(2, row("a", int64(1)), row("b", int64(2))), tab(2, row("b", int64(2)), row("a", int64(1))), CompareOptions{Ordered: true}, Match{Reason: ReasonWrongResult}},
		{"duplicates count", tab(1, row("a"), row("a"), row("b")), tab(1, row("a"), row("b"), row("b")), CompareOptions{}, Match{Reason: ReasonWrongResult}},
		{"row count", tab(1, row("a")), tab(1, row("a"), row("a")), CompareOptions{}, Match{Reason: ReasonWrongRowCount}},
		{"column permutation", tab(2, row("a", int64(1)), row("b", int64(2))), tab(2, row(int64(1), "a"), row(int64(2), "b")), CompareOptions{}, Match{OK: true}},
		{"permutation with equal column multisets",
			tab(2, row(int64(1), int64(2)), row(int64(2), int64(1)), row(int64(1), int64(1))),
			tab(2, row(int64(2), int64(1)), row(int64(1), int64(2)), row(int64(1), int64(1))),
			CompareOptions{Ordered: true}, Match{OK: true}},
		{"rows not just columns", tab(2, row("a", int64(1)), row("b", int64(2))), tab(2, row("a", int64(2)), row("b", int64(1))), CompareOptions{}, Match{Reason: ReasonWrongResult}},
		{"too few columns", tab(2, row("a", int64(1))), tab(1, row("a")), CompareOptions{}, Match{Reason: ReasonWrongColumns}},
		{"extra columns refused", tab(1, row(int64(1))), tab(2, row("x", int64(1))), CompareOptions{}, Match{Reason: ReasonWrongColumns}},
		{"extra columns allowed", tab(1, row(int64(1)), row(int64(2))), tab(2, row("x", int64(1)), row("y", int64(2))), CompareOptions{ExtraColumns: true}, Match{OK: true, Extra: 1}},
		{"extra columns must hold the rows", tab(2, row("a", int64(1)), row("b", int64(2))), tab(3, row("a", int64(2), "z"), row("b", int64(1), "z")), CompareOptions{ExtraColumns: true}, Match{Reason: ReasonWrongResult}},
		{"month label", tab(2, row("2025-01-01", 5.0)), tab(2, row("2025-01", 5.0)), CompareOptions{}, Match{OK: true}},
		{"empty both", tab(2), tab(2), CompareOptions{}, Match{OK: true}},
		{"float sort fallback", tab(2, row(1.0, "b"), row(1.0000000001, "a")), tab(2, row(1.0000000001, "b"), row(1.0, "a")), CompareOptions{}, Match{OK: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.gold, tt.got, tt.opts)
			got.Detail = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Compare mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// script is a System that answers from a table of outcomes.
type script map[string]Outcome

func (s script) Answer(_ context.Context, q string, _ time.Time) (Outcome, error) {
	o, ok := s[q]
	if !ok {
		return Outcome{}, quarry.Errorf(quarry.KindInternal, "no scripted answer for %q", q)
	}
	return o, nil
}

// tables is a Querier that serves fixed tables by SQL.
type tables map[string]*quarry.Table

func (q tables) Dialect() quarry.Dialect { return quarry.DialectSQLite }

func (q tables) Query(_ context.Context, sql string, _ connector.QueryOptions) (quarry.Rows, error) {
	t, ok := q[sql]
	if !ok {
		return nil, quarry.Errorf(quarry.KindQuery, "no such table: %s", sql)
	}
	return &tableRows{t: t, i: -1}, nil
}

type tableRows struct {
	t *quarry.Table
	i int
}

func (r *tableRows) Columns() []quarry.Column { return r.t.Columns }
func (r *tableRows) Next() bool               { r.i++; return r.i < len(r.t.Rows) }
func (r *tableRows) Values() []any            { return r.t.Rows[r.i] }
func (r *tableRows) Err() error               { return nil }
func (r *tableRows) Close() error             { return nil }

func TestRunGrades(t *testing.T) {
	q := tables{
		"SELECT 1": tab(1, row(int64(1))),
		"SELECT 2": tab(1, row(int64(2))),
	}
	sys := script{
		"right":       {Kind: OutcomeAnswered, SQL: "x", Table: tab(1, row(1.0))},
		"wrong":       {Kind: OutcomeAnswered, SQL: "x", Table: tab(1, row(int64(3)))},
		"refused":     {Kind: OutcomeUnanswered, Message: "unknown word"},
		"should-not":  {Kind: OutcomeAnswered, SQL: "x", Table: tab(1, row(int64(1)))},
		"did-not":     {Kind: OutcomeRefused, Message: "restricted"},
		"other-kind":  {Kind: OutcomeUnanswered},
		"sys-error":   {Kind: OutcomeError, Message: "no such column"},
		"sys-timeout": {Kind: OutcomeError, ErrKind: quarry.KindTimeout},
		"gold-broken": {Kind: OutcomeAnswered, Table: tab(1, row(int64(1)))},
		"rows-right":  {Kind: OutcomeAnswered, Table: tab(2, row("b", int64(2)), row("a", int64(1)))},
		// "answer-error" is not in the script: Answer returns an error.
	}
	set := &Set{Cases: []Case{
		{ID: "1", Question: "right", SQL: "SELECT 1"},
		{ID: "2", Question: "wrong", SQL: "SELECT 1"},
		{ID: "3", Question: "refused", SQL: "SELECT 1"},
		{ID: "4", Question: "should-not", Expect: ExpectRefuse},
		{ID: "5", Question: "did-not", Expect: ExpectRefuse},
		{ID: "6", Question: "other-kind", Expect: ExpectRefuse},
		{ID: "7", Question: "sys-error", SQL: "SELECT 1"},
		{ID: "8", Question: "sys-timeout", SQL: "SELECT 1"},
		{ID: "9", Question: "gold-broken", SQL: "SELECT nope"},
		{ID: "10", Question: "rows-right", Rows: [][]any{{"a", int64(1)}, {"b", int64(2)}}, HasRows: true},
		{ID: "11", Question: "answer-error", SQL: "SELECT 2"},
	}}
	rs, err := Run(context.Background(), sys, q, set, Options{AsOf: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	type grade struct {
		ID     string
		Status Status
		Reason Reason
	}
	var got []grade
	for _, r := range rs {
		got = append(got, grade{r.ID, r.Status, r.Reason})
	}
	want := []grade{
		{"1", StatusCorrect, ""},
		{"2", StatusWrong, ReasonWrongResult},
		{"3", StatusRefused, ReasonRefused},
		{"4", StatusWrong, ReasonShouldRefuse},
		{"5", StatusCorrect, ""},
		{"6", StatusCorrect, ""},
		{"7", StatusError, ReasonError},
		{"8", StatusTimeout, ReasonTimeout},
		{"9", StatusGoldError, ReasonGoldError},
		{"10", StatusCorrect, ""},
		{"11", StatusError, ReasonError},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("grades mismatch (-want +got):\n%s", diff)
	}
	s := Summarize(rs)
	if s.Total != 11 || s.Correct != 4 || s.Answered != 5 || s.AnsweredCorrect != 2 || s.Refusals != 3 ||
		len(s.Wrong) != 2 || len(s.Refused) != 1 || len(s.Failed) != 4 || len(s.Expected) != 2 {
		t.Errorf("Summarize = %+v", s)
	}
	if s.Accuracy != 4.0/11 || s.AnsweredAccuracy != 2.0/5 || s.RefusalRate != 3.0/11 {
		t.Errorf("ratios = %v %v %v", s.Accuracy, s.AnsweredAccuracy, s.RefusalRate)
	}
	if rs[5].Detail == "" {
		t.Error("an expected refusal given as another kind should say so in Detail")
	}
}

// TestCalibration: answers are counted in their confidence band, with how
// many were right; refusals and errors are not answers.
func TestCalibration(t *testing.T) {
	s := Summarize([]Result{
		{Outcome: OutcomeAnswered, Status: StatusCorrect, Confidence: 1},
		{Outcome: OutcomeAnswered, Status: StatusWrong, Confidence: 0.95},
		{Outcome: OutcomeAnswered, Status: StatusCorrect, Confidence: 0.85},
		{Outcome: OutcomeAnswered, Status: StatusCorrect, Confidence: 0.4},
		{Outcome: OutcomeRefused, Status: StatusRefused},
		{Outcome: OutcomeError, Status: StatusError},
	})
	got := map[string][2]int{}
	for _, b := range s.Calibration {
		got[b.Label] = [2]int{b.Correct, b.Answered}
	}
	want := map[string][2]int{"0.90–1.00": {1, 2}, "0.70–0.89": {1, 1}, "0.50–0.69": {0, 0}, "below 0.50": {1, 1}}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("band %s = %v, want %v", k, got[k], w)
		}
	}
	var b strings.Builder
	s.WriteText(&b, false)
	if !strings.Contains(b.String(), "calibration (confidence: answers right): 0.90–1.00: 1 of 2 right") {
		t.Errorf("report:\n%s", b.String())
	}
}
