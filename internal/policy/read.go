package policy

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// read parses sql with the reader of dialect d. MySQL and MariaDB use the
// MySQL grammar; PostgreSQL, DuckDB and connections of no one dialect use
// PostgreSQL's parser, which reads the SELECT forms DuckDB shares with it
// (a statement it cannot parse is refused while columns are restricted).
// SQLite connections quarry opens itself are decided by SQLite's
// authorizer; a SQLite database reached through another server is read
// with PostgreSQL's parser, which reads the common SELECT forms.
func read(d quarry.Dialect, sql string) (*Query, error) {
	if d == quarry.DialectMySQL {
		return readMySQL(sql)
	}
	return readPostgres(sql)
}

// systemRelations knows a dialect's system schemas and the system
// relations that hold sample values of user data (column statistics).
type systemRelations struct {
	schemas map[string]bool
	prefix  string          // unqualified names with this prefix are system relations
	values  map[string]bool // relations that expose values of user columns
	// text names columns that hold definitions (a view's SELECT, a check
	// constraint, a partition bound, an index expression), whose literals
	// can be copies of restricted values.
	text map[string][]string
	// counts names columns that count a relation's rows or pages: the row
	// estimate of a partial index (WHERE salary > 200000) or of a
	// partition of a table partitioned by a restricted column counts the
	// rows that meet a condition on that column.
	counts map[string][]string
	// keys names columns that hold the last value a sequence or an
	// AUTO_INCREMENT counter handed out: the largest value of the key it
	// fills, which can be a restricted column.
	keys map[string][]string
	// counters are name prefixes of relations whose every row is a
	// counter of that kind (PostgreSQL's cumulative statistics,
	// pg_stat_* and pg_statio_*): refused whole.
	counters []string
}

func systemFor(d quarry.Dialect) systemRelations {
	switch d {
	case quarry.DialectMySQL:
		return systemRelations{
			schemas: map[string]bool{"information_schema": true, "mysql": true, "performance_schema": true, "sys": true},
			values: map[string]bool{"column_statistics": true, "column_stats": true, "innodb_ft_index_table": true,
				"innodb_ft_index_cache": true, "innodb_ft_deleted": true, "innodb_ft_being_deleted": true,
				// Partition bounds with their row counts, and index
				// cardinalities: counts of restricted values.
				"partitions": true, "index_stats": true,
				// InnoDB's persistent statistics keep a row per partition
				// (employees#p#p_hi) with its row and page counts.
				"innodb_table_stats": true, "innodb_index_stats": true, "innodb_tablestats": true},
			text: map[string][]string{"views": {"view_definition"}, "check_constraints": {"check_clause"},
				"routines": {"routine_definition"}, "statistics": {"cardinality"}, "events": {"event_definition"},
				"triggers": {"action_statement", "action_condition"}},
			// The next AUTO_INCREMENT value is the largest key handed out
			// plus one: the maximum of a restricted AUTO_INCREMENT column.
			keys: map[string][]string{"tables": {"auto_increment"}},
		}
	case quarry.DialectSQLite:
		return systemRelations{prefix: "sqlite_", values: map[string]bool{"sqlite_stat3": true, "sqlite_stat4": true},
			text: map[string][]string{"sqlite_schema": {"sql"}, "sqlite_master": {"sql"}, "sqlite_temp_master": {"sql"}, "sqlite_temp_schema": {"sql"}}}
	}
	return systemRelations{
		schemas: map[string]bool{"pg_catalog": true, "information_schema": true, "pg_toast": true},
		prefix:  "pg_",
		values: map[string]bool{"pg_stats": true, "pg_statistic": true, "pg_stats_ext": true,
			"pg_stats_ext_exprs": true, "pg_statistic_ext_data": true},
		text: map[string][]string{
			"pg_class": {"relpartbound"}, "pg_constraint": {"conbin"}, "pg_attrdef": {"adbin"},
			"pg_index": {"indexprs", "indpred"}, "pg_rewrite": {"ev_action", "ev_qual"},
			"pg_policy": {"polqual", "polwithcheck"}, "pg_partitioned_table": {"partexprs"},
			"pg_proc": {"prosrc", "prosqlbody"}, "pg_trigger": {"tgqual"},
			"pg_views": {"definition"}, "pg_matviews": {"definition"}, "pg_indexes": {"indexdef"},
			"pg_rules": {"definition"}, "pg_policies": {"qual", "with_check"},
			"views": {"view_definition"}, "check_constraints": {"check_clause"}, "routines": {"routine_definition"},
			// A publication's row filter, an extended statistics object's
			// expressions, a trigger's WHEN condition.
			"pg_publication_tables": {"rowfilter"}, "pg_publication_rel": {"prqual"},
			"pg_statistic_ext": {"stxexprs"}, "triggers": {"action_condition", "action_statement"},
		},
		counts: map[string][]string{"pg_class": {"reltuples", "relpages", "relallvisible", "relallfrozen"}},
		// A sequence's last value is the largest key it handed out: the
		// maximum of a restricted serial or identity column.
		keys:     map[string][]string{"pg_sequences": {"last_value"}},
		counters: []string{"pg_stat_", "pg_statio_"},
	}
}

// system reports whether schema.table is a system relation.
func (s systemRelations) system(schema, table string) bool {
	if schema != "" {
		return s.schemas[strings.ToLower(schema)]
	}
	return s.prefix != "" && strings.HasPrefix(strings.ToLower(table), s.prefix)
}

// textColumns returns a system relation's definition columns.
func (s systemRelations) textColumns(table string) []string { return s.text[strings.ToLower(table)] }

// countColumns returns a system relation's row and page counts.
func (s systemRelations) countColumns(table string) []string { return s.counts[strings.ToLower(table)] }

// keyColumns returns a system relation's sequence positions.
func (s systemRelations) keyColumns(table string) []string { return s.keys[strings.ToLower(table)] }

// exposesValues reports whether a system relation holds values of user
// columns.
func (s systemRelations) exposesValues(table string) bool { return s.values[strings.ToLower(table)] }

// countsRows reports whether a system relation is made of row, page, scan or
// I/O counters of relations (pg_stat_user_tables, pg_statio_all_indexes).
func (s systemRelations) countsRows(table string) bool {
	lt := strings.ToLower(table)
	for _, p := range s.counters {
		if strings.HasPrefix(lt, p) {
			return true
		}
	}
	return false
}
