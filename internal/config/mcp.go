package config

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// validateMCP checks an mcp connection: exactly one of command (a server
// quarry starts) or url (a server over streamable HTTP), and the fields
// that go with each.
func (d *decoder) validateMCP(c *connDraft, conn *Connection) error {
	p := c.path0
	if line := d.lines[p+".path"]; line != 0 {
		return d.errAt(line, p+".path", "mcp connections start a server with command (and args) or reach one by url; remove path, or pass the file to the server in args")
	}
	hasCommand, hasURL := d.lines[p+".command"] != 0, d.lines[p+".url"] != 0
	switch {
	case hasCommand && hasURL:
		return d.errAt(d.lines[p+".url"], p+".url", "an mcp connection has either command (a server quarry starts) or url (a server it reaches over HTTP), not both; remove one")
	case !hasCommand && !hasURL:
		return d.errAt(c.line, p, "missing command or url; add `command: quarry` with `args: [connector, sqlite, demo.db]`, or `url: http://127.0.0.1:8931/mcp`")
	case hasCommand:
		if strings.TrimSpace(c.command) == "" {
			return d.errAt(d.lines[p+".command"], p+".command", "is empty; write the server's program, e.g. `command: quarry` or `command: npx`")
		}
		if line := d.lines[p+".headers"]; line != 0 {
			return d.errAt(line, p+".headers", "is only for servers reached by url; pass values to a server quarry starts through env")
		}
		conn.Command = strings.TrimSpace(c.command)
		conn.Args = c.args
		conn.Env = c.env
	default:
		for _, f := range []string{"args", "env"} {
			if line := d.lines[p+"."+f]; line != 0 {
				return d.errAt(line, p+"."+f, "is only for servers quarry starts with command; a server reached by url reads its own settings (use headers to send credentials)")
			}
		}
		if !c.url.IsSet() {
			return d.errAt(d.lines[p+".url"], p+".url", "is empty after expansion of %q; set the variable in the environment or in .env beside quarry.yaml", shorten(c.urlRaw))
		}
		if u, err := url.Parse(c.url.Value()); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return d.errAt(d.lines[p+".url"], p+".url", "is not an http:// or https:// address (after expansion); an mcp url is the server's streamable HTTP endpoint, e.g. http://127.0.0.1:8931/mcp")
		}
		conn.Headers = c.headers
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"tool", &c.tool}, {"sql_argument", &c.sqlArgument}} {
		*f.v = strings.TrimSpace(*f.v)
		if line := d.lines[p+"."+f.name]; line != 0 && *f.v == "" {
			return d.errAt(line, p+"."+f.name, "is empty; remove it to let quarry discover it, or name it")
		}
	}
	dialect, err := d.dialect(c)
	if err != nil {
		return err
	}
	conn.HTTPDialect = dialect
	conn.Tool = c.tool
	conn.SQLArgument = c.sqlArgument
	conn.Arguments = c.arguments
	return nil
}

// args decodes an mcp command's arguments. They are taken as written: a
// ${VAR} reference is refused, because every user of the machine can read
// a process's arguments; values go through env instead.
func (d *decoder) args(n ast.Node, path string, c *connDraft) error {
	n, err := d.plain(n, path)
	if err != nil {
		return err
	}
	switch x := n.(type) {
	case *ast.NullNode:
		return nil
	case *ast.SequenceNode:
		c.args = make([]string, 0, len(x.Values))
		for i, item := range x.Values {
			ip := path + "[" + strconv.Itoa(i) + "]"
			if tk := item.GetToken(); tk != nil && strings.Contains(tk.Value, "${") {
				return d.errAt(lineOf(item), ip, "holds a ${VAR} reference; arguments are visible to every user of the machine (ps), so pass the value through env: and let the server read it there")
			}
			s, err := d.text(item, ip)
			if err != nil {
				return err
			}
			c.args = append(c.args, s.value)
		}
		return nil
	}
	return d.errAt(lineOf(n), path, "expected a list like [connector, sqlite, demo.db], found %s", describe(n))
}

// env decodes the environment of an mcp server quarry starts: variable
// names to text, each value ${VAR}-expanded and kept as a Secret.
func (d *decoder) env(n ast.Node, path string, c *connDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	c.env = map[string]Secret{}
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		ep := path + "." + name
		if !validVarName(name) {
			return d.errAt(lineOf(mv.Key), shorten(ep), "is not a variable name; use letters, digits and _, not starting with a digit")
		}
		s, err := d.text(mv.Value, ep)
		if err != nil {
			return err
		}
		if strings.IndexByte(s.value, 0) >= 0 {
			return d.errAt(s.line, shorten(ep), "holds a NUL byte (after expansion)")
		}
		if sensitiveHeader(name) && s.raw != "" && !strings.Contains(s.raw, "${") {
			d.warnLiteral(s.line, shorten(ep))
		}
		c.env[name] = NewSecret(s.value)
	}
	return nil
}

// arguments decodes the fixed extra arguments of every tool call.
func (d *decoder) arguments(n ast.Node, path string, c *connDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	c.arguments = map[string]string{}
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		ap := path + "." + name
		if name == "" {
			return d.errAt(lineOf(mv.Key), shorten(ap), "an argument needs a name")
		}
		s, err := d.text(mv.Value, ap)
		if err != nil {
			return err
		}
		c.arguments[name] = s.value
	}
	return nil
}
