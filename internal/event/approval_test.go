package event

import (
	"context"
	"testing"
	"time"
)

// TestFoldApprovals: a statement that waits makes the run
// awaiting_approval until it is decided; a decision of a statement that
// does not wait changes nothing; run.finished ends the wait whatever the
// log says.
func TestFoldApprovals(t *testing.T) {
	req := func(seq int64, id string) Event {
		return mustNew(t, seq, &ApprovalRequestedData{Statement: id, SQL: "SELECT 1", Guard: GuardCheckedData{Allowed: true, Dialect: "sqlite"},
			AskedBy: "bob", Why: "person", Deadline: t0.Add(time.Hour)})
	}
	dec := func(seq int64, id string, ok bool) Event {
		return mustNew(t, seq, &ApprovalDecidedData{Statement: id, Approved: ok, By: "ann"})
	}
	fold := func(evs ...Event) RunState {
		t.Helper()
		st, err := Fold(append([]Event{started(t)}, evs...))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := fold(req(2, "s1"))
	if st.Status != StatusAwaitingApproval || st.Pending() == nil || st.Pending().Statement != "s1" || st.Pending().RequestedAt != t0.Add(2*time.Second) {
		t.Fatalf("waiting: %s %+v", st.Status, st.Approvals)
	}
	if st := fold(req(2, "s1"), dec(3, "s9", true)); st.Status != StatusAwaitingApproval || st.Pending() == nil {
		t.Errorf("a decision of another statement: %s %+v", st.Status, st.Approvals)
	}
	st = fold(req(2, "s1"), dec(3, "s1", false))
	if st.Status != StatusRunning || st.Pending() != nil || st.Approvals[0].Decided.Approved || st.Approvals[0].DecidedAt != t0.Add(3*time.Second) {
		t.Errorf("refused: %s %+v", st.Status, st.Approvals)
	}
	// A second decision of the same statement (which the store's
	// sequence numbers keep out of a real log) does not replace the first.
	if st := fold(req(2, "s1"), dec(3, "s1", false), dec(4, "s1", true)); st.Approvals[0].Decided.Approved {
		t.Errorf("the second decision replaced the first: %+v", st.Approvals[0].Decided)
	}
	st = fold(req(2, "s1"), mustNew(t, 3, &RunFinishedData{Status: StatusRejected}))
	if st.Status != StatusRejected {
		t.Errorf("finished while waiting: %s", st.Status)
	}
	c := st.clone()
	c.Approvals[0].SQL = "changed"
	if st.Approvals[0].SQL != "SELECT 1" {
		t.Error("clone shares its approvals")
	}
}

// TestRecorderAdvance: after another writer appended up to a sequence
// number, the recorder's next event follows it.
func TestRecorderAdvance(t *testing.T) {
	var got []Event
	rec := NewRecorder("r_1", func() time.Time { return t0 }, SinkFunc(func(_ context.Context, evs ...Event) error {
		got = append(got, evs...)
		return nil
	}))
	ctx := context.Background()
	if err := rec.Emit(ctx, &RunStartedData{Kind: "ask"}); err != nil {
		t.Fatal(err)
	}
	rec.Advance(5)
	rec.Advance(3) // never backwards
	if err := rec.Emit(ctx, &RunFinishedData{Status: StatusSucceeded}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 6 {
		t.Errorf("sequence numbers: %+v", got)
	}
}
