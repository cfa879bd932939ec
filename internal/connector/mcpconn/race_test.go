//go:build race

package mcpconn

// raceEnabled is true when the tests run under the race detector, where
// decoding tens of millions of values takes ten times as long.
const raceEnabled = true
