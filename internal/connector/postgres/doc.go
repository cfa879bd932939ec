// Package postgres is quarry's PostgreSQL connector, built on pgx. Every
// query runs in a READ ONLY transaction with the executor's own
// statement_timeout, idle_in_transaction_session_timeout and work_mem,
// over the extended protocol only (one statement, never the simple
// protocol), optionally behind an EXPLAIN cost ceiling, and always ends in
// ROLLBACK followed by DISCARD ALL, which also releases advisory locks.
// Rows stream in constant memory; canceling the context sends the server
// a cancel request. ProbeReadOnly checks that the configured role itself
// refuses writes, and ReadOnlyRoleSQL prints the recipe for a role that
// does.
package postgres
