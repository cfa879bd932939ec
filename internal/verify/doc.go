// Package verify runs deterministic checks on a query result and reports a
// confidence computed from them.
//
// Run takes the rows that were read, the row count, which columns are
// measures and which are dimensions, the expected number of rows and the
// filter literals of the query, and returns one Check per check that ran, in
// a fixed order:
//
//	empty_result    fail when the query returned no rows, naming the filters
//	                or the period that may have excluded everything
//	null_measure    fail when a measure column is NULL in every row read
//	duplicate_rows  warn when the same dimension key appears on two rows
//	                (every column is the key when there are no dimensions)
//	row_count       warn when the row count is outside the expected range
//	truncated       warn when more rows existed than were read
//	filter_values   warn when a filter value is not among the known values
//	                of its column
//	fan_out         pass when the compiler aggregated each measure at its own
//	                grain before joining
//
// A check that ran clean is reported as a pass with what it verified, so
// the reader sees what was checked. A check that could not run (no measure
// columns, an empty result, no expected range, no filters) is left out.
//
// Confidence is a function of the statuses alone:
//
//	confidence = round2(clamp01(1.0 × 0.85^warns × 0.40^fails))
//
// where round2 rounds half away from zero to two decimals. Passes do not
// change it. One warning gives 0.85, two give 0.72, one failure gives 0.40.
// The package is pure: no I/O, no clock, no randomness.
package verify
