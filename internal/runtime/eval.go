package runtime

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/eval"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Eval runs golden sets against the named connection through the
// project's own pipeline: the runtime's analyst (the project's guard,
// column policy and limits; no result cache, so that every case reads
// the database) and knowledge, each case a recorded run.
func (r *Runtime) Eval(ctx context.Context, connName string, sets []*eval.Set, opts eval.Options) ([]eval.Result, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	k, err := r.Knowledge()
	if err != nil {
		return nil, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	conn, _, err := r.Conn(ctx, connName)
	if err != nil {
		return nil, err
	}
	an, release, err := r.Analyst(ctx, connName, cfg.Limits.MaxRows)
	if err != nil {
		return nil, err
	}
	defer release()
	an.Cache = nil
	sys := eval.Over(an, k, eval.BuiltinOptions{Sink: st, NewRunID: func() string { return r.NewID("r") }})
	opts.ExtraColumns, opts.CheckGold = true, true
	var all []eval.Result
	for _, s := range sets {
		rs, err := eval.Run(ctx, sys, conn, s, opts)
		all = append(all, rs...)
		if err != nil {
			return all, err
		}
	}
	return all, nil
}

// EvalFaults injects planner mistakes into the builtin planner's correct
// answers of sets (graded in results) and reports how many the checks
// catch, with the false alarms on the unmodified queries (eval.RunFaults),
// through the project's own pipeline.
func (r *Runtime) EvalFaults(ctx context.Context, connName string, sets []*eval.Set, results []eval.Result, asOf time.Time) (eval.FaultReport, error) {
	cfg, err := r.Config()
	if err != nil {
		return eval.FaultReport{}, err
	}
	k, err := r.Knowledge()
	if err != nil {
		return eval.FaultReport{}, err
	}
	an, release, err := r.Analyst(ctx, connName, cfg.Limits.MaxRows)
	if err != nil {
		return eval.FaultReport{}, err
	}
	defer release()
	an.Cache, an.Results = nil, nil // nothing of it is kept
	var total eval.FaultReport
	for _, s := range sets {
		rep, err := eval.RunFaults(ctx, an, k, s, results, asOf)
		if err != nil {
			return total, err
		}
		total = total.Add(rep)
	}
	return total, nil
}

// EvalSpider runs the Spider benchmark in dir (only the databases named
// in only, when given) with the builtin planner over each database's own
// SQLite file; no project is involved.
func EvalSpider(ctx context.Context, dir string, only []string, opts eval.Options, faults bool, log io.Writer) (*eval.SpiderReport, error) {
	sp, err := eval.LoadSpider(dir)
	if err != nil {
		return nil, err
	}
	return eval.RunSpider(ctx, sp, eval.SpiderOptions{
		Options: opts,
		Open: func(ctx context.Context, path string) (eval.Database, error) {
			return sqlite.Open(ctx, path, sqlite.Options{})
		},
		Only:   only,
		Log:    log,
		Faults: faults,
	})
}

// RetrievalOptions choose what EvalRetrieval measures.
type RetrievalOptions struct {
	// SpiderDir, when set, is a Spider folder whose databases are pooled
	// into one catalog.
	SpiderDir string
	// Tables and Questions size the synthetic catalog (0: none).
	Tables, Questions int
	Seed              uint64
	Budget            int
}

// EvalRetrieval measures the retrieval index on pooled Spider (every
// database's catalog read through the read-only SQLite connector) and on
// a synthetic catalog.
func EvalRetrieval(ctx context.Context, opts RetrievalOptions) ([]eval.RetrievalReport, error) {
	var sets []*eval.RetrievalSet
	if opts.SpiderDir != "" {
		sp, err := eval.LoadSpider(opts.SpiderDir)
		if err != nil {
			return nil, err
		}
		cats := map[string]*quarry.Catalog{}
		for _, db := range sp.DBs {
			conn, err := sqlite.Open(ctx, db.Path, sqlite.Options{})
			if err != nil {
				return nil, err
			}
			cat, err := conn.Catalog(ctx)
			conn.Close()
			if err != nil {
				return nil, err
			}
			cats[db.Name] = cat
		}
		sets = append(sets, eval.PooledSpider(sp, cats))
	}
	if opts.Tables > 0 {
		cat, cases := eval.SyntheticCatalog(opts.Tables, opts.Questions, opts.Seed)
		sets = append(sets, &eval.RetrievalSet{Name: fmt.Sprintf("synthetic %d-table catalog", len(cat.Tables)), Catalog: cat, Cases: cases})
	}
	var out []eval.RetrievalReport
	for _, s := range sets {
		if err := ctx.Err(); err != nil {
			return out, quarry.Wrap(quarry.KindCanceled, err, "the retrieval benchmark was interrupted")
		}
		out = append(out, eval.RunRetrieval(s, eval.RetrievalOptions{Budget: opts.Budget}))
	}
	return out, nil
}
