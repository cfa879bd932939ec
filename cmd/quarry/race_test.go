//go:build race

package main

// raceEnabled is true when the tests run under the race detector, where
// building the full demo database takes about a minute of CPU; the tests
// that need it run in the plain test pass instead.
const raceEnabled = true
