package pgparse

import (
	_ "embed"
	"strings"
	"sync"
)

// pgFuncsText lists every function name of PostgreSQL 15 with the dblink
// and postgres_fdw extensions, marked " row" where some function of the
// name takes a whole row (record, anyelement, "any" ...) as its only
// argument. pgfuncs.sh generates it from a server.
//
//go:embed pgfuncs.txt
var pgFuncsText string

// pgFuncs maps each name of pgfuncs.txt to whether it takes a row; the map
// is built by the first statement that needs it, not at start-up.
var pgFuncs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(pgFuncsText, "\n") {
		name, flag, _ := strings.Cut(strings.TrimSpace(line), " ")
		if name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		m[name] = flag == "row"
	}
	return m
})
