//go:build race

package watchqueue

const raceEnabled = true
