package httpapi

import (
	"context"

	"github.com/quarrydata/quarry/internal/workflow"
)

// Workflows is what the workflow editor needs from the runtime: the
// knowledge folder's workflow files, what validation checks names
// against, and running a definition.
type Workflows interface {
	// List returns the knowledge folder's workflows/*.yaml files, by name.
	List(ctx context.Context) ([]WorkflowFile, error)
	// Known is what validation checks verified queries and questions
	// against (the knowledge folder as it is now).
	Known(ctx context.Context) (workflow.Known, error)
	// Run runs w, a valid definition, with params (text, by name);
	// progress is called with the run's state after each step. It returns
	// the state the run ended or waits in.
	Run(ctx context.Context, w *workflow.Workflow, params map[string]string, progress func(workflow.State)) (workflow.State, error)
}

// WorkflowFile is one workflows/*.yaml file as it is on disk.
type WorkflowFile struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Source string `json:"source"`
}
