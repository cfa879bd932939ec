package sqlite

import (
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// The column policy on SQLite has two engine-level checks. The authorizer
// sees every column a statement names (SQLITE_READ), through stars, views,
// subqueries and every clause; but SQLite builds the comparisons of JOIN
// ... USING and NATURAL JOIN after name resolution, without asking it. So
// the connector also reads the statement's compiled program (EXPLAIN, which
// SQLite produces without running anything) and refuses any instruction
// that reads a restricted column of a base table: Column on the table's
// cursor, and the key comparisons of an index that holds the column.

// btree is a table or index of the main schema, by root page.
type btree struct {
	table string // the table it stores
	index bool   // an index (or a WITHOUT ROWID table)
	own   bool   // the table's own b-tree (a WITHOUT ROWID table's is ordered by its key)
	// ipk is "table.column" when the table's INTEGER PRIMARY KEY, which
	// is its rowid, is restricted: the table and each of its indexes keep
	// their rows in that column's order, and every rowid read is a read of
	// it, so nothing of such a b-tree is read but a count.
	ipk     string
	cols    []string       // column names in storage order (an index: its key columns; "" = rowid or an expression)
	withExp bool           // an index on an expression
	keys    int            // an index: how many of cols are its key (the order it keeps)
	denied  map[int]string // storage positions of restricted columns → "table.column"
}

// programReads returns the refusal of a statement whose compiled program
// reads a restricted column (or walks an index on one), or nil. The caller
// holds the connection and has prepared sql under the authorizer; sql is
// one statement.
func (c *Conn) programReads(sql string) (*refusal, error) {
	trees, err := c.restrictedTrees()
	if err != nil || len(trees) == 0 {
		return nil, err
	}
	stmt, _, err := c.db.Prepare("EXPLAIN " + sql)
	if err != nil {
		// sql is itself an EXPLAIN (EXPLAIN EXPLAIN is not SQL), whose
		// program quarry cannot read: its plan can still answer a
		// question about a restricted column through a view (which index
		// serves a filter), so it is refused while columns are
		// restricted.
		return &refusal{col: "EXPLAIN", msg: "not allowed: EXPLAIN on a database with restricted columns (quarry cannot read an EXPLAIN's own program, and a plan can answer a question about a restricted column); run the statement itself"}, nil
	}
	defer stmt.Close()
	cursors := map[int64][]*btree{}
	for stmt.Step() {
		op := stmt.ColumnText(1)
		p1, p2 := stmt.ColumnInt64(2), stmt.ColumnInt64(3)
		p4 := stmt.ColumnText(5)
		if t, col := orderedBy(op, cursors[p1]); col != "" {
			return orderRefusal(t, col), nil
		}
		switch op {
		case "OpenRead", "ReopenIdx":
			if t := trees[p2]; t != nil && stmt.ColumnInt64(4) == 0 {
				cursors[p1] = append(cursors[p1], t)
			}
		case "Column":
			for _, t := range cursors[p1] {
				if col := t.denied[int(p2)]; col != "" {
					return readRefusal(col), nil
				}
				if t.withExp && t.index {
					return readRefusal(t.table + " (through an index on an expression over a restricted column)"), nil
				}
			}
		case "RowData", "RowCell":
			for _, t := range cursors[p1] {
				for _, col := range t.denied {
					return readRefusal(col), nil
				}
			}
		case "SeekGE", "SeekGT", "SeekLE", "SeekLT", "IdxGE", "IdxGT", "IdxLE", "IdxLT",
			"Found", "NotFound", "NoConflict", "IfNoHope", "SeekScan":
			for _, t := range cursors[p1] {
				if !t.index {
					continue
				}
				n := len(t.cols)
				if k, err := strconv.Atoi(p4); err == nil && k > 0 && k < n {
					n = k
				}
				for i := 0; i < n; i++ {
					if col := t.denied[i]; col != "" {
						return readRefusal(col), nil
					}
					if t.cols[i] == "" && t.withExp {
						return readRefusal(t.table + " (through an index on an expression over a restricted column)"), nil
					}
				}
			}
		}
	}
	return nil, stmt.Err()
}

// orderedBy returns the b-tree and the restricted column whose order op
// would hand out on the cursor bound to trees: an index keeps its rows in
// the order of its key, a rowid table in the order of its INTEGER PRIMARY
// KEY, so a scan of either hands out the rows in the order of a
// restricted column even when no value of it is read; and reading the
// rowid of a table whose rowid is restricted reads it. Opening, counting
// and closing the cursor say nothing about the order.
func orderedBy(op string, trees []*btree) (*btree, string) {
	switch op {
	case "Rewind", "Last", "Next", "Prev", "SeekGE", "SeekGT", "SeekLE", "SeekLT", "SeekScan", "SeekEnd",
		"IdxGE", "IdxGT", "IdxLE", "IdxLT", "IdxRowid", "Column", "DeferredSeek", "Found", "NotFound",
		"NoConflict", "IfNoHope", "RowData", "RowCell", "IfSmaller", "IfSizeBetween", "SorterData",
		"Rowid", "SeekRowid", "NotExists":
	default:
		// Opening, counting and closing a cursor, and every instruction
		// whose P1 is not a cursor at all.
		return nil, ""
	}
	for _, t := range trees {
		if t.ipk != "" {
			return t, t.ipk
		}
		if !t.index {
			continue
		}
		for i := 0; i < t.keys && i < len(t.cols); i++ {
			if col := t.denied[i]; col != "" {
				return t, col
			}
			if t.cols[i] == "" && t.withExp {
				return t, t.table + " (an index on an expression over a restricted column)"
			}
		}
	}
	return nil, ""
}

// orderRefusal refuses a program that would hand out the rows of t in the
// order of the restricted col, saying what the user can do about it.
func orderRefusal(t *btree, col string) *refusal {
	switch {
	case t.ipk != "":
		return &refusal{col: col, msg: "not allowed: SQLite keeps " + t.table + " in the order of " + col + " (its INTEGER PRIMARY KEY, the rowid), a column the policy restricts, so reading its rows or comparing with that key would hand the column out; only count(*) of " + t.table + " can be read"}
	case t.own:
		return &refusal{col: col, msg: "not allowed: SQLite keeps " + t.table + " (a WITHOUT ROWID table) in the order of " + col + ", a column the policy restricts, so reading its rows would hand out that order; only count(*) of " + t.table + " can be read"}
	}
	return &refusal{col: col, msg: "not allowed: SQLite would read the rows through an index on " + col + ", a column the policy restricts, and so hand them out in its order; write NOT INDEXED after the table (FROM " + t.table + " NOT INDEXED), or leave the column out of every clause"}
}

// restrictedTrees reads, from the schema, the b-trees of the tables that
// have restricted columns and of their indexes, by root page.
// They are read again only when the schema changes (PRAGMA
// schema_version), and kept on the connection, which runs one statement
// at a time.
func (c *Conn) restrictedTrees() (map[int64]*btree, error) {
	if c.auth.policy.Empty() {
		return nil, nil
	}
	c.auth.internal = true
	defer func() { c.auth.internal = false }()
	version, err := c.schemaVersion()
	if err != nil {
		return nil, err
	}
	if c.trees != nil && c.treesVersion == version {
		return c.trees, nil
	}
	trees, err := c.readTrees()
	if err != nil {
		return nil, err
	}
	c.trees, c.treesVersion = trees, version
	return trees, nil
}

// schemaVersion returns the schema cookie, which SQLite changes with
// every change of the schema.
func (c *Conn) schemaVersion() (int64, error) {
	stmt, _, err := c.db.Prepare(`PRAGMA schema_version`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	if stmt.Step() {
		return stmt.ColumnInt64(0), nil
	}
	return 0, stmt.Err()
}

// readTrees reads the restricted tables' b-trees from the schema.
func (c *Conn) readTrees() (map[int64]*btree, error) {
	type obj struct {
		kind, name, table string
		root              int64
	}
	var objs []obj
	stmt, _, err := c.db.Prepare(`SELECT type, name, tbl_name, rootpage FROM sqlite_schema WHERE type IN ('table', 'index') AND rootpage > 0`)
	if err != nil {
		return nil, err
	}
	// SQLite's own tables that keep facts about every column's values:
	// the schema's definitions (a view's or a partial index's condition
	// copies restricted values as literals) and the statistics (a partial
	// index's row count counts a condition on a restricted column; the
	// samples hold values). The authorizer refuses naming these columns;
	// here their comparisons through USING are refused too.
	trees := map[int64]*btree{1: {table: "sqlite_schema", cols: []string{"type", "name", "tbl_name", "rootpage", "sql"},
		denied: map[int]string{4: "sqlite_schema.sql"}}}
	for stmt.Step() {
		o := obj{stmt.ColumnText(0), stmt.ColumnText(1), stmt.ColumnText(2), stmt.ColumnInt64(3)}
		if t := statTree(o.name); t != nil {
			trees[o.root] = t
			continue
		}
		if len(c.auth.policy.Columns(o.table)) > 0 {
			objs = append(objs, o)
		}
	}
	err = stmt.Err()
	stmt.Close()
	if err != nil {
		return nil, err
	}
	ipks := map[string]string{}
	generated := map[string]map[string]bool{}
	for _, o := range objs {
		if o.kind != "table" {
			continue
		}
		g, err := c.generatedColumns(o.table)
		if err != nil {
			return nil, err
		}
		generated[o.table] = g
		col, err := c.integerKey(o.table)
		if err != nil {
			return nil, err
		}
		if col != "" && c.auth.policy.Denies(o.table, col) {
			ipks[o.table] = o.table + "." + col
		}
	}
	for _, o := range objs {
		t := &btree{table: o.table, index: o.kind == "index", denied: map[int]string{}, ipk: ipks[o.table]}
		if t.index {
			err = c.indexColumns(o.name, o.table, t)
		} else {
			err = c.tableColumns(o.table, t)
		}
		if err != nil {
			return nil, err
		}
		for i, col := range t.cols {
			switch {
			case col == "":
			case c.auth.policy.Denies(o.table, col):
				t.denied[i] = o.table + "." + col
			case generated[o.table][strings.ToLower(col)]:
				// A generated column of a table with restricted columns
				// may be computed from one (amt * 2), and SQLite keeps its
				// value (STORED) or indexes it without reading the source.
				t.denied[i] = o.table + "." + col + " (a generated column of a table with restricted columns)"
			}
		}
		trees[o.root] = t
	}
	return trees, nil
}

// statTree is the b-tree of one of SQLite's statistics tables, with the
// columns the policy keeps from statements, or nil for another table.
func statTree(name string) *btree {
	switch strings.ToLower(name) {
	case "sqlite_stat1":
		return &btree{table: name, cols: []string{"tbl", "idx", "stat"}, denied: map[int]string{0: "sqlite_stat1", 1: "sqlite_stat1", 2: "sqlite_stat1"}}
	case "sqlite_sequence":
		// The largest value an AUTOINCREMENT key has had.
		return &btree{table: name, cols: []string{"name", "seq"}, denied: map[int]string{1: "sqlite_sequence.seq"}}
	case "sqlite_stat3", "sqlite_stat4":
		t := &btree{table: name, denied: map[int]string{}}
		for i := range 6 {
			t.denied[i] = name
		}
		return t
	}
	return nil
}

// generatedColumns returns the generated columns of a table (VIRTUAL or
// STORED), lower case.
func (c *Conn) generatedColumns(table string) (map[string]bool, error) {
	stmt, _, err := c.db.Prepare(`SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	if err := stmt.BindText(1, table); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for stmt.Step() {
		out[strings.ToLower(stmt.ColumnText(0))] = true
	}
	return out, stmt.Err()
}

// integerKey returns a rowid table's INTEGER PRIMARY KEY, the column that
// is its rowid, or "". A lone primary-key column declared exactly INTEGER
// is one; the rare INTEGER PRIMARY KEY DESC, which is not, is taken as one
// too, which only refuses more.
func (c *Conn) integerKey(table string) (string, error) {
	wr, err := c.withoutRowidKey(table)
	if err != nil || wr != "" {
		return "", err
	}
	stmt, _, err := c.db.Prepare(`SELECT name, type FROM pragma_table_xinfo(?) WHERE pk > 0`)
	if err != nil {
		return "", err
	}
	defer stmt.Close()
	if err := stmt.BindText(1, table); err != nil {
		return "", err
	}
	var name, typ string
	n := 0
	for stmt.Step() {
		name, typ = stmt.ColumnText(0), stmt.ColumnText(1)
		n++
	}
	if err := stmt.Err(); err != nil || n != 1 || !strings.EqualFold(strings.TrimSpace(typ), "INTEGER") {
		return "", err
	}
	return name, nil
}

// tableColumns fills t with a table's columns in storage order: SQLite
// stores the columns that are not VIRTUAL generated ones first, in their
// declared order, then the virtual ones.
func (c *Conn) tableColumns(table string, t *btree) error {
	stmt, _, err := c.db.Prepare(`SELECT name, hidden FROM pragma_table_xinfo(?) ORDER BY cid`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	if err := stmt.BindText(1, table); err != nil {
		return err
	}
	var stored, virtual []string
	for stmt.Step() {
		if stmt.ColumnInt64(1) == 2 {
			virtual = append(virtual, stmt.ColumnText(0))
		} else {
			stored = append(stored, stmt.ColumnText(0))
		}
	}
	if err := stmt.Err(); err != nil {
		return err
	}
	t.cols = append(stored, virtual...)
	pk, err := c.withoutRowidKey(table)
	if err != nil || pk == "" {
		return err
	}
	// A WITHOUT ROWID table is stored as its primary key's index: the key
	// columns first, then the others, as pragma index_xinfo lists them.
	t.index, t.own, t.cols = true, true, nil
	return c.indexColumns(pk, table, t)
}

// indexColumns fills t with an index's columns: its key columns and then
// the rowid (or primary key) SQLite stores with them.
func (c *Conn) indexColumns(index, table string, t *btree) error {
	stmt, _, err := c.db.Prepare(`SELECT cid, name, key FROM pragma_index_xinfo(?) ORDER BY seqno`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	if err := stmt.BindText(1, index); err != nil {
		return err
	}
	for stmt.Step() {
		if stmt.ColumnInt64(2) == 1 {
			t.keys++
		}
		switch stmt.ColumnInt64(0) {
		case -2:
			t.withExp = true
			t.cols = append(t.cols, "")
		case -1:
			t.cols = append(t.cols, "")
		default:
			t.cols = append(t.cols, stmt.ColumnText(1))
		}
	}
	return stmt.Err()
}

// withoutRowidKey returns the name of the primary-key index that stores a
// WITHOUT ROWID table, or "" for a table with rowids.
func (c *Conn) withoutRowidKey(table string) (string, error) {
	stmt, _, err := c.db.Prepare(`SELECT l.name FROM pragma_table_list AS t, pragma_index_list(t.name) AS l
		WHERE t.schema = 'main' AND t.name = ? AND t.wr = 1 AND l.origin = 'pk'`)
	if err != nil {
		return "", err
	}
	defer stmt.Close()
	if err := stmt.BindText(1, table); err != nil {
		return "", err
	}
	if stmt.Step() {
		return stmt.ColumnText(0), nil
	}
	return "", stmt.Err()
}

// refusal is why the column policy refuses a statement's program.
type refusal struct {
	col string // the restricted column, for the guard's verdict
	msg string // one line for the user
}

func (r *refusal) error() error { return &quarry.Error{Kind: quarry.KindForbidden, Msg: r.msg} }

// readRefusal refuses a program that reads col.
func readRefusal(col string) *refusal {
	return &refusal{col: col, msg: "not allowed: the statement reads " + col + ", a column the policy restricts (SQLite's compiled program reads it; a JOIN ... USING or NATURAL JOIN compares it too); leave it out of every clause"}
}
