package runtime

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	if r.kf.k != nil {
		return r.kf.k, nil
	}
	verified := make([]planner.Verified, len(f.Verified))
	for i, v := range f.Verified {
		verified[i] = planner.Verified{Question: v.Question, SQL: v.SQL}
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, verified), Hash: f.Hash}
	// The value index is a cache: without one (or with one that cannot be
	// opened, which quarry doctor reports) the planner reads the knowledge
	// alone.
	if ix, err := valueindex.Open(filepath.Join(f.Dir, filepath.FromSlash(knowledge.ValuesFile))); err == nil {
		k.Values, r.kf.values = ix, ix
	}
	for _, m := range f.Model.Metrics {
		if strings.EqualFold(m.Unit, "USD") {
			k.Currency = "$"
			break
		}
	}
	r.kf.k = k
	return k, nil
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
