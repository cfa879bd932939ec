package main

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/workflow"
)

// serveWorkflows hands the web editor the project's workflows: the files
// of the knowledge folder, what they are validated against, and runs,
// one at a time, their steps through the server's generation as the
// request's person is served (their groups' policy).
type serveWorkflows struct {
	rt  *runtime.Runtime
	srv *runtime.Server
	now func() time.Time
	mu  *sync.Mutex
}

func (s *serveWorkflows) List(context.Context) ([]httpapi.WorkflowFile, error) {
	srcs, err := s.rt.WorkflowSources()
	if err != nil {
		return nil, err
	}
	out := make([]httpapi.WorkflowFile, len(srcs))
	for i, src := range srcs {
		out[i] = httpapi.WorkflowFile{Name: src.Name, File: src.File, Source: string(src.Source)}
	}
	return out, nil
}

func (s *serveWorkflows) Known(context.Context) (workflow.Known, error) {
	return s.rt.WorkflowKnown()
}

func (s *serveWorkflows) Run(ctx context.Context, w *workflow.Workflow, params map[string]string, progress func(workflow.State)) (workflow.State, error) {
	known, err := s.rt.WorkflowKnown()
	if err != nil {
		return workflow.State{}, err
	}
	g, probs := workflow.Validate(w, known)
	if len(probs) > 0 {
		return workflow.State{}, quarry.Errorf(quarry.KindConfig, "%s", probs[0].Format(""))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	by := "" // sign-in off: nobody in particular, as on the CLI
	if p, ok := auth.From(ctx); ok {
		by = p.Name
	}
	return s.rt.RunWorkflow(ctx, w, g, runtime.WorkflowRequest{Params: params, AsOf: s.now(), Progress: progress, By: by, Server: s.srv})
}
