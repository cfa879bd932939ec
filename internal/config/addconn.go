package config

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// NewConnection is a connection that `quarry init --url` and `quarry
// learn --url` add to quarry.yaml: a file by its path, or a server by a
// variable holding its URL (the URL itself stays in .env).
type NewConnection struct {
	Name   string
	Driver string
	Path   string // sqlite, duckdb: relative to quarry.yaml's folder
	URLVar string // postgres, mysql: the variable that holds the URL
	// Default names the connection that stays the default when the file
	// holds one connection and no `connection:` line: adding a second
	// would otherwise leave none.
	Default string
}

var (
	connectionsLine = lazyRE(`^connections:[ \t]*(#.*)?$`)
	connectionsAny  = lazyRE(`^connections:`)
	defaultLine     = lazyRE(`^connection:`)
	firstEntry      = lazyRE(`^([ \t]+)[^#\s]`)
)

// AddConnection returns the quarry.yaml text data with c added under
// connections:, keeping every other line and comment as written. It
// refuses a file whose connections: is written in flow style
// ({...}), which only a person should rewrite.
func AddConnection(data []byte, c NewConnection) ([]byte, error) {
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	at, indent := -1, "  "
	for i, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if connectionsLine().MatchString(t) {
			at = i
			for _, next := range lines[i+1:] {
				if m := firstEntry().FindStringSubmatch(next); m != nil {
					indent = m[1]
					break
				}
				if nt := strings.TrimSpace(next); nt != "" && !strings.HasPrefix(nt, "#") {
					break
				}
			}
			break
		}
		if connectionsAny().MatchString(t) {
			return nil, quarry.Errorf(quarry.KindConfig, "connections: in quarry.yaml is written on one line; add the connection %s by hand (driver: %s)", c.Name, c.Driver)
		}
	}
	block := []string{indent + c.Name + ":\n", indent + indent + "driver: " + c.Driver + "\n"}
	if c.URLVar != "" {
		block = append(block, indent+indent+"url: ${"+c.URLVar+"}\n")
	} else {
		block = append(block, indent+indent+"path: "+yamlString(c.Path)+"\n")
	}
	var out []string
	if at < 0 {
		out = append(out, lines...)
		if len(out) > 0 && !strings.HasSuffix(out[len(out)-1], "\n") {
			out[len(out)-1] += "\n"
		}
		out = append(out, "\nconnections:\n")
		out = append(out, block...)
	} else {
		out = append(out, lines[:at+1]...)
		out = append(out, block...)
		out = append(out, lines[at+1:]...)
	}
	if c.Default != "" && !hasDefaultLine(lines) {
		// Keep the connection that was the default the default.
		i := at
		if at < 0 {
			i = len(lines)
		}
		for i > 0 && strings.HasPrefix(strings.TrimSpace(out[i-1]), "#") {
			i-- // before the comments that belong to connections:
		}
		out = append(out[:i:i], append([]string{"connection: " + c.Default + "\n"}, out[i:]...)...)
	}
	return []byte(strings.Join(out, "")), nil
}

func hasDefaultLine(lines []string) bool {
	for _, l := range lines {
		if defaultLine().MatchString(l) {
			return true
		}
	}
	return false
}

// DotEnvLine writes KEY=VALUE as a .env line that ParseDotEnv reads back
// as value, whatever it holds: single-quoted (taken literally) unless the
// value holds a ' or a line break, else double-quoted with escapes.
func DotEnvLine(key, value string) string {
	if !strings.ContainsAny(value, "'\n\r") {
		return key + "='" + value + "'\n"
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "\n", `\n`, "\r", `\r`)
	return key + `="` + r.Replace(value) + "\"\n"
}
