//go:build race

package chart

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
