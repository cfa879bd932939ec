//go:build !race

package agent_test

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
