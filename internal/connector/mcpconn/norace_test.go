//go:build !race

package mcpconn

const raceEnabled = false
