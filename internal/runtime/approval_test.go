package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestServerRereadsApproval: a server applies the connection's approval
// mode as quarry.yaml says it at each request, as it does the privacy tier.
func TestServerRereadsApproval(t *testing.T) {
	r := demoRuntime(t)
	ctx := context.Background()
	srv, release, err := r.Server(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if srv.ApprovalWait != 0 {
		t.Errorf("ApprovalWait %v with approval off", srv.ApprovalWait)
	}
	cfg, err := r.Config()
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	const at = "    driver: sqlite\n"
	if !strings.Contains(string(orig), at) {
		t.Fatalf("the demo's quarry.yaml has no %q", at)
	}
	for _, step := range []struct {
		add     string
		on      bool
		timeout time.Duration
	}{
		{"", false, 0},
		{"    approval: required\n    approval_timeout: 2m\n", true, 2 * time.Minute},
		{"    approval: off\n", false, 0},
	} {
		if err := os.WriteFile(cfg.Path, []byte(strings.Replace(string(orig), at, at+step.add, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		ap, err := srv.Approval(ctx)
		if err != nil {
			t.Fatalf("%q: %v", step.add, err)
		}
		if (ap != nil) != step.on || ap != nil && (ap.Timeout != step.timeout || ap.Why != "connection") {
			t.Errorf("%q: approval %+v; want on %v, timeout %v", step.add, ap, step.on, step.timeout)
		}
	}
}
