package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) initCmd() *cobra.Command {
	var withDemo bool
	var anchor string
	var seed int64
	var dbURL string
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a project: a commented quarry.yaml and a knowledge folder (--demo adds the demo database)",
		Long: `Create a quarry project in DIR (default: the current folder): a commented
quarry.yaml and a knowledge/ folder. With --demo it also builds the demo
database (a fictional online retailer, 36 months of history ending with the
anchor's month) and its hand-written knowledge, so that quarry ask works at
once. The same --anchor and --seed always build the same file, byte for byte.

--url adds your database as the project's connection: a postgres:// or
mysql:// URL goes into .env (mode 0600, git-ignored) and quarry.yaml refers
to it as ${DATABASE_URL}; a SQLite or DuckDB file is written by its path.
Without --url, a SQLite or DuckDB file in DIR is offered (in a terminal a
yes/no question, otherwise the command that uses it), and a terminal is
asked for the URL.`,
		Args: cobra.MaximumNArgs(1),
		Example: `  quarry init --demo demo
  quarry init --demo --anchor 2026-06-30 demo
  quarry init myproject
  quarry init --url 'postgres://reader:secret@db.internal:5432/shop' shop
  quarry init --url data/shop.db`,
	}
	cmd.Flags().BoolVar(&withDemo, "demo", false, "build the demo database and its knowledge")
	cmd.Flags().StringVar(&anchor, "anchor", "", "last day of the demo's history, YYYY-MM-DD (default: today)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the demo data")
	cmd.Flags().StringVar(&dbURL, "url", "", "your database: a postgres:// or mysql:// URL (kept in .env), or a SQLite or DuckDB file")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		dir := "."
		if len(args) == 1 {
			dir = args[0]
		}
		day := a.now()
		if anchor != "" {
			if !withDemo {
				return quarry.Errorf(quarry.KindUsage, "--anchor only applies with --demo")
			}
			t, err := time.Parse("2006-01-02", anchor)
			if err != nil {
				return quarry.Errorf(quarry.KindUsage, "--anchor %q is not a date; write it as YYYY-MM-DD", anchor)
			}
			day = t
		}
		wd, err := os.Getwd()
		if err != nil {
			return quarry.Wrap(quarry.KindInput, err, "cannot read the current folder")
		}
		var target *runtime.Target
		if dbURL != "" {
			if withDemo {
				return quarry.Errorf(quarry.KindUsage, "--url and --demo do not go together: the demo brings its own database")
			}
			// Read before anything is written: a bad URL leaves no project.
			t, err := runtime.ParseTarget(dbURL, wd)
			if err != nil {
				return err
			}
			target = &t
		}
		c, err := runtime.Init(ctx, dir, runtime.InitOptions{Demo: withDemo, Anchor: day, Seed: seed, Now: a.now, Progress: a.stderr})
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "Created %s and %s/\n", c.Config, c.Knowledge)
		self := a.selfCommand()
		if dir != "." {
			self += " -C " + shellQuote(dir)
		}
		if withDemo {
			fmt.Fprintf(a.stdout, "Next: %s ask \"revenue by month last year\"\n", self)
			return nil
		}
		a.configFlag = c.Config
		if target == nil {
			if target, err = a.offerDatabase(dir, wd, self); err != nil {
				return err
			}
		}
		if target == nil {
			fmt.Fprintf(a.stdout, "Next: add your database with %s learn --url URL (or under connections in %s)\n", self, c.Config)
			return nil
		}
		if _, err := a.connect(a.stdout, *target); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "Next: %s learn\n", self)
		return nil
	})
	return cmd
}

// offerDatabase offers a SQLite or DuckDB file found in the new project's
// folder: a person at a terminal is asked, anyone else is shown the
// command that uses it. With no file, a terminal is asked for the URL.
func (a *app) offerDatabase(dir, wd, self string) (*runtime.Target, error) {
	files := databaseFiles(dir)
	if !a.prompts {
		for _, f := range files {
			fmt.Fprintf(a.stdout, "Found %s; to use it: %s learn --url %s\n", f, self, shellQuote(filepath.Join(dir, f)))
		}
		return nil, nil
	}
	for _, f := range files {
		ok, err := a.yes(fmt.Sprintf("Use %s as this project's database?", f))
		if err != nil {
			return nil, err
		}
		if ok {
			t, err := runtime.ParseTarget(filepath.Join(dir, f), wd)
			return &t, err
		}
	}
	return a.promptTarget(wd)
}

// selfCommand is how the person who ran quarry runs it again from the same
// folder: quarry is rarely on PATH right after `go build -o quarry`.
func (a *app) selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "quarry"
	}
	wd, _ := os.Getwd()
	path, _ := a.env("PATH")
	return selfCommand(exe, wd, filepath.SplitList(path))
}

// selfCommand says how to run the executable exe from the folder wd:
// its name when a folder of path holds it under that name, a path relative
// to wd when it is within wd or beside it (./quarry, ../bin/quarry), and
// its absolute path otherwise. A binary go run built in a temporary folder
// is gone when it exits, so it is "quarry" too.
func selfCommand(exe, wd string, path []string) string {
	if st, err := os.Stat(exe); err == nil {
		for _, d := range path {
			if d == "" || !filepath.IsAbs(d) {
				continue // a relative PATH entry depends on where one stands
			}
			if on, err := os.Stat(filepath.Join(d, filepath.Base(exe))); err == nil && os.SameFile(st, on) {
				return shellQuote(strings.TrimSuffix(filepath.Base(exe), ".exe"))
			}
		}
	}
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return "quarry"
		}
	}
	if wd != "" {
		if rel, err := filepath.Rel(wd, exe); err == nil {
			up := strings.Count(filepath.ToSlash(rel)+"/", "../")
			if !strings.HasPrefix(filepath.ToSlash(rel), "../") {
				return shellQuote("./" + filepath.ToSlash(rel))
			}
			if up == 1 {
				return shellQuote(filepath.ToSlash(rel))
			}
		}
	}
	return shellQuote(exe)
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+@:%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
