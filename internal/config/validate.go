package config

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// driverAliases maps other common spellings to quarry's driver names.
var driverAliases = map[string]string{
	"sqlite3":    DriverSQLite,
	"postgresql": DriverPostgres,
	"pg":         DriverPostgres,
	"mariadb":    DriverMySQL,
}

var drivers = []string{DriverSQLite, DriverPostgres, DriverMySQL, DriverDuckDB}

var providers = []string{ProviderAuto, ProviderBuiltin, ProviderAnthropic, ProviderOpenAI}

// connections decodes the connections mapping, keeping file order.
func (d *decoder) connections(n ast.Node, path string) ([]*connDraft, error) {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return nil, err
	}
	var out []*connDraft
	for _, mv := range m.Values {
		name, err := d.keyText(mv.Key, path)
		if err != nil {
			return nil, err
		}
		p := join(path, name)
		if !validName(name) {
			return nil, d.errAt(lineOf(mv.Key), shorten(p), "a connection name uses letters, digits, _ and - only; rename it")
		}
		c := &connDraft{name: name, line: lineOf(mv.Key), path0: p}
		d.lines[p] = c.line
		cm, err := d.mapping(mv.Value, p)
		if err != nil {
			return nil, err
		}
		if cm == nil {
			return nil, d.errAt(c.line, p, "empty; give it a driver and a path or url, e.g. `driver: sqlite` and `path: demo.db`")
		}
		err = d.fields(cm, p, []field{
			{"driver", d.str(&c.driver)},
			{"path", d.str(&c.path)},
			{"url", func(n ast.Node, fp string) error {
				var err error
				c.urlRaw, err = d.secretText(n, fp, &c.url)
				return err
			}},
		})
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// validName reports whether s is a usable connection name.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		switch {
		case r == '_', r == '-', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

func (d *decoder) validateConnections(cfg *Config, drafts []*connDraft) error {
	cfg.Connections = make(map[string]*Connection, len(drafts))
	for _, c := range drafts {
		p := c.path0
		driver := strings.ToLower(strings.TrimSpace(c.driver))
		if alias, ok := driverAliases[driver]; ok {
			driver = alias
		}
		switch {
		case c.driver == "":
			return d.errAt(c.line, p, "missing driver; add `driver: sqlite` (or %s)", strings.Join(drivers[1:], ", "))
		case !slices.Contains(drivers, driver):
			return d.errAt(d.lines[p+".driver"], p+".driver", "unknown driver %q; %s", shorten(c.driver), hint(driver, drivers))
		}
		conn := &Connection{Name: c.name, Driver: driver, URL: c.url, Line: c.line}
		switch driver {
		case DriverSQLite, DriverDuckDB:
			if c.url.IsSet() || d.lines[p+".url"] != 0 {
				return d.errAt(d.lines[p+".url"], p+".url", "%s connections read a file; use path instead of url", driver)
			}
			if strings.TrimSpace(c.path) == "" {
				if line := d.lines[p+".path"]; line != 0 {
					return d.errAt(line, p+".path", "is empty; write the database file's path, relative to this file's folder")
				}
				return d.errAt(c.line, p, "missing path; add `path: demo.db` (relative to this file's folder)")
			}
			conn.Path = d.resolve(cfg.Dir, c.path)
		default:
			if d.lines[p+".path"] != 0 {
				return d.errAt(d.lines[p+".path"], p+".path", "%s connections use url, not path; write `url: ${DATABASE_URL}`", driver)
			}
			if !c.url.IsSet() {
				if line := d.lines[p+".url"]; line != 0 {
					return d.errAt(line, p+".url", "is empty after expansion of %q; set the variable in the environment or in .env beside quarry.yaml", shorten(c.urlRaw))
				}
				return d.errAt(c.line, p, "missing url; add `url: ${DATABASE_URL}` and set DATABASE_URL in the environment or in .env beside quarry.yaml")
			}
		}
		cfg.Connections[c.name] = conn
		cfg.ConnectionNames = append(cfg.ConnectionNames, c.name)
	}
	switch {
	case cfg.Connection != "":
		if _, ok := cfg.Connections[cfg.Connection]; !ok {
			if len(cfg.ConnectionNames) == 0 {
				return d.errAt(d.lines["connection"], "connection", "names %q, but no connections are defined; add it under connections:", shorten(cfg.Connection))
			}
			return d.errAt(d.lines["connection"], "connection", "no connection named %q is defined; %s", shorten(cfg.Connection), hint(cfg.Connection, cfg.ConnectionNames))
		}
	case len(cfg.ConnectionNames) == 1:
		cfg.Connection = cfg.ConnectionNames[0]
	case len(cfg.ConnectionNames) > 1:
		return d.errAt(d.lines["connections"], "connection", "missing; name the default connection, e.g. `connection: %s`", cfg.ConnectionNames[0])
	}
	return nil
}

// resolve makes a path absolute against dir; "~/" means the home folder
// when HOME is known.
func (d *decoder) resolve(dir, p string) string {
	p = strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, ok := d.lookup("HOME"); ok && home != "" {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// providerKeys are the variables each provider's tools conventionally read.
var providerKeys = map[string]struct{ key, baseURL string }{
	ProviderAnthropic: {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"},
	ProviderOpenAI:    {"OPENAI_API_KEY", "OPENAI_BASE_URL"},
}

func (d *decoder) lookupSet(name string) (string, bool) {
	v, ok := d.lookup(name)
	return v, ok && v != ""
}

// resolveModel turns model.provider (auto when absent) into a concrete
// provider, taking a key and base URL from the provider's usual variables
// when the file leaves them empty.
func (d *decoder) resolveModel(cfg *Config, provider string) error {
	m := &cfg.Model
	p := strings.ToLower(strings.TrimSpace(provider))
	switch p {
	case "", ProviderAuto:
		_, anth := d.lookupSet(providerKeys[ProviderAnthropic].key)
		_, oai := d.lookupSet(providerKeys[ProviderOpenAI].key)
		switch {
		case anth:
			p, m.Reason = ProviderAnthropic, "ANTHROPIC_API_KEY is set"
		case oai:
			p, m.Reason = ProviderOpenAI, "OPENAI_API_KEY is set"
		case m.APIKey.IsSet():
			p, m.Reason = ProviderAnthropic, "model.api_key is set"
		default:
			p, m.Reason = ProviderBuiltin, "no API key is set"
		}
	case ProviderBuiltin, ProviderAnthropic, ProviderOpenAI:
		m.Reason = "model.provider in " + filepath.Base(d.file)
	default:
		return d.errAt(d.lines["model.provider"], "model.provider", "unknown provider %q; %s", shorten(provider), hint(p, providers))
	}
	m.Provider = p
	if keys, ok := providerKeys[p]; ok {
		d.vars = append(d.vars, keys.key)
		if !m.APIKey.IsSet() {
			if v, ok := d.lookupSet(keys.key); ok {
				m.APIKey = NewSecret(v)
			}
		}
		if m.BaseURL == "" {
			if v, ok := d.lookupSet(keys.baseURL); ok {
				m.BaseURL = v
			}
		}
	}
	if m.BaseURL != "" {
		u, err := url.Parse(m.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			line := d.lines["model.base_url"]
			if line == 0 {
				return d.errAt(1, "model.base_url", "the base URL from %s is not an http:// or https:// URL; fix the variable", providerKeys[p].baseURL)
			}
			return d.errAt(line, "model.base_url", "expected an http:// or https:// URL such as http://localhost:11434/v1")
		}
	}
	return nil
}

func (d *decoder) validateGuard(cfg *Config) error {
	for i, fn := range cfg.Guard.ExtraFunctions {
		if !validFuncName(fn) {
			return d.errAt(d.lines["guard.extra_functions"], "guard.extra_functions", "item %d, %q, is not a function name; write names like my_func or schema.my_func", i+1, shorten(fn))
		}
		cfg.Guard.ExtraFunctions[i] = strings.ToLower(fn)
	}
	return nil
}

func validFuncName(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) > 2 {
		return false
	}
	for _, part := range parts {
		if !validVarName(part) {
			return false
		}
	}
	return true
}

// finish applies the defaults that depend on the file's place and records
// what the decoder learned.
func (d *decoder) finish(cfg *Config) error {
	if strings.TrimSpace(cfg.Project) == "" {
		cfg.Project = filepath.Base(cfg.Dir)
	}
	if cfg.Knowledge == "" {
		cfg.Knowledge = DefaultKnowledge
	}
	if cfg.State == "" {
		cfg.State = DefaultState
	}
	cfg.Knowledge = d.resolve(cfg.Dir, cfg.Knowledge)
	cfg.State = d.resolve(cfg.Dir, cfg.State)
	slices.Sort(d.vars)
	cfg.vars = slices.Compact(d.vars)
	cfg.lines = d.lines
	cfg.Warnings = d.warnings
	return nil
}
