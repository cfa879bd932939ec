// Package postgres is quarry's state store on a PostgreSQL server
// (`state: postgres://…` in quarry.yaml), for a team whose replicas share
// one state: the same contract as the embedded default (store.State, the
// storetest suite), on a pgxpool pool.
//
// The tables live in the schema named first in the URL's search_path, or
// in "quarry"; Open creates the schema when the role may and it is
// missing, and migrates it with goose (embedded SQL files, forward-only)
// under a session advisory lock, so replicas that start together migrate
// once. As in SQLite, the event log is append-only in the database itself:
// a trigger refuses UPDATE, TRUNCATE, any event of a pruned run and any
// DELETE of an event whose run is not marked in pruned_runs, which only a
// finished run can be. The table owner can still disable triggers; give
// quarry's role no more than it needs (docs/state.md).
//
// Identifiers and instants are stored as text in the C collation, and
// payloads as text byte for byte, so both backends sort, compare and hash
// exactly alike.
//
// The run openings and new sessions that arrive together are committed as
// one batch in one transaction (group.go); a batch that fails sends each
// of its requests again alone, so one request's conflict stays its own.
package postgres
