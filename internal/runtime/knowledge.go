package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/valueindex"
)

// folderRead is the knowledge folder as it was loaded (and the planner
// built over it), or why it was not.
type folderRead struct {
	f      *knowledge.Folder
	k      *analyst.Knowledge
	err    error
	values io.Closer // the value index opened for k, if any
}

// folder loads the knowledge folder once: the planner, the agent, the
// column policy and the servers all read this one copy.
func (r *Runtime) folder(cfg *config.Config) (*knowledge.Folder, error) {
	if r.kf == nil && r.ahead != nil {
		fr := <-r.ahead.folder
		r.kf = &fr
	}
	if r.kf == nil {
		f, err := knowledge.Load(cfg.Knowledge)
		r.kf = &folderRead{f: f, err: err}
	}
	return r.kf.f, r.kf.err
}

// Folder is the project's knowledge folder, loaded once.
func (r *Runtime) Folder() (*knowledge.Folder, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	return r.folder(cfg)
}

// Reload forgets the knowledge folder and the column policy read from it,
// so that the next request reads them again (after quarry learn, or an
// edit). What was built from the old copy keeps it.
func (r *Runtime) Reload() {
	r.settleAhead()
	r.kf = nil
	off := r.pol.off
	r.pol = policyState{off: off}
}

// Knowledge is the knowledge folder and the builtin planner over it,
// built once.
func (r *Runtime) Knowledge() (*analyst.Knowledge, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	f, err := r.folder(cfg)
	if err != nil {
		return nil, err
	}
	if r.kf.k == nil && r.ahead != nil {
		b := <-r.ahead.built
		r.ahead.plan = b.plan
		r.kf.k, r.kf.values = b.k, b.values
	}
	if r.kf.k == nil {
		r.kf.k, r.kf.values = newKnowledge(f)
	}
	return r.kf.k, nil
}

// newKnowledge builds the builtin planner over the folder f, with its
// value index when it has one (the io.Closer to close it).
func newKnowledge(f *knowledge.Folder) (*analyst.Knowledge, io.Closer) {
	verified := make([]planner.Verified, len(f.Verified))
	for i, v := range f.Verified {
		verified[i] = planner.Verified{Question: v.Question, SQL: v.SQL}
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, verified), Hash: f.Hash}
	// The value index is a cache: without one (or with one that cannot be
	// opened, which quarry doctor reports) the planner reads the knowledge
	// alone.
	var values io.Closer
	if ix, err := valueindex.Open(filepath.Join(f.Dir, filepath.FromSlash(knowledge.ValuesFile))); err == nil {
		k.Values, values = ix, ix
	}
	for _, m := range f.Model.Metrics {
		if strings.EqualFold(m.Unit, "USD") {
			k.Currency = "$"
			break
		}
	}
	return k, values
}

// ahead is the knowledge folder, its planner and one question's plan,
// made in a goroutine while the connection opens (planAhead). Only that
// goroutine writes to the channels; only the runtime's own goroutine
// reads them, once each, and the plan.
type ahead struct {
	folder chan folderRead // the folder, as folder would load it
	built  chan builtAhead // then its knowledge and the plan
	plan   *analyst.Planned
}

type builtAhead struct {
	k      *analyst.Knowledge
	values io.Closer
	plan   *analyst.Planned
}

// planAhead starts loading the knowledge folder, building its planner
// and planning question at asOf, for the builtin planner's Ask, when
// nothing of the folder was read yet. On a schema of ten thousand tables
// the folder and the plan take about as long as opening the connection,
// reading its catalog and building its guard, which go on meanwhile.
func (r *Runtime) planAhead(ctx context.Context, cfg *config.Config, question string, asOf time.Time) {
	if r.kf != nil || r.ahead != nil {
		return
	}
	a := &ahead{folder: make(chan folderRead, 1), built: make(chan builtAhead, 1)}
	r.ahead = a
	go func() {
		f, err := knowledge.Load(cfg.Knowledge)
		a.folder <- folderRead{f: f, err: err}
		if err != nil {
			a.built <- builtAhead{}
			return
		}
		k, values := newKnowledge(f)
		a.built <- builtAhead{k: k, values: values, plan: k.PlanNow(ctx, question, asOf)}
	}()
}

// planned is the plan planAhead made, or nil; it is handed out once.
func (r *Runtime) planned() *analyst.Planned {
	if r.ahead == nil {
		return nil
	}
	p := r.ahead.plan
	r.ahead = nil
	return p
}

// settleAhead waits for what planAhead started and keeps it, so that
// nothing it opened is left behind.
func (r *Runtime) settleAhead() {
	if r.ahead == nil {
		return
	}
	cfg, err := r.Config()
	if err == nil {
		r.folder(cfg)
	}
	if r.kf != nil && r.kf.err == nil {
		r.Knowledge()
	}
	r.ahead = nil
}

// Verified is the knowledge folder's approved questions and their SQL, as
// a model is shown them.
func (r *Runtime) Verified() ([]agent.Verified, error) {
	f, err := r.Folder()
	if err != nil {
		return nil, err
	}
	var verified []agent.Verified
	for _, v := range f.Verified {
		verified = append(verified, agent.Verified{Question: v.Question, SQL: v.SQL})
	}
	return verified, nil
}

// agentKnowledge loads the knowledge folder for the agent. A project
// without one still gets answers from a model (the live schema is enough),
// so a missing folder is an empty model, not an error.
func (r *Runtime) agentKnowledge(cfg *config.Config) (*analyst.Knowledge, []agent.Verified, error) {
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		return &analyst.Knowledge{}, nil, nil
	}
	k, err := r.Knowledge()
	if err != nil {
		return nil, nil, err
	}
	verified, err := r.Verified()
	if err != nil {
		return nil, nil, err
	}
	return k, verified, nil
}

// serverKnowledge loads the knowledge folder for a server. A project that
// has not run quarry learn yet is still served: SQL runs, the schema is
// described, and questions are answered by the model when there is one;
// the builtin planner says what it does not know, and a note says how to
// teach it.
func (r *Runtime) serverKnowledge(cfg *config.Config) (*analyst.Knowledge, error) {
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(r.o.Notes, "quarry: no knowledge folder at %s; questions get answers only from a language model until you run quarry learn\n", cfg.Knowledge)
		model := &semantic.Model{}
		return &analyst.Knowledge{Model: model, Planner: planner.New(model, nil)}, nil
	}
	return r.Knowledge()
}
