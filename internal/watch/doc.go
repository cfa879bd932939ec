// Package watch is the core of quarry's monitors: a monitor's definition
// (decoded from the knowledge folder's monitors/*.yaml), the metric query
// it reads, the judgement of each complete period against a
// seasonality-aware baseline with a z-score or percent-change detector,
// incidents (one alert when one begins, a recovery notice when it ends),
// backfill, and the investigation of an alert (which segments moved).
// Running a monitor goes through the small interfaces it declares
// (Source, Notifier, StateStore), which the runtime fills with the
// analyst pipeline (the same guard and recording as every answer), a
// notifier and a state file. It is pure: times come in as arguments.
package watch
