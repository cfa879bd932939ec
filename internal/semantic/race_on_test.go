//go:build race

package semantic

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
