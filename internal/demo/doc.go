// Package demo builds quarry's built-in demo database: a fictional online
// retailer with a membership club, written as one SQLite file.
//
// The database is a contract that other packages, the demo knowledge and
// the checks rely on: the table and column names, declared types, value sets
// and approximate row counts are fixed. Its history covers the 36 calendar
// months ending with the anchor's month, and nothing is dated after the
// anchor day.
//
// Build is deterministic: the same seed and anchor give the same bytes. All
// randomness comes from a PCG generator seeded from Options.Seed and the
// package never reads the clock; the caller passes the anchor date and, when
// it wants the build timed, a clock.
package demo
