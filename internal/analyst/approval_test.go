package analyst

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// memLog is an ApprovalLog in memory that, like both state backends,
// refuses a different event under a (run, seq) already taken.
type memLog struct {
	mu     sync.Mutex
	events []event.Event
}

func (m *memLog) Append(_ context.Context, evs ...event.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range evs {
		if slices.ContainsFunc(m.events, func(x event.Event) bool { return x.RunID == e.RunID && x.Seq == e.Seq }) {
			return quarry.Errorf(quarry.KindConflict, "run %s already has event %d", e.RunID, e.Seq)
		}
	}
	m.events = append(m.events, evs...)
	return nil
}

func (m *memLog) Events(_ context.Context, runID string) ([]event.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []event.Event
	for _, e := range m.events {
		if e.RunID == runID {
			out = append(out, e)
		}
	}
	return out, nil
}

// estimating is a connection whose database estimates statements.
type estimating struct {
	*fakeConn
	est connector.Estimate
	err error
}

func (e *estimating) Estimate(context.Context, string) (connector.Estimate, error) {
	return e.est, e.err
}

// waitFor decides statement id of run r_1 in log once it waits.
func waitFor(t *testing.T, log *memLog, id string, d event.ApprovalDecidedData) <-chan error {
	done := make(chan error, 1)
	go func() {
		for {
			evs, _ := log.Events(context.Background(), "r_1")
			if st, err := event.Fold(evs); err == nil && st.Pending() != nil && st.Pending().Statement == id {
				break
			}
			time.Sleep(time.Millisecond)
		}
		_, err := Decide(context.Background(), log, "r_1", id, d, time.Date(2026, 6, 30, 12, 0, 5, 0, time.UTC))
		done <- err
	}()
	return done
}

// TestApprovalRecordsTheEstimate: the estimate, or why there is none, is
// on approval.requested; the wait ends before the run's own deadline; an
// approved statement runs once, a refused one never.
func TestApprovalRecordsTheEstimate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		conn     Querier
		approved bool
		want     func(t *testing.T, r *event.ApprovalRequestedData)
	}{
		{"estimate", &estimating{fakeConn: &fakeConn{table: table()}, est: connector.Estimate{Cost: 42.5, Rows: 7}}, true, func(t *testing.T, r *event.ApprovalRequestedData) {
			if r.Estimate == nil || r.Estimate.Cost != 42.5 || r.Estimate.Rows != 7 || r.EstimateError != "" {
				t.Errorf("estimate %+v, error %q", r.Estimate, r.EstimateError)
			}
		}},
		{"estimate failed", &estimating{fakeConn: &fakeConn{table: table()}, err: quarry.Errorf(quarry.KindConnection, "the server went away")}, false, func(t *testing.T, r *event.ApprovalRequestedData) {
			if r.Estimate != nil || r.EstimateError != "the server went away" {
				t.Errorf("estimate %+v, error %q", r.Estimate, r.EstimateError)
			}
		}},
		{"no estimator", &fakeConn{table: table()}, true, func(t *testing.T, r *event.ApprovalRequestedData) {
			if r.Estimate != nil || r.EstimateError != "" {
				t.Errorf("estimate %+v, error %q", r.Estimate, r.EstimateError)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &memLog{}
			a := newAnalyst(&fakeConn{})
			a.Conn = tc.conn
			em := NewEmitter(event.NewRecorder("r_1", a.Clock, log))
			ctx, cancel := context.WithTimeout(t.Context(), 40*time.Second)
			defer cancel()
			done := waitFor(t, log, "s1", event.ApprovalDecidedData{Approved: tc.approved, By: "ann"})
			res, err := a.Exec(ctx, em, "SELECT n FROM t", Exec{Source: "model", Approval: &Approval{Log: log, Poll: time.Millisecond}, Interpretation: "the n of t"})
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if tc.approved != (err == nil) {
				t.Fatalf("Exec: %v", err)
			}
			if !tc.approved && (quarry.KindOf(err) != quarry.KindRejected || res.Approval == nil || res.Approval.Approved) {
				t.Errorf("a refusal: %v, decision %+v", err, res.Approval)
			}
			st, ferr := event.Fold(log.events)
			if ferr != nil {
				t.Fatal(ferr)
			}
			r := st.Approvals[0].ApprovalRequestedData
			tc.want(t, &r)
			if r.Interpretation != "the n of t" || r.Deadline.Sub(st.Approvals[0].RequestedAt) > 11*time.Second {
				t.Errorf("requested %+v: the deadline is not before the run's own", r)
			}
			calls := 0
			switch c := tc.conn.(type) {
			case *estimating:
				calls = len(c.calls)
			case *fakeConn:
				calls = len(c.calls)
			}
			if want := map[bool]int{true: 1, false: 0}[tc.approved]; calls != want {
				t.Errorf("%d statements reached the database, want %d", calls, want)
			}
		})
	}
}

// TestDecideOnce: two people deciding at once, one wins; the other is told
// it was decided.
func TestDecideOnce(t *testing.T) {
	log := &memLog{}
	rec := event.NewRecorder("r_1", fixedClock(), log)
	ctx := t.Context()
	for _, p := range []event.Payload{&event.RunStartedData{Kind: "ask"}, &event.ApprovalRequestedData{Statement: "s1", SQL: "SELECT 1"}} {
		if err := rec.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = Decide(ctx, log, "r_1", "s1", event.ApprovalDecidedData{Approved: i%2 == 0, By: "ann"}, time.Now())
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case quarry.KindOf(err) != quarry.KindConflict:
			t.Errorf("a losing decision: %v", err)
		}
	}
	st, err := event.Fold(log.events)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 1 || st.Events != 3 || st.Pending() != nil {
		t.Errorf("%d decisions won, %d events", ok, st.Events)
	}
	if _, err := Decide(ctx, log, "r_1", "", event.ApprovalDecidedData{}, time.Now()); quarry.KindOf(err) != quarry.KindNotFound {
		t.Errorf("no statement: %v", err)
	}
}

// TestDecideAfterTheDeadline: a wait past its deadline (its run records
// the timeout; a run whose process died never goes on) is not decided.
func TestDecideAfterTheDeadline(t *testing.T) {
	log := &memLog{}
	t0 := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	rec := event.NewRecorder("r_1", func() time.Time { return t0 }, log)
	for _, p := range []event.Payload{&event.RunStartedData{Kind: "ask"}, &event.ApprovalRequestedData{Statement: "s1", SQL: "SELECT 1", Deadline: t0.Add(time.Minute)}} {
		if err := rec.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Decide(t.Context(), log, "r_1", "s1", event.ApprovalDecidedData{Approved: true, By: "ann"}, t0.Add(2*time.Minute)); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("a decision after the deadline: %v", err)
	}
	if _, err := Decide(t.Context(), log, "r_1", "s1", event.ApprovalDecidedData{Approved: true, By: "ann"}, t0.Add(30*time.Second)); err != nil {
		t.Errorf("a decision in time: %v", err)
	}
}
