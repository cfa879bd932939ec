//go:build race

package sqlite

// raceEnabled shortens the streaming test under the race detector, which
// slows SQLite's interpreter loop many times over.
const raceEnabled = true
