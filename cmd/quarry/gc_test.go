package main

import (
	"strings"
	"testing"
)

// TestShortLived: only a command that answers and exits runs with the
// one-shot collector pace; a server never does.
func TestShortLived(t *testing.T) {
	for args, want := range map[string]bool{
		"ask|how many orders":    true,
		"--json|ask|x":           true,
		"-C|/tmp/p|ask|x":        true,
		"--config|ask|serve":     false,
		"--config=x|ask":         true,
		"run|select 1":           false,
		"serve":                  false,
		"serve|--addr|ask":       false,
		"mcp":                    false,
		"learn|--url|sqlite://x": false,
		"":                       false,
		"chat":                   false,
	} {
		var a []string
		if args != "" {
			a = strings.Split(args, "|")
		}
		if got := shortLived(a); got != want {
			t.Errorf("shortLived(%q) = %v, want %v", a, got, want)
		}
	}
}
