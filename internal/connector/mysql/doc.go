// Package mysql is quarry's connector for MySQL and MariaDB servers, through
// github.com/go-sql-driver/mysql.
//
// MySQL's READ ONLY transaction is not a write barrier on its own: DDL
// commits the transaction implicitly and runs, and SELECT … INTO OUTFILE
// and GET_LOCK work inside it. So the connector stacks layers, and the
// account's privileges are the one that stops DDL:
//
//   - Open forces multiStatements, interpolateParams and allowAllFiles off
//     (a DSN that turns one on is refused), reads the server's flavour,
//     version and sql_mode, and refuses a server whose sql_mode contains
//     NO_BACKSLASH_ESCAPES or ANSI_QUOTES, because the guard reads SQL with
//     MySQL's default quoting.
//   - Query takes a fresh session for every statement, sets the server's
//     own statement timeout in it (max_statement_time on MariaDB,
//     max_execution_time on MySQL), runs the cost governor's EXPLAIN and
//     then the statement with the text protocol inside START TRANSACTION
//     READ ONLY, streams the rows, always rolls back, and then discards the
//     session, so that nothing a statement changed in it (session
//     variables, user variables, named locks, temporary tables) can outlive
//     the statement.
//   - A canceled or timed-out query is stopped on the server with KILL
//     QUERY from a second session: the driver only closes its socket, and
//     the server would otherwise keep computing until it next writes to it.
//   - ProbeReadOnly reads the account's grants and tries writes that change
//     nothing even if they are accepted; ReadOnlyRoleSQL prints the recipe
//     for an account that holds SELECT only.
package mysql
