package runtime

import (
	"context"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// Views over restricted columns. The column policy names base columns;
// a view that reads one (under another name, or in its WHERE) is refused
// by the guard when a statement reads it, but what the knowledge folder
// recorded of the view before the policy named the column — its values,
// their spellings, the value index's entries — would still reach the
// reading, a did-you-mean or a question back (found by an attacker: every
// restricted tier through "acct view by level", each user's VIP flag
// through the views a name was found in). The guard decides which view
// columns it refuses, as it would for a statement, and those are
// restricted in the model the planner reads, for as long as the policy
// stands.

// refusedViewColumns returns "view.column" for every column of a view of
// cat that the guard g refuses to read under the column policy: all of a
// view the guard refuses as a whole (its WHERE reads a restricted
// column), else each column read from a restricted one.
func refusedViewColumns(ctx context.Context, g analyst.Guard, d quarry.Dialect, cat *quarry.Catalog) []string {
	quote := func(s string) string {
		if d == quarry.DialectMySQL {
			return "`" + strings.ReplaceAll(s, "`", "``") + "`"
		}
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	refused := func(sql string) bool {
		return slices.ContainsFunc(g.Check(ctx, sql).Violations, func(v sqlguard.Violation) bool { return v.Code == policy.Code })
	}
	var out []string
	for _, t := range cat.Tables {
		if !t.View {
			continue
		}
		rel := quote(t.Name)
		if t.Schema != "" {
			rel = quote(t.Schema) + "." + rel
		}
		whole := refused("SELECT 1 FROM " + rel)
		for _, c := range t.Columns {
			if whole || refused("SELECT "+quote(c.Name)+" FROM "+rel) {
				out = append(out, t.Name+"."+c.Name)
			}
		}
	}
	return out
}

// withViewPolicy returns k with the view columns the guard of conn
// refuses added to its model's restricted columns, and its planner built
// again over that model; k itself, and false, when the policy is off or
// empty or refuses no view column.
func (r *Runtime) withViewPolicy(ctx context.Context, conn connector.Conn, g analyst.Guard, k *analyst.Knowledge) (*analyst.Knowledge, bool, error) {
	p, err := r.Policy()
	if err != nil || r.pol.off || p.Empty() || k == nil || k.Model == nil {
		return k, false, err
	}
	var cat *quarry.Catalog
	if v, ok := conn.(viewLister); ok && r.cats[conn].cat == nil {
		// Only the views are read here: describing every table of a
		// wide schema for each question cost a second (found from
		// outside: 8,750 tables and one restricted column).
		cat, err = v.Views(ctx)
	} else {
		cat, err = r.Catalog(ctx, conn)
	}
	if err != nil {
		return nil, false, err
	}
	return r.restricting(k, refusedViewColumns(ctx, g, conn.Dialect(), cat))
}

// viewLister is a connection that describes its views without its
// tables (sqlite.Conn).
type viewLister interface {
	Views(ctx context.Context) (*quarry.Catalog, error)
}

// restricting returns k with the columns extra withheld in its model
// (restricted as the policy's own are, semantic.Model.Withheld)
// and its planner built again over that model (with the folder's
// verified questions); k itself, and false, when extra is empty.
func (r *Runtime) restricting(k *analyst.Knowledge, extra []string) (*analyst.Knowledge, bool, error) {
	if len(extra) == 0 || k == nil || k.Model == nil {
		return k, false, nil
	}
	m := *k.Model
	m.Withheld = append(slices.Clip(m.Withheld), extra...)
	var verified []planner.Verified
	if cfg, err := r.Config(); err == nil {
		if f, err := r.folder(cfg); err == nil {
			for _, v := range f.Verified {
				verified = append(verified, planner.Verified{Question: v.Question, SQL: v.SQL})
			}
		}
	}
	k2 := *k
	k2.Model, k2.Planner = &m, planner.New(&m, verified)
	return &k2, true, nil
}
