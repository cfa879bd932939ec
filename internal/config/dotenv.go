package config

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// DotEnvError is a syntax error in a .env file. It names the line and, where
// it is known, the key; it never contains a value.
type DotEnvError struct {
	Line int
	Msg  string
}

func (e *DotEnvError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseDotEnv reads .env text: KEY=VALUE lines, blank lines and # comments.
//
//   - An optional "export " before the key is ignored.
//   - Unquoted values are trimmed; " #" starts a comment.
//   - 'single quoted' values are taken literally and may span lines.
//   - "double quoted" values may span lines and understand \n \r \t \" \\
//     and \$; any other backslash is kept as it is.
//   - Values are never expanded: ${X} in a .env value stays as written.
//
// A key given twice keeps its last value. Errors are *DotEnvError.
func ParseDotEnv(data []byte) (map[string]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, &DotEnvError{Line: 1, Msg: "is not a text file of KEY=VALUE lines"}
	}
	p := dotenvParser{s: string(data), line: 1}
	out := map[string]string{}
	for {
		p.skipBlankAndComments()
		if p.eof() {
			return out, nil
		}
		k, v, err := p.entry()
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
}

type dotenvParser struct {
	s    string
	i    int
	line int
}

func (p *dotenvParser) eof() bool { return p.i >= len(p.s) }

func (p *dotenvParser) errf(format string, args ...any) *DotEnvError {
	return &DotEnvError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *dotenvParser) skipSpaces() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// skipBlankAndComments moves to the first key of the next entry.
func (p *dotenvParser) skipBlankAndComments() {
	for !p.eof() {
		p.skipSpaces()
		switch {
		case p.eof():
		case p.s[p.i] == '\r' || p.s[p.i] == '\n':
			p.newline()
		case p.s[p.i] == '#':
			p.skipLine()
		default:
			return
		}
	}
}

// newline consumes one \n, \r\n or \r.
func (p *dotenvParser) newline() {
	if p.s[p.i] == '\r' && p.i+1 < len(p.s) && p.s[p.i+1] == '\n' {
		p.i++
	}
	p.i++
	p.line++
}

func (p *dotenvParser) skipLine() {
	for !p.eof() && p.s[p.i] != '\n' && p.s[p.i] != '\r' {
		p.i++
	}
	if !p.eof() {
		p.newline()
	}
}

func (p *dotenvParser) restOfLine() string {
	j := p.i
	for j < len(p.s) && p.s[j] != '\n' && p.s[j] != '\r' {
		j++
	}
	return p.s[p.i:j]
}

func (p *dotenvParser) entry() (string, string, error) {
	rest := p.restOfLine()
	if strings.HasPrefix(rest, "export ") || strings.HasPrefix(rest, "export\t") {
		p.i += len("export")
		p.skipSpaces()
		rest = p.restOfLine()
	}
	eq := strings.IndexByte(rest, '=')
	if eq < 0 {
		return "", "", p.errf("expected KEY=VALUE")
	}
	key := strings.TrimRight(rest[:eq], " \t")
	if !validVarName(key) {
		return "", "", p.errf("%q is not a variable name; use letters, digits and _, not starting with a digit", shorten(key))
	}
	p.i += eq + 1
	p.skipSpaces()
	var (
		val string
		err error
	)
	switch {
	case p.eof():
	case p.s[p.i] == '\'':
		val, err = p.singleQuoted(key)
	case p.s[p.i] == '"':
		val, err = p.doubleQuoted(key)
	default:
		val = p.unquoted()
		p.skipLine()
		return key, val, nil
	}
	if err != nil {
		return "", "", err
	}
	if err := p.endOfValue(key); err != nil {
		return "", "", err
	}
	return key, val, nil
}

// unquoted reads to the end of the line, stopping at a " #" comment.
func (p *dotenvParser) unquoted() string {
	rest := p.restOfLine()
	for j := 0; j < len(rest); j++ {
		if rest[j] == '#' && (j == 0 && p.i > 0 && (p.s[p.i-1] == ' ' || p.s[p.i-1] == '\t') ||
			j > 0 && (rest[j-1] == ' ' || rest[j-1] == '\t')) {
			rest = rest[:j]
			break
		}
	}
	return strings.TrimRight(rest, " \t")
}

func (p *dotenvParser) singleQuoted(key string) (string, error) {
	start, line := p.i+1, p.line
	for j := start; j < len(p.s); j++ {
		switch p.s[j] {
		case '\'':
			p.i = j + 1
			return p.s[start:j], nil
		case '\n':
			p.line++
		}
	}
	p.line = line
	return "", p.errf("the value of %s opens a ' quote that is never closed; close it", key)
}

func (p *dotenvParser) doubleQuoted(key string) (string, error) {
	var b strings.Builder
	line := p.line
	for j := p.i + 1; j < len(p.s); j++ {
		c := p.s[j]
		switch {
		case c == '"':
			p.i = j + 1
			return b.String(), nil
		case c == '\\' && j+1 < len(p.s):
			j++
			switch p.s[j] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '$':
				b.WriteByte(p.s[j])
			default:
				b.WriteByte('\\')
				j-- // keep the next byte for the loop
			}
		default:
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
		}
	}
	p.line = line
	return "", p.errf("the value of %s opens a \" quote that is never closed; close it", key)
}

// endOfValue accepts only spaces and a comment after a closing quote.
func (p *dotenvParser) endOfValue(key string) error {
	p.skipSpaces()
	if p.eof() {
		return nil
	}
	switch p.s[p.i] {
	case '\n', '\r', '#':
		p.skipLine()
		return nil
	}
	return p.errf("unexpected text after the quoted value of %s; quote the whole value", key)
}
