package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

type nopSink struct{}

func (nopSink) Begin([]quarry.Column) error { return nil }
func (nopSink) Row([]any) error             { return nil }

// TestServerPolicyChangesUnderLoad: runs keep starting and finishing while
// policy.yaml changes back and forth; every run uses the generation it
// started with (its connections are not closed under it), and once the
// edits stop, the policy of the file decides the next run.
func TestServerPolicyChangesUnderLoad(t *testing.T) {
	r := demoRuntime(t)
	ctx := context.Background()
	srv, release, err := r.Server(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	file := filepath.Join(srv.KnowledgeDir, "policy.yaml")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	restricted := append(append([]byte(nil), orig...), "  - column: products.discontinued\n    reason: a test\n"...)
	run := func(sql string) error {
		an, done, err := srv.Start(ctx)
		if err != nil {
			return err
		}
		defer done()
		rec := event.NewRecorder(srv.NewID("r"), srv.Clock, srv.Store)
		_, err = an.Run(ctx, rec, sql, nopSink{})
		return err
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := run("SELECT count(*) FROM products"); err != nil {
					t.Errorf("a run during the edits: %v", err)
					return
				}
			}
		})
	}
	for i := range 20 {
		b := orig
		if i%2 == 0 {
			b = restricted
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.Project(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if err := os.WriteFile(file, restricted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run("SELECT discontinued FROM products"); quarry.KindOf(err) != quarry.KindRejected {
		t.Errorf("a restricted column after the edits: %v, want rejected", err)
	}
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run("SELECT discontinued FROM products"); err != nil {
		t.Errorf("the column once the restriction is gone: %v", err)
	}
}

// TestServerRereadsPrivacy: a connection's privacy tier changed in
// quarry.yaml while the server runs applies from the next request on, and
// a quarry.yaml that no longer loads fails requests rather than keep a
// tier it can no longer read.
func TestServerRereadsPrivacy(t *testing.T) {
	r := demoRuntime(t)
	ctx := context.Background()
	srv, release, err := r.Server(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	cfg, err := r.Config()
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	tier := func() (quarry.Privacy, error) {
		an, done, err := srv.Start(ctx)
		if err != nil {
			return "", err
		}
		defer done()
		return an.Privacy.Or(), nil
	}
	if got, err := tier(); err != nil || got != quarry.PrivacyFull {
		t.Fatalf("at start: %q, %v", got, err)
	}
	const at = "    driver: sqlite\n"
	if !strings.Contains(string(orig), at) {
		t.Fatalf("the demo's quarry.yaml has no %q", at)
	}
	for _, step := range []struct {
		add  string
		want quarry.Privacy
	}{
		{"    privacy: schema-only\n", quarry.PrivacySchema},
		{"    privacy: aggregates-only\n", quarry.PrivacyAggregates},
		{"    privacy: \"\"\n", ""},
		{"", quarry.PrivacyFull},
	} {
		if err := os.WriteFile(cfg.Path, []byte(strings.Replace(string(orig), at, at+step.add, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := tier()
		switch {
		case step.want == "" && err == nil:
			t.Errorf("%q: a quarry.yaml that does not load served a run under %q", step.add, got)
		case step.want != "" && (err != nil || got != step.want):
			t.Errorf("%q: tier %q, %v; want %q", step.add, got, err, step.want)
		}
		// Workflows and monitors run through the runtime's own analyst,
		// whose connection was read at start: it refuses a tier the file
		// no longer says.
		an, done, err := r.Analyst(ctx, "", 100)
		if err == nil {
			done()
		}
		if changed := step.want != quarry.PrivacyFull; changed != (err != nil) || err == nil && an.Privacy.Or() != quarry.PrivacyFull {
			t.Errorf("%q: the runtime's analyst: %v", step.add, err)
		}
	}
}
