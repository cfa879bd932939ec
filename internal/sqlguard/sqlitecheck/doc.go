// Package sqlitecheck adds SQLite's own verdict to the lexical guard of
// package sqlguard. It prepares (never steps) a statement with
// github.com/ncruces/go-sqlite3 under an authorizer that allows only
// reading, recursion and allow-listed functions, and requires exactly one
// statement that SQLite reports as read-only and that returns columns.
//
// Checker does this in an in-memory database with no files, synthesising
// the tables and columns a statement names; CheckWithConn and Prepare do
// it on a real read-only connection, whose schema is the real one. Either
// verdict is combined with sqlguard.Check (Combine, Checker.Guard): a
// statement runs only when both allow it.
package sqlitecheck
