package runtime

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/store"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// TestApprovalFor: the connection's setting applies to everyone; a
// person's only to their own requests; nobody's, nothing.
func TestApprovalFor(t *testing.T) {
	ctx := t.Context()
	st, err := sqlitestate.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	for _, u := range []store.User{{Name: "bob", Role: "analyst", Approval: true, CreatedAt: now}, {Name: "ann", Role: "admin", CreatedAt: now}} {
		if err := st.AddUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	off := &config.Connection{Name: "shop"}
	on := &config.Connection{Name: "shop", Approval: true, ApprovalTimeout: 10 * time.Minute}
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		cc      *config.Connection
		why     string
		timeout time.Duration
	}{
		{"off, nobody", ctx, off, "", 0},
		{"off, a person without it", event.WithOwner(ctx, "ann"), off, "", 0},
		{"off, a person with it", event.WithOwner(ctx, "bob"), off, "person", 0},
		{"off, someone unknown", event.WithOwner(ctx, "zed"), off, "", 0},
		{"on, nobody", ctx, on, "connection", 10 * time.Minute},
		{"on, a person without it", event.WithOwner(ctx, "ann"), on, "connection", 10 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ap, err := approvalFor(tc.ctx, st, tc.cc)
			if err != nil {
				t.Fatal(err)
			}
			if tc.why == "" {
				if ap != nil {
					t.Fatalf("approval %+v; want none", ap)
				}
				return
			}
			if ap == nil || ap.Why != tc.why || ap.Timeout != tc.timeout || ap.AskedBy != event.OwnerOf(tc.ctx) || ap.Log == nil {
				t.Fatalf("approval %+v; want why %s, timeout %v", ap, tc.why, tc.timeout)
			}
		})
	}
	if d, err := approvalWait(ctx, st, on); err != nil || d != 10*time.Minute {
		t.Errorf("approvalWait(on) = %v, %v", d, err)
	}
	if d, err := approvalWait(ctx, st, off); err != nil || d != analyst.DefaultApprovalTimeout {
		t.Errorf("approvalWait(off, bob requires it) = %v, %v", d, err)
	}
	if err := st.SetApproval(ctx, "bob", false); err != nil {
		t.Fatal(err)
	}
	if d, err := approvalWait(ctx, st, off); err != nil || d != 0 {
		t.Errorf("approvalWait(off, nobody requires it) = %v, %v", d, err)
	}
}
