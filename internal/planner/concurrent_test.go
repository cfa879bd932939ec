package planner

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestConcurrentPlans: one Planner plans questions from several
// goroutines at once (a server does) and each plan is the one it makes
// alone; under the race detector this is the planner's race test.
func TestConcurrentPlans(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	qs := goldenQuestions(t)
	if len(qs) > 40 {
		qs = qs[:40]
	}
	want := make([]*Plan, len(qs))
	for i, q := range qs {
		want[i] = p.Plan(q, asOf)
	}
	var wg sync.WaitGroup
	got := make([][]*Plan, 4)
	for g := range got {
		got[g] = make([]*Plan, len(qs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range qs {
				j := (i + g*7) % len(qs)
				got[g][j] = p.Plan(qs[j], asOf)
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i := range qs {
			if d := cmp.Diff(want[i], got[g][i], cmpopts.EquateEmpty(), cmp.AllowUnexported(Plan{})); d != "" {
				t.Errorf("goroutine %d, %q planned otherwise at once (-alone +at once):\n%s", g, qs[i], d)
			}
		}
	}
}

// TestConcurrentScopedPlans: a planner of a wide model plans, and cuts
// models for the checks (ScopeModel, from the scope it keeps), from
// several goroutines at once as it does alone (run under -race: the
// kept scope and the links walked on demand are shared).
func TestConcurrentScopedPlans(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	alone, shared := newPlanner(f.Model, nil, -1), newPlanner(f.Model, nil, -1)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	qs := goldenQuestions(t)
	if len(qs) > 30 {
		qs = qs[:30]
	}
	type cut struct {
		plan  *Plan
		names []string
	}
	do := func(p *Planner, q string) cut {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			return cut{plan: pl}
		}
		return cut{pl, entityNames(p.ScopeModel(q, p.PlanModel(pl), pl.Query))}
	}
	want := make([]cut, len(qs))
	for i, q := range qs {
		want[i] = do(alone, q)
	}
	var wg sync.WaitGroup
	got := make([][]cut, 4)
	for g := range got {
		got[g] = make([]cut, len(qs))
		wg.Go(func() {
			for i := range qs {
				j := (i + g*7) % len(qs)
				got[g][j] = do(shared, qs[j])
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i := range qs {
			if d := cmp.Diff(want[i], got[g][i], cmpopts.EquateEmpty(), cmp.AllowUnexported(Plan{}, cut{})); d != "" {
				t.Errorf("goroutine %d, %q planned or cut otherwise at once (-alone +at once):\n%s", g, qs[i], d)
			}
		}
	}
}
