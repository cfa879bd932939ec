// Package store is the contract of quarry's own state: the State interface
// (the append-only event logs of runs, an index of runs derived from them,
// stored results, chat sessions, retention, and the people who may use a
// shared quarry with their hashed tokens and sign-ins), the domain types it
// speaks (RunFilter, Session, PruneOptions, User, Token, SignIn), and what every backend shares:
// the canonical encoding and hash of a result, event validation, the run
// index entry folded from a run's events, and the wording of its errors.
//
// The backends live in subpackages: sqlite (the default, an embedded file
// beside quarry.yaml) and postgres (a server, for a team). Both pass the
// conformance suite in storetest. In both the event log is the truth and is
// append-only in the database itself: triggers refuse any update of an
// event, any second event under a (run, seq), any event of a pruned run,
// and any delete of an event whose run has not been marked pruned — and a
// run can be marked pruned only once it has finished. Retention (Prune)
// therefore removes whole finished runs and nothing else.
//
// This package does no I/O.
package store
