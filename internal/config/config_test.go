package config

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// secretValue is set in the test environment; no message may contain it.
const secretValue = "hunter2-s3cr3t"

func testEnv(extra map[string]string) func(string) (string, bool) {
	m := map[string]string{
		"DATABASE_URL": "postgres://reader:" + secretValue + "@db.example/shop",
		"EMPTY":        "",
		"HOME":         "/home/ana",
	}
	for k, v := range extra {
		m[k] = v
	}
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// TestLoadErrors loads every testdata/errors/*.yaml, which must fail, and
// compares the one-line messages with testdata/errors.golden.
func TestLoadErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	sort.Strings(files)
	var got strings.Builder
	for _, f := range files {
		_, err := Load(f, testEnv(nil))
		if err == nil {
			t.Errorf("%s: loaded without an error", f)
			continue
		}
		var qe *quarry.Error
		if !errors.As(err, &qe) || qe.Kind != quarry.KindConfig {
			t.Errorf("%s: error %v is not a KindConfig *quarry.Error", f, err)
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%s: message is not one line: %q", f, msg)
		}
		if strings.Contains(msg, secretValue) {
			t.Errorf("%s: message reveals a secret: %q", f, msg)
		}
		if !strings.HasPrefix(msg, filepath.Clean(f)+":") {
			t.Errorf("%s: message does not start with the file name: %q", f, msg)
		}
		got.WriteString(msg + "\n")
	}
	golden := "testdata/errors.golden"
	if goldentest.Update() {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("messages differ from %s (-want +got):\n%s", golden, diff)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	writeFile(t, path, `version: 1
project: shop
connection: wh
connections:
  local:
    driver: sqlite3
    path: data/local.db
  wh:
    driver: postgres
    url: ${DATABASE_URL}
  lake:
    driver: duckdb
    path: ~/lake.duckdb
  abs:
    driver: sqlite
    path: /srv/x.db
knowledge: kb
state: ${STATE_DIR:-/var/quarry}/state.db
model:
  provider: openai
  model: llama3
  base_url: http://localhost:11434/v1
limits:
  max_rows: ${MAX_ROWS:-5_000}
  preview_rows: 10
  statement_timeout: 1m30s
  max_statement_bytes: 2048
  max_cost: 1e6
  max_estimated_rows: 1000000
  cache_ttl: 0s
  repair_attempts: 0
  max_value_bytes: 1_000_000
  max_result_bytes: 50_000_000
server:
  read_timeout: 5s
  idle_timeout: 1m
  max_header_bytes: 8192
  max_sessions: 3
  session_idle_timeout: 10m
guard:
  extra_functions: [My_Fn, ext.similarity]
`)
	cfg, err := Load(path, testEnv(map[string]string{"OPENAI_API_KEY": "sk-" + secretValue}))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Path: path, Dir: dir, Version: 1, Project: "shop", Connection: "wh",
		Connections: map[string]*Connection{
			"local": {Name: "local", Driver: "sqlite", Path: filepath.Join(dir, "data/local.db"), Line: 5},
			"wh":    {Name: "wh", Driver: "postgres", Line: 8},
			"lake":  {Name: "lake", Driver: "duckdb", Path: "/home/ana/lake.duckdb", Line: 11},
			"abs":   {Name: "abs", Driver: "sqlite", Path: "/srv/x.db", Line: 14},
		},
		ConnectionNames: []string{"local", "wh", "lake", "abs"},
		Knowledge:       filepath.Join(dir, "kb"),
		State:           "/var/quarry/state.db",
		Model:           Model{Provider: "openai", Model: "llama3", BaseURL: "http://localhost:11434/v1", Reason: "model.provider in quarry.yaml"},
		Limits: Limits{MaxRows: 5000, PreviewRows: 10, StatementTimeout: 90 * time.Second, MaxStatementBytes: 2048,
			MaxCost: 1e6, MaxEstimatedRows: 1000000, CacheTTL: 0, RepairAttempts: 0,
			MaxValueBytes: 1_000_000, MaxResultBytes: 50_000_000},
		Server: Server{ReadTimeout: 5 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 8192,
			MaxSessions: 3, SessionIdleTimeout: 10 * time.Minute},
		Guard: Guard{ExtraFunctions: []string{"my_fn", "ext.similarity"}},
	}
	if diff := cmp.Diff(want, cfg, cmpopts.IgnoreUnexported(Config{}), cmp.Comparer(func(a, b Secret) bool { return true })); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if got := cfg.Connections["wh"].URL.Value(); got != "postgres://reader:"+secretValue+"@db.example/shop" {
		t.Errorf("url = %q", got)
	}
	if got := cfg.Model.APIKey.Value(); got != "sk-"+secretValue {
		t.Errorf("api key from OPENAI_API_KEY = %q", got)
	}
	if got := cfg.Line("limits.cache_ttl"); got != 30 {
		t.Errorf("Line(limits.cache_ttl) = %d, want 30", got)
	}
	if diff := cmp.Diff([]string{"DATABASE_URL", "MAX_ROWS", "OPENAI_API_KEY", "STATE_DIR"}, cfg.Vars()); diff != "" {
		t.Errorf("Vars (-want +got):\n%s", diff)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings: %q", cfg.Warnings)
	}
	if d := cfg.Connections["wh"].Dialect(); d != quarry.DialectPostgres {
		t.Errorf("dialect = %q", d)
	}
}

func TestLoadDefaults(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	writeFile(t, path, "version: 1\nconnections:\n  demo:\n    driver: sqlite\n    path: demo.db\nmodel:\nlimits:\n")
	cfg, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Project != filepath.Base(dir) || cfg.Connection != "demo" ||
		cfg.Knowledge != filepath.Join(dir, "knowledge") || cfg.State != filepath.Join(dir, ".quarry", "state.db") {
		t.Errorf("defaults: project %q connection %q knowledge %q state %q", cfg.Project, cfg.Connection, cfg.Knowledge, cfg.State)
	}
	wantLimits := Limits{MaxRows: 100000, PreviewRows: 20, StatementTimeout: 30 * time.Second,
		MaxStatementBytes: 1048576, CacheTTL: 5 * time.Minute, RepairAttempts: 3,
		MaxValueBytes: 16 << 20, MaxResultBytes: 256 << 20}
	if diff := cmp.Diff(DefaultServer(), cfg.Server); diff != "" {
		t.Errorf("server (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantLimits, cfg.Limits); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	if cfg.Model.Provider != ProviderBuiltin || cfg.Model.APIKey.IsSet() {
		t.Errorf("model = %+v", cfg.Model)
	}
	if cfg.Guard.ExtraFunctions != nil {
		t.Errorf("extra functions = %q", cfg.Guard.ExtraFunctions)
	}
}

func TestModelChoice(t *testing.T) {
	tests := []struct {
		name, model string
		env         map[string]string
		provider    string
		key         string
		baseURL     string
	}{
		{"nothing", "", nil, "builtin", "", ""},
		{"anthropic key", "", map[string]string{"ANTHROPIC_API_KEY": "ak", "ANTHROPIC_BASE_URL": "https://proxy.example"}, "anthropic", "ak", "https://proxy.example"},
		{"openai key", "", map[string]string{"OPENAI_API_KEY": "ok"}, "openai", "ok", ""},
		{"both keys prefer anthropic", "", map[string]string{"OPENAI_API_KEY": "ok", "ANTHROPIC_API_KEY": "ak"}, "anthropic", "ak", ""},
		{"empty key is not set", "", map[string]string{"ANTHROPIC_API_KEY": ""}, "builtin", "", ""},
		{"explicit builtin ignores keys", "model:\n  provider: builtin\n", map[string]string{"ANTHROPIC_API_KEY": "ak"}, "builtin", "", ""},
		{"auto spelled out", "model:\n  provider: Auto\n", map[string]string{"OPENAI_API_KEY": "ok"}, "openai", "ok", ""},
		{"file key wins over variable", "model:\n  provider: anthropic\n  api_key: ${MY_KEY}\n", map[string]string{"ANTHROPIC_API_KEY": "ak", "MY_KEY": "mine"}, "anthropic", "mine", ""},
		{"openai base URL alone (ollama)", "", map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}, "openai", "", "http://localhost:11434/v1"},
		{"base_url in the file alone", "model:\n  base_url: http://gpu-box:8000/v1\n", nil, "openai", "", "http://gpu-box:8000/v1"},
		{"anthropic base URL alone is not a key", "", map[string]string{"ANTHROPIC_BASE_URL": "https://proxy.example"}, "builtin", "", ""},
		{"openai with no key (ollama)", "model:\n  provider: openai\n  base_url: http://localhost:11434/v1\n", nil, "openai", "", "http://localhost:11434/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte("version: 1\n"+tt.model), "/p/quarry.yaml", Lookup(testEnv(tt.env)))
			if err != nil {
				t.Fatal(err)
			}
			m := cfg.Model
			if m.Provider != tt.provider || m.APIKey.Value() != tt.key || m.BaseURL != tt.baseURL || m.Reason == "" {
				t.Errorf("got provider %q key %q base %q reason %q", m.Provider, m.APIKey.Value(), m.BaseURL, m.Reason)
			}
		})
	}
}

func TestSecretWrittenInFileWarns(t *testing.T) {
	cfg, err := Parse([]byte("version: 1\nmodel:\n  provider: anthropic\n  api_key: sk-"+secretValue+"\n"), "quarry.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"quarry.yaml:4: model.api_key: the value is written into the file; move it to .env or the environment and write ${VAR} here"}
	if diff := cmp.Diff(want, cfg.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestLoadFileProblems(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sub", "x"), "")
	big := filepath.Join(dir, "big.yaml")
	writeFile(t, big, "version: 1\n#"+strings.Repeat("x", maxFileBytes)+"\n")
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.yaml"), "nope.yaml: no such file; run `quarry init`"},
		{"folder", filepath.Join(dir, "sub"), "sub: is a folder, not a file"},
		{"too large", big, "big.yaml: is 1048589 bytes, more than the 1048576 a config file may have"},
		{"no path", "", "no config file given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.path, nil)
			if err == nil || quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want KindConfig containing %q", err, tt.want)
			}
		})
	}
}

func TestConn(t *testing.T) {
	cfg, err := Parse([]byte("version: 1\nconnection: b\nconnections:\n  a: {driver: sqlite, path: a.db}\n  b: {driver: sqlite, path: b.db}\n"), "/p/quarry.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"": "b", "a": "a", "b": "b"} {
		c, err := cfg.Conn(name)
		if err != nil || c.Name != want {
			t.Errorf("Conn(%q) = %v, %v; want %s", name, c, err, want)
		}
	}
	_, err = cfg.Conn("aa")
	if err == nil || err.Error() != `no connection named "aa" in /p/quarry.yaml; did you mean "a"?` {
		t.Errorf("Conn(aa) error = %v", err)
	}
	empty, err := Parse([]byte("version: 1\n"), "/p/quarry.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Conn(""); err == nil || quarry.KindOf(err) != quarry.KindConfig {
		t.Errorf("Conn on a config without connections: %v", err)
	}
}

func TestExpandedValueIsNeverYAML(t *testing.T) {
	// A variable whose value looks like YAML stays one text value.
	inject := "x\nlimits:\n  max_rows: 1\n# "
	cfg, err := Parse([]byte("version: 1\nproject: ${P}\n"), "/p/quarry.yaml", Lookup(testEnv(map[string]string{"P": inject})))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Project != inject || cfg.Limits.MaxRows != DefaultMaxRows {
		t.Errorf("project %q, max_rows %d", cfg.Project, cfg.Limits.MaxRows)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(Template(TemplateOptions{DBPath: "demo.db"})))
	f.Add([]byte("version: 1\nconnections:\n  a: {driver: sqlite, path: ${X:-a.db}}\n"))
	f.Add([]byte("- [ {"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data, "/p/quarry.yaml", Lookup(testEnv(nil)))
		if err == nil {
			return
		}
		if quarry.KindOf(err) != quarry.KindConfig {
			t.Fatalf("error of kind %s: %v", quarry.KindOf(err), err)
		}
		if strings.Contains(err.Error(), secretValue) {
			t.Fatalf("error reveals a secret: %v", err)
		}
	})
}

func TestScalarForms(t *testing.T) {
	cfg, err := Parse([]byte("version: 1\nproject: 2024\nlimits:\n  max_rows: 100_000\n  preview_rows: \"15\"\n  max_cost: 2.5\nguard:\n  extra_functions:\n    - A\n    -\n"), "/p/quarry.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{cfg.Project, cfg.Limits.MaxRows, cfg.Limits.PreviewRows, cfg.Limits.MaxCost, cfg.Guard.ExtraFunctions}
	want := []any{"2024", int64(100000), 15, 2.5, []string{"a"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNamedConnectionWithoutDefault checks that a file with several
// connections and no default loads: a named connection is found, and the
// default is refused with what to do.
func TestNamedConnectionWithoutDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeFile(t, path, "version: 1\nconnections:\n  a:\n    driver: sqlite\n    path: a.db\n  b:\n    driver: sqlite\n    path: b.db\n")
	cfg, err := Load(path, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Connection != "" || cfg.Manual("") || cfg.Manual("b") {
		t.Errorf("connection %q, manual %v", cfg.Connection, cfg.Manual(""))
	}
	if c, err := cfg.Conn("b"); err != nil || c.Name != "b" {
		t.Errorf("Conn(b) = %+v, %v", c, err)
	}
	_, err = cfg.Conn("")
	want := path + " defines 2 connections (a, b) and no default; name one with --connection a, or add `connection: a` to it"
	if quarry.KindOf(err) != quarry.KindUsage || quarry.Message(err) != want {
		t.Errorf("Conn(\"\") = %v (%s), want %q", err, quarry.KindOf(err), want)
	}
}
