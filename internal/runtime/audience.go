package runtime

import (
	"context"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
)

// audience is what the groups of the person a request is made for change
// in how it is served (policy.yaml's groups:, docs/auth.md): the columns
// restricted for them on top of the project's, and whether they may use
// the served connection. People in the same groups of the policy share one
// audience, and so one variant of the server's generation.
type audience struct {
	// key names the audience: the policy's groups the person is in, lower
	// case, sorted, comma-separated; "" when they are in none.
	key string
	// columns are the groups' restricted columns, "table.column".
	columns []string
	// refused says why they may not use the connection; nil when they may.
	refused error
	// role is the database role they read as (the connection's
	// group_roles); "": the connection's own.
	role string
}

// audienceOf is the audience of a member of groups member (as the sign-in
// gave them, matched without regard to case) under the policy's groups,
// on the connection conn. A group restricts, never grants: the person's
// restricted columns are the union of their groups', and where a group
// lists connections its members may use those only.
func audienceOf(groups []knowledge.PolicyGroup, roles map[string]string, member []string, conn string) audience {
	var a audience
	var names []string
	// The roles of the connection's group_roles: one at most, or none of
	// them (two groups reading as two roles cannot both be had).
	var withRole []string
	for _, m := range member {
		if r, ok := roles[strings.ToLower(m)]; ok {
			if a.role != "" && a.role != r && a.refused == nil {
				a.refused = quarry.Errorf(quarry.KindForbidden, "groups %s and %s read %s as different database roles (%s, %s); ask an admin to keep one of them (quarry users set-groups)", withRole[0], m, conn, a.role, r)
			}
			if a.role == "" {
				a.role = r
			}
			withRole = append(withRole, m)
			names = append(names, strings.ToLower(m)+"="+r)
		}
	}
	for _, g := range groups {
		if !slices.ContainsFunc(member, func(m string) bool { return strings.EqualFold(m, g.Name) }) {
			continue
		}
		names = append(names, strings.ToLower(g.Name))
		for _, r := range g.Restricted {
			a.columns = append(a.columns, r.Column)
		}
		if len(g.Connections) > 0 && !slices.Contains(g.Connections, conn) && a.refused == nil {
			a.refused = quarry.Errorf(quarry.KindForbidden, "members of group %s may use only the connections %s, not %s; ask an admin (knowledge/policy.yaml, groups:)", g.Name, strings.Join(g.Connections, ", "), conn)
		}
	}
	slices.Sort(names)
	a.key = strings.Join(slices.Compact(names), ",")
	return a
}

// MayUse says whether members of groups may use the server's connection
// (policy.yaml's groups may limit them to others): nil when they may,
// else a KindForbidden error that says why. A server in manual mode runs
// nothing, so it limits nobody.
func (s *Server) MayUse(ctx context.Context, groups []string) error {
	g, err := s.gens.current(ctx)
	if err != nil || g.guard == nil {
		return err
	}
	return audienceOf(g.proj.Groups, g.cc.GroupRoles, groups, g.conn).refused
}

// PolicyGroups returns the names of policy.yaml's groups (none when
// the project has no knowledge folder yet).
func (r *Runtime) PolicyGroups() ([]string, error) {
	if _, err := r.Policy(); err != nil {
		return nil, err
	}
	var out []string
	for _, g := range r.pol.groups {
		out = append(out, g.Name)
	}
	return out, nil
}

// variant builds base as an audience is served: the knowledge and its
// planner with the audience's columns restricted as the project's are
// (not shown to a model, never compiled into a query), and the guard and
// connections under the joint policy, so that the engine's own check
// (SQLite's authorizer, the policy over the parse elsewhere) refuses what
// the audience may not read. Its value index and monitors are base's.
func (b *builder) variant(ctx context.Context, base *generation, a audience) (*generation, error) {
	proj := *base.proj
	cols := a.columns
	if m := base.proj.Knowledge.Model; m != nil {
		// As FromModel does: a column named by its entity holds for the
		// entity's table too.
		for _, c := range a.columns {
			if t, col, ok := strings.Cut(c, "."); ok {
				if e := m.Entity(t); e != nil {
					cols = append(cols, e.TableName()+"."+col)
				}
			}
		}
	}
	proj.Policy = base.proj.Policy.With(cols...)
	proj.Knowledge = restrictKnowledge(base.proj.Knowledge, proj.Verified, a.columns)
	agentK := proj.Knowledge
	if b.gw != nil && base.tmpl.Knowledge != base.proj.Knowledge {
		agentK = restrictKnowledge(base.tmpl.Knowledge, proj.Verified, a.columns)
	}
	g := &generation{proj: &proj, cc: base.cc, hash: base.hash, noKnowledge: base.noKnowledge, refused: a.refused, role: a.role}
	if err := b.assemble(ctx, g, agentK, true); err != nil {
		return nil, err
	}
	return g, nil
}

// restrictKnowledge is k with the columns cols restricted as well: its
// model lists them, and its planner is built over that model.
func restrictKnowledge(k *analyst.Knowledge, verified []agent.Verified, cols []string) *analyst.Knowledge {
	if k == nil || k.Model == nil {
		return k
	}
	m := *k.Model
	m.Restricted = append(slices.Clone(m.Restricted), cols...)
	// The columns' known values are not the group's to use, and not kept
	// to scrub from text either: a question's word turned [restricted]
	// would tell a member it is one of them (the project's own restricted
	// columns are never profiled, so they have none).
	m.Entities = slices.Clone(m.Entities)
	for _, c := range cols {
		t, col, ok := strings.Cut(c, ".")
		if !ok {
			continue
		}
		for i := range m.Entities {
			e := &m.Entities[i]
			if !strings.EqualFold(e.Name, t) && !strings.EqualFold(e.TableName(), t) {
				continue
			}
			e.Columns = slices.Clone(e.Columns)
			for j := range e.Columns {
				if strings.EqualFold(e.Columns[j].Name, col) {
					e.Columns[j].Values = nil
				}
			}
		}
	}
	out := *k
	out.Model = &m
	pv := make([]planner.Verified, len(verified))
	for i, v := range verified {
		pv[i] = planner.Verified{Question: v.Question, SQL: v.SQL}
	}
	out.Planner = planner.New(&m, pv)
	return &out
}

// asRole runs every statement as a database role (a group's).
type asRole struct {
	analyst.Querier
	role string
}

func (q asRole) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	opts.Role = q.role
	return q.Querier.Query(ctx, sql, opts)
}
