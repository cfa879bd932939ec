package semantic

import (
	"strings"
)

// Role entities: a table reached through one of several links.
//
// A table with two foreign keys to the same table (shipments'
// origin_warehouse_id and destination_warehouse_id, both to warehouses)
// joins that table in two ways, and a field of warehouses alone does not
// say which. WithRoles gives each such link an entity of its own, named
// by the link (the relationship's name, "origin_warehouse"): the same
// physical table with the same columns, reached from the link's table
// through that link only. The compiler reads it as any entity whose name
// differs from its table, an alias (FROM shipments LEFT JOIN warehouses
// AS origin_warehouse ON origin_warehouse.warehouse_id =
// shipments.origin_warehouse_id), so that both roles can be joined in
// one query. The column policy reads an entity's physical table as well
// as its name (IsRestricted, RestrictedCheck), so a restricted column of
// warehouses is restricted through every role.
//
// Role entities are derived, never written to the knowledge folder: they
// follow the links as the folder declares them, today's and tomorrow's,
// and a model written by hand or imported gets them as a learned one
// does. The planner plans over the derived model and a plan compiles
// against it (planner.Plan.Model).

// Role says which link a role entity is reached through.
type Role struct {
	Of         string `json:"of"`          // the entity whose table it is ("warehouses")
	Link       string `json:"link"`        // the relationship's name ("origin_warehouse")
	From       string `json:"from"`        // the entity the link starts from ("shipments")
	FromColumn string `json:"from_column"` // its key column ("origin_warehouse_id")
	// Word is the role in a word ("origin"): the link's name without the
	// name of the table it points at; empty when nothing is left.
	Word string `json:"word,omitempty"`
}

// Via is the link in words: "shipments.origin_warehouse_id".
func (r *Role) Via() string { return r.From + "." + r.FromColumn }

// WithRoles returns m with a role entity, and the relationship that
// reaches it, for every many-to-one link that shares its pair of
// entities with another link; m itself when there is none. m is not
// modified. Applied twice it adds nothing more.
func WithRoles(m *Model) *Model {
	if m == nil {
		return m
	}
	roles := roleLinks(m)
	if len(roles) == 0 {
		return m
	}
	c := *m
	c.Entities = make([]Entity, 0, len(m.Entities)+len(roles))
	c.Entities = append(c.Entities, m.Entities...)
	c.Relationships = make([]Relationship, 0, len(m.Relationships)+len(roles))
	c.Relationships = append(c.Relationships, m.Relationships...)
	x := m.EntityIndex()
	for _, ri := range roles {
		r := m.Relationships[ri]
		to := x.Get(r.To)
		name := roleName(r)
		e := *to
		e.Name = name
		e.Description = to.Name + " reached through " + r.From + "." + r.FromColumn
		e.Synonyms = nil
		// The known values stay the table's: a value names the table's
		// column, and the question says through which link ("shipments
		// from Chicago" is asked back: origin or destination?).
		e.Columns = make([]Column, 0, len(to.Columns))
		for _, c := range to.Columns {
			if r.From == r.To && strings.EqualFold(c.Name, r.FromColumn) {
				// A link of a table to itself: the role's own reference
				// (the referrer's referred_by) is no column of the role
				// a question means (found from outside: "customers who
				// have referred at least 3 people" compared
				// referrer.referred_by with 3).
				continue
			}
			c.Values = nil
			e.Columns = append(e.Columns, c)
		}
		role := &Role{Of: to.Name, Link: name, From: x.Get(r.From).Name, FromColumn: r.FromColumn, Word: roleWord(name, to)}
		e.Role = role
		if role.Word != "" && !preposition(role.Word) {
			// "shipments by origin": the role alone names it; "from" of
			// from_warehouse never does ("purchase orders from German
			// suppliers"; found from outside).
			e.Synonyms = []string{role.Word}
		}
		if e.Table == "" {
			e.Table = to.Name
		}
		c.Entities = append(c.Entities, e)
		c.Relationships = append(c.Relationships, Relationship{
			Name: name, From: role.From, FromColumn: r.FromColumn, To: name, ToColumn: r.ToColumn,
			Cardinality: r.Cardinality, Verbs: r.Verbs,
		})
	}
	return &c
}

// roleLinks are the indices of the relationships that get a role entity:
// many-to-one (or one-to-one) links between two different entities whose
// pair another such link with another key shares, each with a name that
// no entity has and no other link of the pair has.
func roleLinks(m *Model) []int {
	x := m.EntityIndex()
	groups := map[string][]int{}
	var order []string
	var selfLinks []int
	for i, r := range m.Relationships {
		if r.Cardinality != ManyToOne && r.Cardinality != OneToOne {
			continue
		}
		from, to := x.Get(r.From), x.Get(r.To)
		if from == nil || to == nil || to.Role != nil || from.Role != nil {
			continue
		}
		if from == to {
			// A table's link to itself (an employee's manager, a
			// customer's referrer) reaches its rows in a role of their
			// own, always: "employees whose manager is Grace Moreau"
			// (found from outside: "manager" not understood).
			if n := roleName(r); n != "" && x.Get(n) == nil && !strings.EqualFold(n, from.Name) {
				selfLinks = append(selfLinks, i)
			}
			continue
		}
		k := strings.ToLower(from.Name + "\x00" + to.Name)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	var out []int
	for _, k := range order {
		g := groups[k]
		keys, names := map[string]bool{}, map[string]int{}
		for _, i := range g {
			r := m.Relationships[i]
			keys[strings.ToLower(r.FromColumn+"\x00"+r.ToColumn)] = true
			names[strings.ToLower(roleName(r))]++
		}
		if len(keys) < 2 {
			continue // one key declared twice: one link
		}
		for _, i := range g {
			n := roleName(m.Relationships[i])
			if n == "" || names[strings.ToLower(n)] > 1 || x.Get(n) != nil {
				continue // unnamed, or named as another link or an entity: not by role
			}
			out = append(out, i)
		}
	}
	return append(out, selfLinks...)
}

// roleName is the name of the role entity of link r: its name, or its
// key column without a trailing _id.
func roleName(r Relationship) string {
	if r.Name != "" {
		return r.Name
	}
	n := r.FromColumn
	for _, suf := range []string{"_id", "_ID", "_Id", "id", "Id", "ID"} {
		if len(n) > len(suf) && strings.HasSuffix(n, suf) {
			return strings.TrimRight(strings.TrimSuffix(n, suf), "_")
		}
	}
	return n
}

// roleWord is a role's name without the words that name the table it
// points at: "origin" of origin_warehouse, "home" of home_team_id.
func roleWord(name string, to *Entity) string {
	target := map[string]bool{}
	for _, n := range []string{to.Name, to.TableName()} {
		for _, w := range strings.FieldsFunc(strings.ToLower(n), notLetterOrDigit) {
			target[w] = true
			target[strings.TrimSuffix(w, "s")] = true
			target[strings.TrimSuffix(w, "es")] = true
		}
	}
	var kept []string
	for _, w := range strings.FieldsFunc(strings.ToLower(splitCamel(name)), notLetterOrDigit) {
		if !target[w] && w != "id" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// preposition reports whether a role's word is a preposition: a word of
// every question, never a name.
func preposition(w string) bool {
	switch w {
	case "from", "to", "in", "on", "at", "by", "of", "for", "with", "into", "via":
		return true
	}
	return false
}

func notLetterOrDigit(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
}

// splitCamel puts an underscore between a lower-case letter and the
// upper-case one after it: SourceAirport → Source_Airport.
func splitCamel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte('_')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// RoleOf is the role of entity name, or nil when it is no role entity.
func (m *Model) RoleOf(name string) *Role {
	if e := m.Entity(name); e != nil {
		return e.Role
	}
	return nil
}
