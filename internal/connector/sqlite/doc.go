// Package sqlite is quarry's connector for SQLite database files.
//
// It opens the file read-only and then stacks independent layers so that no
// statement can write, whatever reaches it: the read-only open, PRAGMA
// query_only issued by the connector, DBCONFIG_DEFENSIVE on and
// DBCONFIG_TRUSTED_SCHEMA off, limits (no attached databases, bounded
// lengths), an authorizer that allows only SELECT, reads, recursive CTEs and
// allow-listed functions, and, in Query, a refusal of any statement that
// leaves a tail after the first statement or that SQLite does not report as
// read-only. Rows are streamed one at a time from the native statement, so
// any number of rows passes through in constant memory.
//
// A Conn serves one statement at a time: while the Rows of one query are
// open, another Query, Catalog or ProbeReadOnly returns a KindConflict error.
package sqlite
