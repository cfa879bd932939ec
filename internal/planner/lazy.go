package planner

import (
	"regexp"
	"sync"
)

// lazyRE compiles expr the first time it is used rather than when the
// program starts: every quarry command links this package, few plan.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
