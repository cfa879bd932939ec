package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkRunOneRow is a whole `quarry run` of a one-row statement in
// process: config, state store, connection, guard, execution, events.
// bench/run.sh times the same thing as a whole process against the
// sqlite3 shell.
func BenchmarkRunOneRow(b *testing.B) {
	dir := project(&testing.T{})
	env := func(string) (string, bool) { return "", false }
	for b.Loop() {
		if code := run(context.Background(), []string{"-C", dir, "run", "--format", "csv", "SELECT * FROM orders WHERE id = 42"}, strings.NewReader(""), io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
