package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

// urlPrompt asks for a database when a project has none.
const urlPrompt = "Your database: a URL (postgres://user:password@host:5432/db, mysql://…) or a SQLite or DuckDB file (Enter to skip): "

// ask writes question to stderr and reads one line of the answer from
// stdin, byte by byte so that nothing after it is consumed.
func (a *app) ask(question string) (string, error) {
	fmt.Fprint(a.stderr, question)
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := a.stdin.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			b.WriteByte(buf[0])
			if b.Len() > 64<<10 {
				return "", quarry.Errorf(quarry.KindInput, "the answer is over 64 KiB; give a URL or a file path")
			}
		}
		if err == io.EOF {
			fmt.Fprintln(a.stderr)
			break
		}
		if err != nil {
			return "", quarry.Wrap(quarry.KindInput, err, "cannot read the answer from standard input")
		}
	}
	return strings.TrimSpace(b.String()), nil
}

// yes asks a yes/no question; Enter means yes.
func (a *app) yes(question string) (bool, error) {
	ans, err := a.ask(question + " [Y/n] ")
	if err != nil {
		return false, err
	}
	switch strings.ToLower(ans) {
	case "", "y", "yes":
		return true, nil
	}
	return false, nil
}

// promptTarget asks for the database until the answer is one quarry can
// read, or empty (nil: skipped).
func (a *app) promptTarget(wd string) (*runtime.Target, error) {
	for range 3 {
		ans, err := a.ask(urlPrompt)
		if err != nil || ans == "" {
			return nil, err
		}
		t, err := runtime.ParseTarget(ans, wd)
		if err == nil {
			return &t, nil
		}
		fmt.Fprintf(a.stderr, "quarry: %s\n", quarry.Message(err))
	}
	return nil, nil
}

// connect adds t to the project's quarry.yaml (the URL itself into .env)
// and says what it did on w.
func (a *app) connect(w io.Writer, t runtime.Target) (runtime.Connected, error) {
	c, err := a.rt.Connect(t)
	if err != nil {
		return c, err
	}
	switch {
	case c.Existing:
		fmt.Fprintf(w, "%s already reads this database as the connection %s\n", c.Config, c.Name)
	case c.Var != "":
		fmt.Fprintf(w, "Added the connection %s (%s) to %s; its URL is in %s as %s (mode 0600, git-ignored)\n", c.Name, c.Driver, c.Config, c.DotEnv, c.Var)
	default:
		fmt.Fprintf(w, "Added the connection %s (%s, %s) to %s\n", c.Name, c.Driver, c.Path, c.Config)
	}
	return c, nil
}

// databaseFiles lists the SQLite and DuckDB files in dir, by name.
func databaseFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && slices.Contains(runtime.DatabaseFileExts, strings.ToLower(filepath.Ext(e.Name()))) {
			out = append(out, e.Name())
		}
	}
	return out
}
