//go:build race

package planner

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
