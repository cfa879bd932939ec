//go:build !race

package mysql

const raceEnabled = false
