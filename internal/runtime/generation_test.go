package runtime

import (
	"context"
	"os"
	"path/filepath"
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
