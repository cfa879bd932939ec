// Package sqlguard decides, before anything reaches a database, whether a
// piece of SQL is a single read-only query that quarry may run.
//
// Check is pure: it reads only its arguments, keeps no state and never
// touches a database. It runs a conservative, dialect-aware lexer that can
// only decide to reject (bad encoding, hidden characters, unterminated or
// nested comments, quoting that engines read differently, more than one
// statement), then token-level rules on the single statement: an allow-list
// of statement heads, no INTO, no locking clauses, no data-modifying
// keywords anywhere (including inside CTE bodies), no variable assignment,
// and every function call on an allow-list.
//
// The verdict is data: Allowed, plus one Violation per broken rule with a
// stable Code, a byte position and a message that says what to change.
// Over-blocking ordinary analytics SQL is a bug; so is letting a write
// through. For SQLite, the subpackage sqlitecheck adds the engine's own
// verdict, and both must allow a statement.
package sqlguard
