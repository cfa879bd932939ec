package event

import (
	"context"
	"testing"
	"time"
)

// TestRecorderNamesTheOwnerOfItsContext: a run recorded under a context
// that names an owner (a signed-in person's request, down to a
// workflow's steps and a monitor's reads) is that person's, held or not;
// a run that names its own owner keeps it.
func TestRecorderNamesTheOwnerOfItsContext(t *testing.T) {
	clock := func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		name, ctxOwner, ownOwner, want string
		hold                           bool
	}{
		{"no owner anywhere", "", "", "", false},
		{"the context's owner", "bob", "", "bob", false},
		{"the context's owner, held", "bob", "", "bob", true},
		{"the run's own owner wins", "bob", "schedule", "schedule", false},
	} {
		var got []Event
		sink := SinkFunc(func(_ context.Context, evs ...Event) error {
			got = append(got, evs...)
			return nil
		})
		rec := NewRecorder("r_1", clock, sink)
		if tt.hold {
			rec.Hold()
		}
		ctx := context.Background()
		if tt.ctxOwner != "" {
			ctx = WithOwner(ctx, tt.ctxOwner)
		}
		if err := rec.Emit(ctx, &RunStartedData{Kind: "run", SQL: "SELECT 1", Owner: tt.ownOwner}); err != nil {
			t.Fatal(err)
		}
		if err := rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := Fold(got)
		if err != nil {
			t.Fatal(err)
		}
		if st.Owner != tt.want {
			t.Errorf("%s: owner %q, want %q", tt.name, st.Owner, tt.want)
		}
	}
}
