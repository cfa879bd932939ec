package semantic

import (
	"strings"

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
type EntityIndex struct{ exact, folded map[string]*Entity }

// EntityIndex indexes m's entities by name.
func (m *Model) EntityIndex() EntityIndex {
	x := EntityIndex{exact: make(map[string]*Entity, len(m.Entities)), folded: make(map[string]*Entity, len(m.Entities))}
	for i := range m.Entities {
		e := &m.Entities[i]
		if x.exact[e.Name] == nil {
			x.exact[e.Name] = e
		}
		if k := strings.ToLower(e.Name); x.folded[k] == nil {
			x.folded[k] = e
		}
	}
	return x
}

// Get is the entity named name, as Entity finds it, or nil.
func (x EntityIndex) Get(name string) *Entity {
	if e := x.exact[name]; e != nil {
		return e
	}
	return x.folded[strings.ToLower(name)]
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
	if ent, col, ok := strings.Cut(ref, "."); ok {
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

// IsRestricted reports whether the column policy restricts table.column.
// table may be an entity name or its physical table; matching ignores case.
func (m *Model) IsRestricted(table, column string) bool {
	names := []string{table}
	if e := m.Entity(table); e != nil {
		names = append(names, e.Name, e.TableName())
	}
	for _, r := range m.Restricted {
		t, c, ok := strings.Cut(r, ".")
		if !ok || !strings.EqualFold(c, column) {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(t, n) {
				return true
			}
		}
	}
	return false
}

// timeColumn is the time axis of metric mt as (entity, column), or empty
// strings when it has none.
func (m *Model) timeColumn(mt *Metric) (string, string) {
	if mt.Time != "" {
		e, c, _ := strings.Cut(mt.Time, ".")
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
