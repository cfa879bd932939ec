//go:build race

package mysql

// raceEnabled shortens the streaming test under the race detector.
const raceEnabled = true
