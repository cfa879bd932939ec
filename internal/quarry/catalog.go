package quarry

// Dialect names a SQL dialect. It decides quoting, date functions and which
// guard rules apply.
type Dialect string

// The dialects quarry knows.
const (
	DialectGeneric  Dialect = "any"
	DialectSQLite   Dialect = "sqlite"
	DialectPostgres Dialect = "postgres"
	DialectMySQL    Dialect = "mysql"
	DialectDuckDB   Dialect = "duckdb"
)

// Catalog describes what a connection can see: its tables and views.
type Catalog struct {
	Dialect Dialect     `json:"dialect"`
	Tables  []TableInfo `json:"tables"`
}

// Table returns the table or view with the given name (case-insensitive),
// or nil.
func (c *Catalog) Table(name string) *TableInfo {
	for i := range c.Tables {
		if equalFold(c.Tables[i].Name, name) {
			return &c.Tables[i]
		}
	}
	return nil
}

// Lookup returns the tables and views a name in a statement can reach:
// with a schema, those of that schema; without one, those on the search
// path (not Hidden), or every one of that name when none is. Names are
// compared without regard to case, so that a caller that needs one
// relation gets all it might be.
func (c *Catalog) Lookup(schema, name string) []*TableInfo {
	if c == nil {
		return nil
	}
	var all, visible []*TableInfo
	for i := range c.Tables {
		t := &c.Tables[i]
		if !equalFold(t.Name, name) || (schema != "" && t.Schema != "" && !equalFold(t.Schema, schema)) {
			continue
		}
		all = append(all, t)
		if !t.Hidden {
			visible = append(visible, t)
		}
	}
	if schema == "" && len(visible) > 0 {
		return visible
	}
	return all
}

// TableInfo describes one table or view.
type TableInfo struct {
	Schema string `json:"schema,omitempty"`
	Name   string `json:"name"`
	View   bool   `json:"view,omitempty"`
	// Hidden is set for a relation an unqualified name does not reach (on
	// PostgreSQL, one not on the connection's search_path).
	Hidden bool `json:"hidden,omitempty"`
	// Parents names the tables this one inherits from (PostgreSQL's
	// INHERITS), whose columns and rows it shares.
	Parents     []string     `json:"parents,omitempty"`
	Comment     string       `json:"comment,omitempty"`
	RowCount    int64        `json:"row_count"` // exact for SQLite; an estimate elsewhere; -1 when unknown
	Columns     []ColumnInfo `json:"columns"`
	PrimaryKey  []string     `json:"primary_key,omitempty"`
	ForeignKeys []ForeignKey `json:"foreign_keys,omitempty"`
	// Definition is a view's SELECT as the engine shows it, where the
	// connector reads it; "" otherwise.
	Definition string `json:"definition,omitempty"`
	// Reads lists the columns of other relations a view reads, from the
	// engine's own dependency catalog (PostgreSQL's pg_depend), when
	// ReadsKnown. A Column of "" stands for the whole row.
	Reads      []ColumnRead `json:"reads,omitempty"`
	ReadsKnown bool         `json:"reads_known,omitempty"`
}

// ColumnRead is one column a view reads.
type ColumnRead struct {
	Schema string `json:"schema,omitempty"`
	Table  string `json:"table"`
	Column string `json:"column,omitempty"`
}

// Column returns the column with the given name (case-insensitive), or nil.
func (t *TableInfo) Column(name string) *ColumnInfo {
	for i := range t.Columns {
		if equalFold(t.Columns[i].Name, name) {
			return &t.Columns[i]
		}
	}
	return nil
}

// ColumnInfo describes one column of a table.
type ColumnInfo struct {
	Name     string `json:"name"`
	DeclType string `json:"decl_type"` // as declared in the database
	Type     Type   `json:"type"`
	Nullable bool   `json:"nullable"`
	Comment  string `json:"comment,omitempty"`
	// Generated: the column is computed from other columns of its row
	// (GENERATED ALWAYS AS, a virtual or stored column). GeneratedFrom
	// names the columns its expression reads when the catalog says
	// (PostgreSQL's pg_depend); nil when it does not, and then the column
	// counts as reading every column of its table.
	Generated     bool     `json:"generated,omitempty"`
	GeneratedFrom []string `json:"generated_from,omitempty"`
}

// ForeignKey is a reference from Columns of the owning table to RefColumns
// of RefTable.
type ForeignKey struct {
	Columns    []string `json:"columns"`
	RefSchema  string   `json:"ref_schema,omitempty"`
	RefTable   string   `json:"ref_table"`
	RefColumns []string `json:"ref_columns"`
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
