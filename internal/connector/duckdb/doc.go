// Package duckdb is quarry's connector for DuckDB database files, built on
// duckdb-go. It is compiled only with the build tag duckdb (go build -tags
// duckdb): DuckDB is the one connector that needs cgo, and its static
// library adds about 65 MiB to the binary. Without the tag the package is
// empty and cmd reports that the driver is not in the build.
//
// The file is opened with access_mode=READ_ONLY, never created, and the
// database instance is configured before it starts so that DuckDB cannot
// reach outside the file: enable_external_access=false (no read_csv or
// read_parquet of other files, no httpfs, no ATTACH of another file, no
// COPY … TO, no INSTALL or LOAD of extensions from disk), extension
// autoinstall and autoload off, community extensions off, persistent
// secrets off, no temporary directory (nothing spills to disk), a memory
// limit and a thread count, and finally lock_configuration=true so that
// no SET or RESET can undo any of it. Open reads the settings back and
// refuses a handle on which any of them did not take.
//
// Query accepts exactly one statement, prepared on its own, and runs it
// only when DuckDB classifies it as a SELECT: CREATE TEMP TABLE, PRAGMA,
// SET VARIABLE, CHECKPOINT and the like, which a read-only database still
// allows in memory, are refused too. Rows are converted to quarry's types
// as they are read, and opts.MaxRows stops the reading. Canceling the
// context, or opts.Timeout passing, interrupts the query inside DuckDB.
//
// A Conn serves one statement at a time: while the Rows of one query are
// open, another Query, Catalog or ProbeReadOnly returns a KindConflict
// error.
package duckdb
