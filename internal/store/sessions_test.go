package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestSessions(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	for i, id := range []string{"s_01A", "s_01B", "s_02C"} {
		if err := s.CreateSession(ctx, Session{ID: id, CreatedAt: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	wantKind(t, s.CreateSession(ctx, Session{ID: "s_01A", CreatedAt: t0}), quarry.KindConflict)
	wantKind(t, s.CreateSession(ctx, Session{ID: "s_x"}), quarry.KindInternal)

	if err := s.TouchSession(ctx, "s_01A", "r_9", "revenue by month", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchSession(ctx, "s_01A", "r_10", "a later title is not kept", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	wantKind(t, s.TouchSession(ctx, "s_none", "r_1", "", t0), quarry.KindNotFound)

	got, err := s.Session(ctx, "s_01A")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{ID: "s_01A", Title: "revenue by month", LastRunID: "r_10", CreatedAt: t0, UpdatedAt: t0.Add(2 * time.Hour)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session (-want +got):\n%s", diff)
	}
	if got, err := s.Session(ctx, "s_02"); err != nil || got.ID != "s_02C" {
		t.Errorf("prefix lookup = %+v, %v", got, err)
	}
	_, err = s.Session(ctx, "s_01")
	wantKind(t, err, quarry.KindInput)
	_, err = s.Session(ctx, "s_9")
	wantKind(t, err, quarry.KindNotFound)

	list, err := s.Sessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	if diff := cmp.Diff([]string{"s_01A", "s_02C", "s_01B"}, ids); diff != "" {
		t.Errorf("sessions, most recently updated first (-want +got):\n%s", diff)
	}
	if list, err := s.Sessions(ctx, 1); err != nil || len(list) != 1 {
		t.Errorf("Sessions(1) = %d, %v", len(list), err)
	}
}
