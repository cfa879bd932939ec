//go:build !race

package eval

// raceEnabled is true when the tests run under the race detector, where
// SQLite (compiled to Go) runs about 25 times slower.
const raceEnabled = false
