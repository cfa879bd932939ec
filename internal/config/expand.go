package config

import (
	"fmt"
	"strings"
)

// Lookup finds a variable by name, reporting whether it is set. Load builds
// one from the environment function it is given and the .env file.
type Lookup func(name string) (string, bool)

// expandError says why a value could not be expanded. Its message never
// contains an expanded value: only variable names and the file's own text.
type expandError struct {
	msg string
}

func (e *expandError) Error() string { return e.msg }

// Expand replaces ${NAME} and ${NAME:-default} references in s:
//
//   - ${NAME} is NAME's value; NAME must be set (it may be set to "").
//   - ${NAME:-default} is NAME's value when it is set and not empty, and
//     otherwise default, which may itself hold references.
//   - $$ is a literal $; a $ not followed by { or $ is kept as it is.
//
// Values are inserted as they are and never expanded again. It returns the
// expanded text and the names of the variables it consulted, in order.
func Expand(s string, lookup Lookup) (string, []string, error) {
	var (
		b    strings.Builder
		vars []string
	)
	if err := expandInto(&b, s, lookup, &vars); err != nil {
		return "", vars, err
	}
	return b.String(), vars, nil
}

func expandInto(b *strings.Builder, s string, lookup Lookup, vars *[]string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i += 2
			continue
		case '{':
		default:
			b.WriteByte('$')
			i++
			continue
		}
		end, err := refEnd(s, i)
		if err != nil {
			return err
		}
		ref := s[i+2 : end] // between "${" and "}"
		if err := expandRef(b, ref, s[i:end+1], lookup, vars); err != nil {
			return err
		}
		i = end + 1
	}
	return nil
}

// refEnd returns the index of the "}" closing the reference that starts
// with "${" at s[start], counting nested references in a default.
func refEnd(s string, start int) (int, error) {
	depth := 0
	for j := start + 2; j < len(s); j++ {
		switch {
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '$':
			j++
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case s[j] == '}':
			if depth == 0 {
				return j, nil
			}
			depth--
		}
	}
	return 0, &expandError{msg: `"${" is not closed; add the closing "}", or write $$ for a literal $`}
}

func expandRef(b *strings.Builder, ref, whole string, lookup Lookup, vars *[]string) error {
	name, def, hasDef := ref, "", false
	if k := strings.IndexAny(ref, ":-?=+"); k >= 0 {
		if !strings.HasPrefix(ref[k:], ":-") {
			return &expandError{msg: fmt.Sprintf("%s is not a supported reference; write ${NAME} or ${NAME:-default}", shorten(whole))}
		}
		name, def, hasDef = ref[:k], ref[k+2:], true
	}
	if !validVarName(name) {
		return &expandError{msg: fmt.Sprintf("%s does not name a variable; names are letters, digits and _ and do not start with a digit", shorten(whole))}
	}
	*vars = append(*vars, name)
	v, ok := lookup(name)
	switch {
	case ok && (v != "" || !hasDef):
		b.WriteString(v)
		return nil
	case hasDef:
		return expandInto(b, def, lookup, vars)
	default:
		return &expandError{msg: fmt.Sprintf("${%s} is not set; set %s in the environment or in .env beside quarry.yaml, or give a default with ${%s:-default}", name, name, name)}
	}
}

func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// shorten keeps quoted file text in messages to one short line.
func shorten(s string) string {
	const max = 40
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len([]rune(s)) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return s
}
