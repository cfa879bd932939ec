package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// fakeSteps answers questions from a table of one-column results and
// records what was asked and sent.
type fakeSteps struct {
	answers map[string][]float64 // question → the measure's values
	asked   []string
	sent    []string
	fail    map[string]int // question → times to fail (transiently) first
	runs    int
}

func (f *fakeSteps) Ask(_ context.Context, q string) (StepResult, error) {
	f.asked = append(f.asked, q)
	f.runs++
	if f.fail[q] > 0 {
		f.fail[q]--
		return StepResult{RunID: fmt.Sprintf("run%d", f.runs), Message: "the database timed out", Transient: true}, nil
	}
	vals, ok := f.answers[q]
	if !ok {
		return StepResult{RunID: fmt.Sprintf("run%d", f.runs), Message: "not understood"}, nil
	}
	t := &quarry.Table{Columns: []quarry.Column{{Name: "label", Type: quarry.TypeText}, {Name: "revenue", Type: quarry.TypeFloat}}}
	for i, v := range vals {
		t.Rows = append(t.Rows, []any{fmt.Sprint("row", i), v})
	}
	return StepResult{RunID: fmt.Sprintf("run%d", f.runs), Answered: true, Confidence: 0.9, Table: t, Measure: "revenue"}, nil
}

func (f *fakeSteps) Query(ctx context.Context, verified, sql string) (StepResult, error) {
	return f.Ask(ctx, verified+sql)
}

func (f *fakeSteps) Notify(_ context.Context, channels []string, title, msg string) (int, []string, error) {
	f.sent = append(f.sent, msg)
	return len(channels), nil, nil
}

// memSink is the store: the events appended, in order. failAfter makes
// it fail once that many events are stored (a crash).
type memSink struct {
	events    []event.Event
	failAfter int
}

func (m *memSink) Append(_ context.Context, evs ...event.Event) error {
	if m.failAfter > 0 && len(m.events)+len(evs) > m.failAfter {
		return errors.New("the process died")
	}
	m.events = append(m.events, evs...)
	return nil
}

func clock() func() time.Time {
	t := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

func example(t *testing.T, name string) (*Workflow, Graph) {
	src, err := os.ReadFile("../demo/knowledge/workflows/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return decodeValid(t, name+".yaml", src)
}

func weekly(revenue, prior float64) *fakeSteps {
	return &fakeSteps{answers: map[string][]float64{
		"revenue last week":                   {revenue},
		"revenue 2 weeks ago":                 {prior},
		"orders last week":                    {527},
		"top 5 products by revenue last week": {3242.99, 2332.08},
	}}
}

func TestWeeklyReview(t *testing.T) {
	w, g := example(t, "weekly-review")
	for _, c := range []struct {
		name           string
		revenue, prior float64
		notes          int
	}{
		{"steady", 100, 95, 0},
		{"moved", 100, 50, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps, sink := weekly(c.revenue, c.prior), &memSink{}
			r := &Runner{Workflow: w, Graph: g, Steps: steps, Sink: sink, Clock: clock()}
			st, err := r.Start(context.Background(), "wf1", nil, event.RunStartedData{AsOf: "2026-06-30"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Status != StatusCompleted {
				t.Fatalf("status %s (%s), want completed", st.Status, st.Message)
			}
			if len(steps.asked) != 4 {
				t.Errorf("asked %v", steps.asked)
			}
			note := st.Node("note")
			if (note != nil) != (c.notes == 1) {
				t.Errorf("the note ran: %v; want %v", note != nil, c.notes == 1)
			}
			if note != nil && !strings.Contains(string(note.Output), "100.0% against the week before (50), on 527 orders") {
				t.Errorf("note output %s", note.Output)
			}
			// The state is the fold of what was stored.
			again, err := Fold(sink.events)
			if err != nil || again.Status != st.Status || len(again.Nodes) != len(st.Nodes) {
				t.Errorf("Fold of the stored log: %+v, %v", again, err)
			}
		})
	}
}

func TestMonthEnd(t *testing.T) {
	w, g := example(t, "month-end-reconciliation")
	steps := func(total float64) *fakeSteps {
		return &fakeSteps{answers: map[string][]float64{
			"revenue last month":            {total},
			"revenue by channel last month": {100, 200.5, 50},
		}}
	}
	ctx := context.Background()
	t.Run("disagree", func(t *testing.T) {
		r := &Runner{Workflow: w, Graph: g, Steps: steps(400), Sink: &memSink{}, Clock: clock()}
		st, err := r.Start(ctx, "wf", nil, event.RunStartedData{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != StatusStopped || !strings.Contains(st.Message, "differ by 49.5") {
			t.Errorf("status %s, message %q; want stopped on the difference", st.Status, st.Message)
		}
	})
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprint("approve=", approve), func(t *testing.T) {
			fs, sink := steps(350.5), &memSink{}
			r := &Runner{Workflow: w, Graph: g, Steps: fs, Sink: sink, Clock: clock(), By: "ana"}
			st, err := r.Start(ctx, "wf", nil, event.RunStartedData{})
			if err != nil {
				t.Fatal(err)
			}
			if st.Status != StatusWaiting || !strings.Contains(st.Waiting.Approval, "is 350.5") {
				t.Fatalf("status %s, waiting %+v; want waiting for approval", st.Status, st.Waiting)
			}
			// Resuming does nothing until someone approves.
			if st, err = r.Resume(ctx, sink.events); err != nil || st.Status != StatusWaiting {
				t.Fatalf("resume before approval: %s, %v", st.Status, err)
			}
			// A new process (a new Runner) approves from the stored log.
			r2 := &Runner{Workflow: w, Graph: g, Steps: fs, Sink: sink, Clock: clock(), By: "ana"}
			st, err = r2.Approve(ctx, sink.events, approve, "checked")
			if err != nil {
				t.Fatal(err)
			}
			want := StatusCompleted
			if !approve {
				want = StatusStopped
			}
			if st.Status != want {
				t.Fatalf("status %s (%s), want %s", st.Status, st.Message, want)
			}
			if approve && (len(fs.sent) != 0 || !strings.Contains(string(st.Node("send").Output), "signed off by ana")) {
				t.Errorf("sent %v, output %s", fs.sent, st.Node("send").Output)
			}
			if _, err := r2.Approve(ctx, sink.events, true, ""); err == nil {
				t.Error("a second approval of a finished run was accepted")
			}
		})
	}
}

// TestResumeAfterCrash stops the store after each number of events in
// turn (a process killed between two writes) and resumes from what was
// stored: every run ends as the uninterrupted run did, with the same
// outputs.
func TestResumeAfterCrash(t *testing.T) {
	w, g := example(t, "weekly-review")
	ctx := context.Background()
	full := &memSink{}
	want, err := (&Runner{Workflow: w, Graph: g, Steps: weekly(100, 50), Sink: full, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{})
	if err != nil {
		t.Fatal(err)
	}
	for n := 2; n < len(full.events); n++ {
		sink := &memSink{failAfter: n}
		if _, err := (&Runner{Workflow: w, Graph: g, Steps: weekly(100, 50), Sink: sink, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{}); err == nil {
			t.Fatalf("crash after %d events: no error", n)
		}
		sink.failAfter = 0
		got, err := (&Runner{Workflow: w, Graph: g, Steps: weekly(100, 50), Sink: sink, Clock: clock()}).Resume(ctx, sink.events)
		if err != nil {
			t.Fatalf("resume after %d events: %v", n, err)
		}
		if got.Status != want.Status || len(got.Nodes) != len(want.Nodes) {
			t.Fatalf("resume after %d events: %s with %d nodes; want %s with %d", n, got.Status, len(got.Nodes), want.Status, len(want.Nodes))
		}
		for i := range want.Nodes {
			if string(got.Nodes[i].Output) != string(want.Nodes[i].Output) && !strings.Contains(string(want.Nodes[i].Output), `"run"`) {
				t.Errorf("resume after %d events: node %s output %s, want %s", n, want.Nodes[i].ID, got.Nodes[i].Output, want.Nodes[i].Output)
			}
		}
	}
}

func TestRetriesAndStops(t *testing.T) {
	w, g := example(t, "weekly-review")
	ctx := context.Background()
	steps := weekly(100, 95)
	steps.fail = map[string]int{"revenue last week": 1}
	st, err := (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{})
	if err != nil || st.Status != StatusCompleted || st.Node("revenue").Attempts != 2 {
		t.Fatalf("one transient failure with retries: 1: %s after %d attempts (%v)", st.Status, st.Node("revenue").Attempts, err)
	}
	steps = weekly(100, 95)
	steps.fail = map[string]int{"revenue last week": 2}
	st, _ = (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{})
	if st.Status != StatusFailed || !strings.Contains(st.Message, "timed out") {
		t.Errorf("two transient failures, one retry: %s %q; want failed", st.Status, st.Message)
	}
	steps = weekly(100, 95)
	delete(steps.answers, "orders last week")
	st, _ = (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{})
	if st.Status != StatusStopped || !strings.Contains(st.Message, "orders: not understood") {
		t.Errorf("an unanswered question: %s %q; want stopped", st.Status, st.Message)
	}
	steps = weekly(100, 0)
	st, _ = (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", nil, event.RunStartedData{})
	if st.Status != StatusFailed || !strings.Contains(st.Message, "earlier value is 0") {
		t.Errorf("a change from 0: %s %q; want failed with the reason", st.Status, st.Message)
	}
	if _, err := (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", map[string]string{"treshold": "1"}, event.RunStartedData{}); err == nil || !strings.Contains(err.Error(), "no parameter") {
		t.Errorf("an unknown parameter: %v", err)
	}
	if _, err := (&Runner{Workflow: w, Graph: g, Steps: steps, Sink: &memSink{}, Clock: clock()}).Start(ctx, "wf", map[string]string{"threshold": "lots"}, event.RunStartedData{}); err == nil || !strings.Contains(err.Error(), "is a number") {
		t.Errorf("a parameter of the wrong type: %v", err)
	}
}

func TestWaitForATime(t *testing.T) {
	src := `name: pause
nodes:
- id: a
  kind: ask
  question: revenue last week
  next: pause
- id: pause
  kind: wait
  for: 2h
  next: done
- id: done
  kind: end
  message: "{{ a.value }}"
`
	w, g := decodeValid(t, "pause.yaml", []byte(src))
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	clk := func() time.Time { return now }
	sink := &memSink{}
	r := &Runner{Workflow: w, Graph: g, Steps: weekly(1, 1), Sink: sink, Clock: clk}
	st, err := r.Start(context.Background(), "wf", nil, event.RunStartedData{})
	if err != nil || st.Status != StatusWaiting || st.Waiting.Until != "2026-12-01T11:00:00Z" {
		t.Fatalf("%s %+v %v", st.Status, st.Waiting, err)
	}
	now = now.Add(time.Hour)
	if st, _ = r.Resume(context.Background(), sink.events); st.Status != StatusWaiting {
		t.Fatalf("resumed an hour early: %s", st.Status)
	}
	now = now.Add(time.Hour)
	if st, _ = r.Resume(context.Background(), sink.events); st.Status != StatusCompleted {
		t.Fatalf("resumed on time: %s %s", st.Status, st.Message)
	}
}
