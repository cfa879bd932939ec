package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDotEnv(t *testing.T) {
	in := "# database\n" +
		"DATABASE_URL=postgres://u:p@h/db\n" +
		"export API_KEY = sk-123   # the key\n" +
		"\n" +
		"   INDENTED=yes\n" +
		"SINGLE='it is ${RAW} \\n' # comment\n" +
		"DOUBLE=\"line1\\nline2\\t\\\"q\\\" \\$HOME \\\\ \\x\"  # comment\n" +
		"HASH=a#b\n" +
		"SPACEHASH=a #b\n" +
		"EMPTY=\n" +
		"EMPTYQ=\"\"\n" +
		"MULTI=\"one\ntwo\"\n" +
		"SQ_MULTI='a\nb'\n" +
		"CRLF=value\r\n" +
		"DUP=first\n" +
		"DUP=second\n" +
		"exportX=notexport\n" +
		"LAST=end"
	got, err := ParseDotEnv([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"DATABASE_URL": "postgres://u:p@h/db",
		"API_KEY":      "sk-123",
		"INDENTED":     "yes",
		"SINGLE":       "it is ${RAW} \\n",
		"DOUBLE":       "line1\nline2\t\"q\" $HOME \\ \\x",
		"HASH":         "a#b",
		"SPACEHASH":    "a",
		"EMPTY":        "",
		"EMPTYQ":       "",
		"MULTI":        "one\ntwo",
		"SQ_MULTI":     "a\nb",
		"CRLF":         "value",
		"DUP":          "second",
		"exportX":      "notexport",
		"LAST":         "end",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseDotEnvErrors(t *testing.T) {
	tests := []struct {
		in   string
		line int
		msg  string
	}{
		{"A=1\nnot a pair\n", 2, "expected KEY=VALUE"},
		{"A=1\n1X=2\n", 2, `"1X" is not a variable name`},
		{"=value\n", 1, `"" is not a variable name`},
		{"A B=1\n", 1, `"A B" is not a variable name`},
		{"A='secret-value\n", 1, "the value of A opens a ' quote that is never closed"},
		{"\nA=\"secret-value\nmore\n", 2, `the value of A opens a " quote that is never closed`},
		{"A='x'y\n", 1, "unexpected text after the quoted value of A"},
		{"A=1\x00\n", 1, "is not a text file"},
	}
	for _, tt := range tests {
		_, err := ParseDotEnv([]byte(tt.in))
		var de *DotEnvError
		if !errors.As(err, &de) || de.Line != tt.line || !strings.Contains(de.Msg, tt.msg) {
			t.Errorf("ParseDotEnv(%q) = %v, want line %d: %s", tt.in, err, tt.line, tt.msg)
			continue
		}
		if strings.Contains(de.Msg, "secret-value") {
			t.Errorf("ParseDotEnv(%q) error reveals the value: %v", tt.in, err)
		}
	}
}

// TestDotEnvPrecedence: the process environment wins over .env, and .env
// fills in what the environment lacks.
func TestDotEnvPrecedence(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, FileName), "version: 1\nproject: ${PROJECT}\nknowledge: ${KB}\nstate: ${STATE:-st.db}\nmodel:\n  provider: anthropic\n")
	writeFile(t, filepath.Join(dir, DotEnvName), "PROJECT=from-dotenv\nKB=kb-from-dotenv\nSTATE=\nANTHROPIC_API_KEY=dotenv-key\n")
	env := map[string]string{"PROJECT": "from-env"}
	cfg, err := Load(filepath.Join(dir, FileName), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	got := []string{cfg.Project, cfg.Knowledge, cfg.State, cfg.Model.APIKey.Value()}
	want := []string{"from-env", filepath.Join(dir, "kb-from-dotenv"), filepath.Join(dir, "st.db"), "dotenv-key"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A variable set to "" in the environment still wins over .env; an
	// empty knowledge folder means the default one.
	env["KB"] = ""
	cfg, err = Load(filepath.Join(dir, FileName), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, DefaultKnowledge); cfg.Knowledge != want {
		t.Errorf("knowledge = %q, want %q", cfg.Knowledge, want)
	}
}

func TestDotEnvErrorNamesFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, FileName), "version: 1\n")
	writeFile(t, filepath.Join(dir, DotEnvName), "OK=1\nTOKEN='abc-secret\n")
	_, err := Load(filepath.Join(dir, FileName), nil)
	want := filepath.Join(dir, DotEnvName) + ":2: the value of TOKEN opens a ' quote that is never closed; close it"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if err := os.Remove(filepath.Join(dir, DotEnvName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, DotEnvName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(dir, FileName), nil); err == nil || !strings.Contains(err.Error(), ".env: is a folder") {
		t.Errorf("a .env folder: %v", err)
	}
}

func FuzzParseDotEnv(f *testing.F) {
	for _, s := range []string{"A=1\n", "export B='x'\n", "C=\"a\\nb\" # c\n", "D=\"open", "# only\n", "E=a #b\r\nF=2"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, err := ParseDotEnv(data)
		if err != nil {
			var de *DotEnvError
			if !errors.As(err, &de) || de.Line < 1 || strings.ContainsAny(de.Msg, "\r\n") {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		for k := range vars {
			if !validVarName(k) {
				t.Fatalf("invalid key %q accepted", k)
			}
		}
	})
}
