package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	env := Lookup(testEnv(map[string]string{
		"USER":   "ana",
		"HOST":   "db.local",
		"NESTED": "${USER}",
		"DOLLAR": "a$b",
	}))
	tests := []struct {
		in, want string
		vars     []string
	}{
		{"plain text", "plain text", nil},
		{"${USER}", "ana", []string{"USER"}},
		{"${USER}@${HOST}:5432", "ana@db.local:5432", []string{"USER", "HOST"}},
		{"${MISSING:-fallback}", "fallback", []string{"MISSING"}},
		{"${EMPTY:-fallback}", "fallback", []string{"EMPTY"}},
		{"${EMPTY}", "", []string{"EMPTY"}},
		{"${MISSING:-}", "", []string{"MISSING"}},
		{"${USER:-fallback}", "ana", []string{"USER"}},
		{"${MISSING:-${USER}-x}", "ana-x", []string{"MISSING", "USER"}},
		{"${MISSING:-a:-b}", "a:-b", []string{"MISSING"}},
		{"${MISSING:-{x}", "{x", []string{"MISSING"}},
		{"$$", "$", nil},
		{"$${USER}", "${USER}", nil},
		{"pa$word", "pa$word", nil},
		{"trailing $", "trailing $", nil},
		{"$USER", "$USER", nil},
		{"${NESTED}", "${USER}", []string{"NESTED"}},
		{"${DOLLAR}", "a$b", []string{"DOLLAR"}},
		{"${MISSING:-$$}", "$", []string{"MISSING"}},
		{"${MISSING:-a}}", "a}", []string{"MISSING"}},
	}
	for _, tt := range tests {
		got, vars, err := Expand(tt.in, env)
		if err != nil {
			t.Errorf("Expand(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if diff := cmp.Diff(tt.vars, vars); diff != "" {
			t.Errorf("Expand(%q) vars (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	env := Lookup(testEnv(nil))
	tests := []struct{ in, want string }{
		{"${NOPE}", "${NOPE} is not set; set NOPE in the environment or in .env beside quarry.yaml, or give a default with ${NOPE:-default}"},
		{"${DATABASE_URL}${NOPE}", "${NOPE} is not set"},
		{"${", `"${" is not closed`},
		{"${USER", `"${" is not closed`},
		{"${X:-${Y}", `"${" is not closed`},
		{"${}", "${} does not name a variable"},
		{"${9A}", "${9A} does not name a variable"},
		{"${A B}", "${A B} does not name a variable"},
		{"${A-b}", "${A-b} is not a supported reference"},
		{"${A:=b}", "${A:=b} is not a supported reference"},
		{"${A:+b}", "${A:+b} is not a supported reference"},
	}
	for _, tt := range tests {
		_, _, err := Expand(tt.in, env)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Expand(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), secretValue) {
			t.Errorf("Expand(%q) error reveals a value: %v", tt.in, err)
		}
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-${B:-c}}", "$$", "${", "a$b", "${A:-}}"} {
		f.Add(s)
	}
	env := Lookup(testEnv(map[string]string{"A": "a${B}", "B": secretValue}))
	f.Fuzz(func(t *testing.T, s string) {
		out, _, err := Expand(s, env)
		if err != nil {
			if strings.Contains(err.Error(), secretValue) {
				t.Fatalf("error reveals a value: %v", err)
			}
			return
		}
		if !strings.Contains(s, "$") && out != s {
			t.Fatalf("text without $ changed: %q -> %q", s, out)
		}
	})
}
