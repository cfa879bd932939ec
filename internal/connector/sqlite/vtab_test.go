package sqlite

import (
	"slices"
	"testing"
)

// TestVirtualShadows: the tables SQLite keeps for an FTS5, FTS4 or
// R-tree index, by the statement that made it; every table after the
// name of one of an unknown module; none for a table.
func TestVirtualShadows(t *testing.T) {
	for _, tt := range []struct {
		name, sql string
		want      []string
		prefix    bool
	}{
		{"n", "CREATE VIRTUAL TABLE n USING fts5(title, body, content='notes')", []string{"n_data", "n_idx", "n_content", "n_docsize", "n_config"}, false},
		{"Docs", "create virtual table \"Docs\" using FTS4 (body)", []string{"Docs_content", "Docs_segments", "Docs_segdir", "Docs_docsize", "Docs_stat"}, false},
		{"r", "CREATE VIRTUAL TABLE r USING rtree(id, x0, x1)", []string{"r_node", "r_rowid", "r_parent"}, false},
		{"v", "CREATE VIRTUAL TABLE v USING vec0(embedding float[4])", nil, true},
		{"t", "CREATE TABLE t (a)", nil, false},
	} {
		got, prefix := VirtualShadows(tt.name, tt.sql)
		if !slices.Equal(got, tt.want) || prefix != tt.prefix {
			t.Errorf("%s: %v %v, want %v %v", tt.sql, got, prefix, tt.want, tt.prefix)
		}
	}
}
