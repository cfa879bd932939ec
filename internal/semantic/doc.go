// Package semantic is quarry's semantic layer: the Model (entities,
// relationships, metrics, dimensions, the column policy), the metric Query,
// and the compiler that turns a Query into SQL for a dialect, choosing join
// paths over the relationship graph and guarding against fan-out.
//
// It is pure: no I/O, no clock, no randomness.
package semantic
