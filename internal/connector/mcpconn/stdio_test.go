package mcpconn

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestStdioCrashSaysWhy checks that a server that dies while starting is
// reported by what it said last that explains it, not by its last line.
func TestStdioCrashSaysWhy(t *testing.T) {
	tests := []struct {
		name, stderr, want string
	}{
		{"a JSON log record over several lines",
			"starting\n{\n  \"level\": \"error\",\n  \"msg\": \"cannot connect to the database\",\n  \"error\": \"connect: connection refused\"\n}\n",
			`{ "level": "error", "msg": "cannot connect to the database", "error": "connect: connection refused" }`},
		{"a Node.js crash",
			"/app/server.js:10\n    throw new Error(\"DATABASE_URL is not set\");\n    ^\n\nError: DATABASE_URL is not set\n    at Object.<anonymous> (/app/server.js:10:11)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n\nNode.js v18.17.0\n",
			"Error: DATABASE_URL is not set"},
		{"a Python traceback",
			"Traceback (most recent call last):\n  File \"/app/server.py\", line 3, in <module>\n    connect()\npsycopg2.OperationalError: connection to server at \"db\" failed\n\n",
			`psycopg2.OperationalError: connection to server at "db" failed`},
		{"a Go panic",
			"panic: open shop.db: no such file or directory\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:12 +0x1d\n",
			"panic: open shop.db: no such file or directory"},
		{"a log line at level ERROR",
			"2026-06-30T09:00:00Z INFO listening on stdio\n2026-06-30T09:00:01Z ERROR cannot read config.toml: missing key \"db\"\n2026-06-30T09:00:01Z INFO shutting down\n",
			`2026-06-30T09:00:01Z ERROR cannot read config.toml: missing key "db"`},
		{"a sentence over two lines",
			"usage: server --db PATH\nthe database file was not given,\nand DB_PATH is empty\n",
			"usage: server --db PATH the database file was not given, and DB_PATH is empty"},
		{"blank lines only", "\n \n", "without a message on stderr"},
		{"a secret in the message", "fatal: cannot log in\nwith password " + secret + "\n", "fatal: cannot log in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := open(t, child(t, "crash-with", stderrEnv+"="+tt.stderr)).Catalog(context.Background())
			expectErr(t, err, quarry.KindConnection, "the server exited (exit status 1", tt.want)
			if msg := err.Error(); !strings.HasSuffix(msg, tt.want) {
				t.Errorf("error %q does not end with %q", msg, tt.want)
			}
		})
	}
}

// TestLastWordsKeepsWholeLines checks that the part of stderr the tail
// cut off does not show as half a line, and that the joined lines stay
// within the bound.
func TestLastWordsKeepsWholeLines(t *testing.T) {
	tl := &tail{max: 64}
	tl.Write([]byte(strings.Repeat("x", 50) + " cut here\n" + strings.Repeat("y", 30) + "\nlast line\n"))
	if got, want := tl.lastWords(240), strings.Repeat("y", 30)+" last line"; got != want {
		t.Errorf("lastWords = %q, want %q", got, want)
	}
	tl = &tail{max: 4096}
	tl.Write([]byte("first words\n" + strings.Repeat("z", 200) + "\n}\n"))
	if got, want := tl.lastWords(100), strings.Repeat("z", 200)+" }"; got != want {
		t.Errorf("lastWords = %q, want %q", got, want)
	}
	tl = &tail{max: 4096}
	tl.Write([]byte("first words\n" + strings.Repeat("z", 200) + "\nend\n"))
	if got, want := tl.lastWords(100), "end"; got != want {
		t.Errorf("lastWords = %q, want %q", got, want)
	}
}
