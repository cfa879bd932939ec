package runtime

import (
	"context"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Learn builds or refreshes the knowledge folder from conn's catalog and
// the known values of its low-cardinality columns, read through the
// connection's guard and column policy; the runtime then reads the folder
// again.
func (r *Runtime) Learn(ctx context.Context, conn connector.Conn, opts knowledge.LearnOptions) (*knowledge.LearnReport, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	g, closeGuard, err := r.ConnGuard(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer closeGuard()
	rep, err := knowledge.Learn(ctx, learnSource{Conn: conn, guard: g}, cfg.Knowledge, opts)
	r.Reload()
	return rep, err
}

// learnSource narrows a connection to what learn reads, through the guard
// and the project's column policy: learn never reads the values of a
// column the policy withholds (a restricted column, a view over one).
type learnSource struct {
	connector.Conn
	guard analyst.Guard
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
