package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/quarry"
)

const blankKnowledgeReadme = `# Knowledge

This folder tells quarry what your data means. ` + "`quarry learn`" + ` fills model.yaml
from your database's catalog; you add metrics, synonyms, notes and verified
queries. Every file here is yours to edit: learn keeps your edits.

- model.yaml: tables, columns and how they join (written by learn).
- metrics.yaml: the business metrics and dimensions people ask about.
- policy.yaml: restricted columns that quarry never shows or sends to a model.
- examples/: verified queries (question + SQL) quarry answers exactly.
- notes/: free Markdown notes.

See docs/knowledge.md in quarry's repository for every field.
`

func (a *app) initCmd() *cobra.Command {
	var withDemo bool
	var anchor string
	var seed int64
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a project: a commented quarry.yaml and a knowledge folder (--demo adds the demo database)",
		Long: `Create a quarry project in DIR (default: the current folder): a commented
quarry.yaml and a knowledge/ folder. With --demo it also builds the demo
database (a fictional online retailer, 36 months of history ending with the
anchor's month) and its hand-written knowledge, so that quarry ask works at
once. The same --anchor and --seed always build the same file, byte for byte.`,
		Args: cobra.MaximumNArgs(1),
		Example: `  quarry init --demo demo
  quarry init --demo --anchor 2026-06-30 demo
  quarry init myproject`,
	}
	cmd.Flags().BoolVar(&withDemo, "demo", false, "build the demo database and its knowledge")
	cmd.Flags().StringVar(&anchor, "anchor", "", "last day of the demo's history, YYYY-MM-DD (default: today)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the demo data")
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
		return a.initProject(ctx, dir, withDemo, day, seed)
	})
	return cmd
}

func (a *app) initProject(ctx context.Context, dir string, withDemo bool, anchor time.Time, seed int64) error {
	cfgPath := filepath.Join(dir, config.FileName)
	if _, err := os.Stat(cfgPath); err == nil {
		return quarry.Errorf(quarry.KindInput, "%s already exists; edit it, or choose another folder for the new project", cfgPath)
	}
	kdir := filepath.Join(dir, "knowledge")
	if _, err := os.Stat(kdir); err == nil {
		return quarry.Errorf(quarry.KindInput, "%s already exists; move it away, or choose another folder for the new project", kdir)
	}
	dbName := "demo.db"
	dbPath := filepath.Join(dir, dbName)
	if withDemo {
		if _, err := os.Stat(dbPath); err == nil {
			return quarry.Errorf(quarry.KindInput, "%s already exists; remove it, or choose another folder for the demo", dbPath)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot create the folder %s", dir)
	}

	// Build the slow part first, so that a failure leaves no half project.
	if withDemo {
		fmt.Fprintf(a.stderr, "building the demo database (history ending %s)…\n", anchor.Format("2006-01-02"))
		st, err := demo.Build(ctx, dbPath, demo.Options{Anchor: anchor, Seed: seed, Now: a.now})
		if err != nil {
			return err
		}
		var rows int64
		for _, t := range st.Tables {
			rows += t.Rows
		}
		fmt.Fprintf(a.stderr, "wrote %s: %d tables, %d rows in %s\n", dbPath, len(st.Tables), rows, st.Duration.Round(time.Millisecond))
	}

	var err error
	if withDemo {
		err = copyFS(demo.Knowledge(), kdir)
	} else {
		err = writeBlankKnowledge(kdir)
	}
	if err != nil {
		os.RemoveAll(kdir)
		return quarry.Wrap(quarry.KindInput, err, "cannot write the knowledge folder %s", kdir)
	}

	opts := config.TemplateOptions{Project: filepath.Base(absOr(dir))}
	if withDemo {
		opts.Project = "demo"
		opts.DBPath = dbName
	}
	if err := writeFileAtomic(cfgPath, config.Template(opts), 0o644); err != nil {
		return quarry.Wrap(quarry.KindInput, err, "cannot write %s", cfgPath)
	}
	fmt.Fprintf(a.stdout, "Created %s and %s/\n", cfgPath, kdir)
	if withDemo {
		fmt.Fprintf(a.stdout, "Next: cd %s && quarry ask \"revenue by month last year\"\n", dir)
	} else {
		fmt.Fprintf(a.stdout, "Next: add your database under connections in %s, then run quarry learn\n", cfgPath)
	}
	return nil
}

func writeBlankKnowledge(dir string) error {
	for _, d := range []string{dir, filepath.Join(dir, "examples"), filepath.Join(dir, "notes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "README.md"), []byte(blankKnowledgeReadme), 0o644)
}

// copyFS copies a file tree onto disk at dir.
func copyFS(src fs.FS, dir string) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// writeFileAtomic writes data under a temporary name and renames it into
// place, so a reader never sees half a file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func absOr(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
