//go:build race

package watch

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
