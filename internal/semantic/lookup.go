package semantic

import (
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Entity returns the entity with the given name (exact, then
// case-insensitive), or nil.
func (m *Model) Entity(name string) *Entity {
	for i := range m.Entities {
		if m.Entities[i].Name == name {
			return &m.Entities[i]
		}
	}
	for i := range m.Entities {
		if strings.EqualFold(m.Entities[i].Name, name) {
			return &m.Entities[i]
		}
	}
	return nil
}

// EntityIndex finds entities by name as Entity does (the exact name
// first, then without regard to case) with one map look-up: a loop over
// every entity or relationship builds one rather than calling Entity,
// which scans the entities, once per name.
type EntityIndex struct {
	exact  map[string]*Entity
	folded func() map[string]*Entity // lower-cased names, built when first needed
}

// EntityIndex indexes m's entities by name.
func (m *Model) EntityIndex() EntityIndex {
	ents := m.Entities
	x := EntityIndex{exact: make(map[string]*Entity, len(ents))}
	for i := range ents {
		if e := &ents[i]; x.exact[e.Name] == nil {
			x.exact[e.Name] = e
		}
	}
	// Names are mostly found as written: the names without case are
	// indexed at the first that is not, once (a wide model's compile
	// builds an index and seldom needs them).
	x.folded = sync.OnceValue(func() map[string]*Entity {
		folded := make(map[string]*Entity, len(ents))
		for i := range ents {
			if k := strings.ToLower(ents[i].Name); folded[k] == nil {
				folded[k] = &ents[i]
			}
		}
		return folded
	})
	return x
}

// Get is the entity named name, as Entity finds it, or nil.
func (x EntityIndex) Get(name string) *Entity {
	if e := x.exact[name]; e != nil || x.folded == nil {
		return e
	}
	return x.folded()[strings.ToLower(name)]
}

// Metric returns the metric with the given name (exact, then
// case-insensitive), or nil.
func (m *Model) Metric(name string) *Metric {
	for i := range m.Metrics {
		if m.Metrics[i].Name == name {
			return &m.Metrics[i]
		}
	}
	for i := range m.Metrics {
		if strings.EqualFold(m.Metrics[i].Name, name) {
			return &m.Metrics[i]
		}
	}
	return nil
}

// Dimension returns the dimension with the given name (exact, then
// case-insensitive), or nil.
func (m *Model) Dimension(name string) *Dimension {
	for i := range m.Dimensions {
		if m.Dimensions[i].Name == name {
			return &m.Dimensions[i]
		}
	}
	for i := range m.Dimensions {
		if strings.EqualFold(m.Dimensions[i].Name, name) {
			return &m.Dimensions[i]
		}
	}
	return nil
}

// Column returns the column with the given name (exact, then
// case-insensitive), or nil.
func (e *Entity) Column(name string) *Column {
	for i := range e.Columns {
		if e.Columns[i].Name == name {
			return &e.Columns[i]
		}
	}
	for i := range e.Columns {
		if strings.EqualFold(e.Columns[i].Name, name) {
			return &e.Columns[i]
		}
	}
	return nil
}

// TableName is the physical table of e: Table, or Name when Table is empty.
func (e *Entity) TableName() string {
	if e.Table != "" {
		return e.Table
	}
	return e.Name
}

// Relation is the physical relation of e as a (schema, table) pair:
// Schema ("" for the connection's default) and TableName. Code that
// writes SQL quotes each part by itself and never splits either at a dot.
func (e *Entity) Relation() (schema, table string) { return e.Schema, e.TableName() }

// QualifiedName is how e's relation is shown to people and to a model,
// and matched against a catalog's "schema.table": TableName, after
// Schema and a dot when e has a schema.
func (e *Entity) QualifiedName() string {
	if e.Schema == "" {
		return e.TableName()
	}
	return e.Schema + "." + e.TableName()
}

// FieldKind says what a field reference names.
type FieldKind string

// The field kinds.
const (
	FieldMetric    FieldKind = "metric"
	FieldDimension FieldKind = "dimension"
	FieldColumn    FieldKind = "column"
)

// Field is what a field reference resolved to. Exactly one of Metric,
// Dimension or (Entity, Column) is set, as Kind says.
type Field struct {
	Kind      FieldKind
	Metric    *Metric
	Dimension *Dimension
	Entity    *Entity
	Column    *Column
}

// Name is the canonical reference of the field: the metric or dimension
// name, or "entity.column".
func (f Field) Name() string {
	switch f.Kind {
	case FieldMetric:
		return f.Metric.Name
	case FieldDimension:
		return f.Dimension.Name
	default:
		return f.Entity.Name + "." + f.Column.Name
	}
}

// ResolveField says what a field reference names: a metric, a dimension,
// or an entity column written "entity.column". Metrics win over dimensions
// of the same name. An unknown reference is a KindInput error that names it.
func (m *Model) ResolveField(ref string) (Field, error) {
	if mt := m.Metric(ref); mt != nil {
		return Field{Kind: FieldMetric, Metric: mt}, nil
	}
	if d := m.Dimension(ref); d != nil {
		return Field{Kind: FieldDimension, Dimension: d}, nil
	}
	if ent, col, ok := m.SplitField(ref); ok {
		e := m.Entity(ent)
		if e == nil {
			return Field{}, quarry.Errorf(quarry.KindInput, "unknown field %q: there is no entity %q in the semantic model", ref, ent)
		}
		c := e.Column(col)
		if c == nil {
			return Field{}, quarry.Errorf(quarry.KindInput, "unknown field %q: entity %s has no column %q", ref, e.Name, col)
		}
		return Field{Kind: FieldColumn, Entity: e, Column: c}, nil
	}
	return Field{}, quarry.Errorf(quarry.KindInput, "unknown field %q: not a metric, a dimension or an entity.column of the semantic model", ref)
}

// ColumnField is the column a field reads: an entity.column, or a
// dimension over one plain column; false for a metric, a dimension over
// an expression, or an unknown reference.
func (m *Model) ColumnField(ref string) (Field, bool) {
	f, err := m.ResolveField(ref)
	if err == nil && f.Kind == FieldDimension {
		f, err = m.ResolveField(strings.TrimSpace(f.Dimension.Expr))
	}
	return f, err == nil && f.Kind == FieldColumn
}

// SplitField reads a column reference, "entity.column", as its entity
// and column names: written as Ref writes it (quoted parts), or plain,
// where the dot that separates them is the first one after which an
// entity of the model has the column named by the rest (so that
// "sales.orders.sales.total" is column sales.total of entity
// sales.orders when the model has it), else the first dot.
func (m *Model) SplitField(ref string) (entity, column string, ok bool) {
	if strings.HasPrefix(ref, `"`) {
		if e, i, ok := scanName(ref, 0); ok && i < len(ref) && ref[i] == '.' {
			if c, j, ok := scanName(ref, i+1); ok && j == len(ref) {
				return e, c, true
			}
		}
	}
	for i := 0; i < len(ref); i++ {
		if ref[i] != '.' {
			continue
		}
		if e := m.Entity(ref[:i]); e != nil {
			if c := ref[i+1:]; e.Column(c) != nil || strings.HasPrefix(c, `"`) {
				if strings.HasPrefix(c, `"`) {
					if n, j, ok := scanName(c, 0); ok && j == len(c) {
						c = n
					}
				}
				return ref[:i], c, true
			}
		}
	}
	return strings.Cut(ref, ".")
}

// RestrictedReadings is every (table, column) an entry of the column
// policy can mean. An entry is "table.column", optionally after a
// schema ("schema.table.column"; tables are matched whatever their
// schema), each part bare or double-quoted as Ref writes it. A bare
// entry with more than one dot is ambiguous — "sales.orders.secret" is
// column secret of a table named "sales.orders", or of table orders in
// schema sales, or column "orders.secret" of table sales — and the
// policy fails closed: it means all of them.
func RestrictedReadings(entry string) [][2]string {
	if strings.Contains(entry, `"`) {
		var parts []string
		for i := 0; i < len(entry); {
			n, j, ok := scanName(entry, i)
			if !ok || entry[i] != '"' && strings.ContainsAny(n, `"`) {
				parts = nil
				break
			}
			if entry[i] != '"' {
				// a bare part runs to the next dot
				j = i + strings.IndexByte(entry[i:]+".", '.')
				n = entry[i:j]
			}
			parts = append(parts, n)
			if j == len(entry) {
				break
			}
			if entry[j] != '.' {
				parts = nil
				break
			}
			i = j + 1
		}
		if len(parts) == 2 || len(parts) == 3 {
			return [][2]string{{parts[len(parts)-2], parts[len(parts)-1]}}
		}
	}
	var dots []int
	for i := 0; i < len(entry); i++ {
		if entry[i] == '.' {
			dots = append(dots, i)
		}
	}
	var out [][2]string
	for a := -1; a < len(dots); a++ {
		start := 0
		if a >= 0 {
			start = dots[a] + 1
		}
		for _, d := range dots {
			if d > start {
				out = append(out, [2]string{entry[start:d], entry[d+1:]})
			}
		}
	}
	return out
}

// RestrictedCheck returns IsRestricted for an entity's column with every
// entry's readings read once: the form for loops over every column of a
// wide model.
func (m *Model) RestrictedCheck() func(e *Entity, column string) bool {
	restricted := map[string]bool{}
	for _, r := range slices.Concat(m.Restricted, m.Withheld) {
		for _, tc := range RestrictedReadings(r) {
			restricted[strings.ToLower(tc[0]+"\x00"+tc[1])] = true
		}
	}
	return func(e *Entity, column string) bool {
		if len(restricted) == 0 {
			return false
		}
		c := "\x00" + strings.ToLower(column)
		return restricted[strings.ToLower(e.Name)+c] || restricted[strings.ToLower(e.TableName())+c] || restricted[strings.ToLower(e.QualifiedName())+c]
	}
}

// SkipRestricted returns whether the column policy restricts the column
// of an entity named by its name or its table (nil for a nil model):
// what a value index must leave out before it chooses anything.
func (m *Model) SkipRestricted() func(entity, column string) bool {
	if m == nil || len(m.Restricted) == 0 && len(m.Withheld) == 0 {
		return nil
	}
	check := m.RestrictedCheck()
	return func(entity, column string) bool {
		if e := m.Entity(entity); e != nil {
			return check(e, column)
		}
		return m.IsRestricted(entity, column)
	}
}

// IsWithheld reports whether e's column is restricted only because the
// guard refuses to read it (Withheld), not by the policy's own entries.
func (m *Model) IsWithheld(e *Entity, column string) bool {
	if len(m.Withheld) == 0 {
		return false
	}
	only := Model{Withheld: m.Withheld}
	policy := Model{Restricted: m.Restricted}
	return only.RestrictedCheck()(e, column) && !policy.RestrictedCheck()(e, column)
}

// IsRestricted reports whether the column policy restricts table.column.
// table may be an entity name or its physical table; matching ignores case.
func (m *Model) IsRestricted(table, column string) bool {
	names := []string{table}
	if e := m.Entity(table); e != nil {
		names = append(names, e.Name, e.TableName(), e.QualifiedName())
	}
	for _, r := range slices.Concat(m.Restricted, m.Withheld) {
		for _, tc := range RestrictedReadings(r) {
			if !strings.EqualFold(tc[1], column) {
				continue
			}
			for _, n := range names {
				if strings.EqualFold(tc[0], n) {
					return true
				}
			}
		}
	}
	return false
}

// timeColumn is the time axis of metric mt as (entity, column), or empty
// strings when it has none.
func (m *Model) timeColumn(mt *Metric) (string, string) {
	if mt.Time != "" {
		e, c, _ := m.SplitField(mt.Time)
		return e, c
	}
	if e := m.Entity(mt.Entity); e != nil && e.TimeColumn != "" {
		return e.Name, e.TimeColumn
	}
	return "", ""
}

// MetricTime is the time axis of metric mt as "entity.column", or "" when
// it has none.
func (m *Model) MetricTime(mt *Metric) string {
	if e, c := m.timeColumn(mt); e != "" {
		return e + "." + c
	}
	return ""
}

// StartColumn is the column that says when a row of entity came to be —
// the one the knowledge marks with time role "start" (a customer's
// signup date, an employee's hire date) — as "entity.column", or "" when
// the entity has none or is unknown. A row whose start is after a period
// did not exist in it.
func (m *Model) StartColumn(entity string) string {
	e := m.Entity(entity)
	if e == nil {
		return ""
	}
	for _, c := range e.Columns {
		if c.TimeRole == TimeRoleStart && !m.IsRestricted(e.Name, c.Name) {
			return e.Name + "." + c.Name
		}
	}
	return ""
}
