package runtime

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/valueindex"
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

// InitOptions say what Init creates.
type InitOptions struct {
	Demo     bool      // build the demo database and its knowledge
	Anchor   time.Time // the demo history's last day
	Seed     int64     // the demo data's seed
	Now      func() time.Time
	Progress io.Writer // what building the demo says; nil discards it
}

// Created names what Init wrote.
type Created struct {
	Config, Knowledge string
}

// Init creates a project in dir: a commented quarry.yaml and a knowledge
// folder, and with o.Demo the demo database and its knowledge. It refuses
// to overwrite anything, and builds the slow part first so that a failure
// leaves no half project.
func Init(ctx context.Context, dir string, o InitOptions) (Created, error) {
	withDemo, anchor, seed := o.Demo, o.Anchor, o.Seed
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	cfgPath := filepath.Join(dir, config.FileName)
	if _, err := os.Stat(cfgPath); err == nil {
		return Created{}, quarry.Errorf(quarry.KindInput, "%s already exists; edit it, or choose another folder for the new project", cfgPath)
	}
	kdir := filepath.Join(dir, "knowledge")
	if _, err := os.Stat(kdir); err == nil {
		return Created{}, quarry.Errorf(quarry.KindInput, "%s already exists; move it away, or choose another folder for the new project", kdir)
	}
	dbName := "demo.db"
	dbPath := filepath.Join(dir, dbName)
	if withDemo {
		if _, err := os.Stat(dbPath); err == nil {
			return Created{}, quarry.Errorf(quarry.KindInput, "%s already exists; remove it, or choose another folder for the demo", dbPath)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Created{}, quarry.Wrap(quarry.KindInput, err, "cannot create the folder %s", dir)
	}

	// Build the slow part first, so that a failure leaves no half project.
	if withDemo {
		fmt.Fprintf(o.Progress, "building the demo database (history ending %s)…\n", anchor.Format("2006-01-02"))
		st, err := demo.Build(ctx, dbPath, demo.Options{Anchor: anchor, Seed: seed, Now: o.Now})
		if err != nil {
			return Created{}, err
		}
		var rows int64
		for _, t := range st.Tables {
			rows += t.Rows
		}
		fmt.Fprintf(o.Progress, "wrote %s: %d tables, %d rows in %s\n", dbPath, len(st.Tables), rows, st.Duration.Round(time.Millisecond))
	}

	var err error
	if withDemo {
		err = copyFS(demo.Knowledge(), kdir)
	} else {
		err = writeBlankKnowledge(kdir)
	}
	if err != nil {
		os.RemoveAll(kdir)
		return Created{}, quarry.Wrap(quarry.KindInput, err, "cannot write the knowledge folder %s", kdir)
	}

	opts := config.TemplateOptions{Project: filepath.Base(absOr(dir))}
	if withDemo {
		opts.Project = "demo"
		opts.DBPath = dbName
	}
	if err := WriteFileAtomic(cfgPath, config.Template(opts), 0o644); err != nil {
		return Created{}, quarry.Wrap(quarry.KindInput, err, "cannot write %s", cfgPath)
	}
	if withDemo {
		// The value index, as learn writes it, so that the demo answers
		// "orders by Priya Dawson" from the first question.
		if st, err := demoValues(ctx, dbPath, kdir, o.Now()); err != nil {
			fmt.Fprintf(o.Progress, "value index not written: %s; run quarry learn\n", quarry.Message(err))
		} else {
			fmt.Fprintf(o.Progress, "wrote the value index: %d values of %d columns\n", st.Values, st.Columns)
		}
	}
	return Created{Config: cfgPath, Knowledge: kdir}, nil
}

// demoValues builds the demo's value index from its database and
// knowledge (the policy's restricted columns are never read).
func demoValues(ctx context.Context, dbPath, kdir string, now time.Time) (*valueindex.Stats, error) {
	f, err := knowledge.Load(kdir)
	if err != nil {
		return nil, err
	}
	if err := knowledge.EnsureCache(kdir); err != nil {
		return nil, err
	}
	// The column policy in the engine's authorizer too, as every other
	// read of the project's database has it: Build leaves restricted
	// columns out, and the engine refuses them if it did not.
	conn, err := sqlite.Open(ctx, dbPath, sqlite.Options{Policy: policy.FromModel(f.Model)})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return valueindex.Build(ctx, conn, f.Model, filepath.Join(kdir, filepath.FromSlash(knowledge.ValuesFile)), valueindex.Limits{Now: now})
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

// WriteFileAtomic writes data under a temporary name and renames it into
// place, so a reader never sees half a file.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
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
