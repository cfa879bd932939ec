// Package mysqlparse adds the MySQL grammar's verdict to the lexical guard
// of package sqlguard, for MySQL and MariaDB servers.
//
// A Checker parses a statement with the TiDB project's MySQL 8 parser
// (github.com/pingcap/tidb/pkg/parser), in the server's sql_mode, and
// allows it only when the text is exactly one query — SELECT, a set
// operation (UNION, INTERSECT, EXCEPT), TABLE, VALUES, or EXPLAIN of one of
// those without ANALYZE — and a walk of every node of the tree finds no
// INTO clause, no locking clause, no user-variable assignment, no CTE whose
// body is not a query, no construct the guard does not know, and no call of
// a function that is not on sqlguard's allow-list for MySQL.
//
// The parser is not MySQL's own lexer and it does not know MariaDB's /*M!
// executable comments, so this check backs the lexical guard (sqlguard.Check
// with the mysql dialect), which rejects executable comments, # and --x
// comments and backslashes first; it never replaces it. The server's
// sql_mode decides how text is read: a Checker refuses every statement when
// the mode contains NO_BACKSLASH_ESCAPES or ANSI_QUOTES (or a combination
// mode that implies them), and when the mode names something it does not
// know.
//
// The parser needs a driver for literal values; this package uses the
// parser module's own test_driver, which registers itself when imported.
package mysqlparse
