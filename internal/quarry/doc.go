// Package quarry is the domain vocabulary shared by every other package:
// result tables and their typed columns, the database catalog, dialects,
// and the one error type with a kind, a user-safe message and a cause.
//
// It imports only the standard library and holds no state.
package quarry
