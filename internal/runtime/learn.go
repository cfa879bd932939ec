package runtime

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/valueindex"
)

// LearnReport is what learn changed in the knowledge folder, and what
// the value index it wrote holds.
type LearnReport struct {
	*knowledge.LearnReport
	// ValueIndex is what the value index holds and left out; nil when it
	// was not written (a warning says why).
	ValueIndex *valueindex.Stats `json:"value_index,omitempty"`
}

// Learn builds or refreshes the knowledge folder from conn's catalog and
// the known values of its low-cardinality columns, read through the
// connection's guard and column policy; the runtime then reads the folder
// again, and writes its value index (knowledge.ValuesFile) from the
// distinct values of every text column, through the same guard and policy.
func (r *Runtime) Learn(ctx context.Context, conn connector.Conn, opts knowledge.LearnOptions) (*LearnReport, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	g, closeGuard, err := r.ConnGuard(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer closeGuard()
	src := learnSource{Conn: conn, guard: g}
	// What learn read stays in the folder's progress file until the
	// value index is built too: a run interrupted while building it
	// resumes without reading the tables again.
	opts.KeepProgress = true
	rep, err := knowledge.Learn(ctx, src, cfg.Knowledge, opts)
	r.Reload()
	if err != nil {
		return nil, err
	}
	out := &LearnReport{LearnReport: rep}
	f, err := r.Folder()
	if err != nil {
		rep.Warnings = append(rep.Warnings, "value index not written: the knowledge folder does not load: "+quarry.Message(err))
		knowledge.ForgetProgress(cfg.Knowledge)
		return out, nil
	}
	st, err := valueindex.Build(ctx, src, f.Model, filepath.Join(cfg.Knowledge, filepath.FromSlash(knowledge.ValuesFile)), valueindex.Limits{Now: opts.Now})
	switch {
	case err == nil:
		out.ValueIndex = st
		for _, f := range st.Failed {
			rep.Warnings = append(rep.Warnings, "values of "+f+" not indexed")
		}
	case quarry.KindOf(err) == quarry.KindCanceled:
		return nil, err
	default:
		rep.Warnings = append(rep.Warnings, "value index not written: "+quarry.Message(err))
	}
	knowledge.ForgetProgress(cfg.Knowledge)
	r.Reload()
	return out, nil
}

// learnSource narrows a connection to what learn reads, through the guard
// and the project's column policy: learn never reads the values of a
// column the policy withholds (a restricted column, a view over one).
type learnSource struct {
	connector.Conn
	guard analyst.Guard
}

// Catalog is the connection's catalog without the row counts of the
// relations the column policy withholds whole: the row count of a
// materialized view over a restricted column counts the rows that meet
// its condition on the column (learn would write it to model.yaml).
func (s learnSource) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	cat, err := s.Conn.Catalog(ctx)
	if err != nil || cat == nil {
		return cat, err
	}
	withheld := withheldBy(ctx, s.guard, s.Conn.Dialect(), cat)
	if len(withheld) == 0 {
		return cat, nil
	}
	out := *cat
	out.Tables = slices.Clone(cat.Tables)
	for i := range out.Tables {
		if withheld[strings.ToLower(out.Tables[i].Name)] {
			out.Tables[i].RowCount = -1
		}
	}
	return &out, nil
}

func (s learnSource) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	if v := s.guard.Check(ctx, sql); !v.Allowed {
		kind := quarry.KindRejected
		for _, viol := range v.Violations {
			if viol.Code == policy.Code {
				kind = quarry.KindForbidden
			}
		}
		return nil, quarry.Errorf(kind, "%s", v.String())
	}
	return s.Conn.Query(ctx, sql, opts)
}
