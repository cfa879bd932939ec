package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/valueindex"
)

// Spider is the Spider benchmark's dev set, grouped by database.
type Spider struct {
	Dir       string      `json:"dir"`
	Questions int         `json:"questions"` // in dev.json
	DBs       []SpiderDB  `json:"dbs"`       // the databases present, sorted by name
	Skipped   []SpiderGap `json:"skipped,omitempty"`
}

// SpiderDB is one database of the benchmark and its questions.
type SpiderDB struct {
	Name string `json:"name"`
	Path string `json:"path"` // database/<db>/<db>.sqlite
	Set  *Set   `json:"-"`
}

// SpiderGap is a database whose questions cannot be scored.
type SpiderGap struct {
	Name      string `json:"name"`
	Questions int    `json:"questions"`
	Why       string `json:"why"`
}

// SkippedQuestions is the number of questions of skipped databases.
func (s *Spider) SkippedQuestions() int {
	n := 0
	for _, g := range s.Skipped {
		n += g.Questions
	}
	return n
}

// LoadSpider reads dir/dev.json and groups its questions by database,
// keeping those whose database/<db>/<db>.sqlite exists and recording the
// others in Skipped.
func LoadSpider(dir string) (*Spider, error) {
	name := filepath.Join(dir, "dev.json")
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot read %s; point at the Spider folder that holds dev.json and database/", name)
	}
	var items []struct {
		DB       string `json:"db_id"`
		Question string `json:"question"`
		Query    string `json:"query"`
	}
	if err := json.Unmarshal(src, &items); err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "%s is not Spider's dev.json (a JSON list of {db_id, question, query})", name)
	}
	sp := &Spider{Dir: dir, Questions: len(items)}
	byDB := map[string]*Set{}
	var order []string
	for i, it := range items {
		if it.DB == "" || it.Question == "" || it.Query == "" {
			return nil, quarry.Errorf(quarry.KindInput, "%s: item %d lacks db_id, question or query", name, i)
		}
		set := byDB[it.DB]
		if set == nil {
			set = &Set{File: name}
			byDB[it.DB] = set
			order = append(order, it.DB)
		}
		set.Cases = append(set.Cases, Case{
			ID:       fmt.Sprintf("dev-%04d", i),
			Question: it.Question,
			SQL:      it.Query,
			File:     name,
		})
	}
	slices.Sort(order)
	for _, db := range order {
		set := byDB[db]
		path := filepath.Join(dir, "database", db, db+".sqlite")
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			sp.Skipped = append(sp.Skipped, SpiderGap{Name: db, Questions: len(set.Cases), Why: "database/" + db + "/" + db + ".sqlite is absent"})
			continue
		case err != nil:
			sp.Skipped = append(sp.Skipped, SpiderGap{Name: db, Questions: len(set.Cases), Why: err.Error()})
			continue
		case st.IsDir():
			sp.Skipped = append(sp.Skipped, SpiderGap{Name: db, Questions: len(set.Cases), Why: path + " is a directory"})
			continue
		}
		sp.DBs = append(sp.DBs, SpiderDB{Name: db, Path: path, Set: set})
	}
	return sp, nil
}

// Database is an open connection to one benchmark database: what learn
// and the system need.
type Database interface {
	Querier
	Catalog(ctx context.Context) (*quarry.Catalog, error)
	Close() error
}

// SpiderOptions tune RunSpider.
type SpiderOptions struct {
	Options
	// Open opens a database file read-only (the SQLite connector). Required.
	Open func(ctx context.Context, path string) (Database, error)
	// WorkDir holds the learned knowledge folders, one per database; empty
	// means a temporary folder removed at the end.
	WorkDir string
	// Now is written into the learned model's header; zero means AsOf.
	Now time.Time
	// Only, when set, limits the run to these databases.
	Only []string
	// Log, when set, receives one line per database.
	Log io.Writer
	// Faults also injects planner mistakes into each database's right
	// answers (RunFaults) and sums them in the report.
	Faults bool
}

// SpiderReport is the outcome of a Spider run.
type SpiderReport struct {
	Spider  *Spider            `json:"spider"`
	Overall Summary            `json:"overall"`
	PerDB   []SpiderDBSummary  `json:"per_db"`
	Results []Result           `json:"-"`
	Elapsed time.Duration      `json:"elapsed_ns"`
	Learn   map[string]float64 `json:"learn_seconds,omitempty"`
	Faults  *FaultReport       `json:"faults,omitempty"`
}

// SpiderDBSummary is one database's summary.
type SpiderDBSummary struct {
	Name    string  `json:"name"`
	Summary Summary `json:"summary"`
}

// RunSpider learns each database's knowledge (learn alone, no edits),
// answers its questions with the builtin system and scores them.
func RunSpider(ctx context.Context, sp *Spider, opts SpiderOptions) (*SpiderReport, error) {
	if opts.Open == nil {
		return nil, quarry.Errorf(quarry.KindInternal, "eval: RunSpider needs an Open function")
	}
	start := time.Now()
	work := opts.WorkDir
	if work == "" {
		dir, err := os.MkdirTemp("", "quarry-spider-")
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInput, err, "cannot create a temporary folder for the learned knowledge")
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	now := opts.Now
	if now.IsZero() {
		now = opts.AsOf
	}
	rep := &SpiderReport{Spider: sp, Learn: map[string]float64{}}
	for _, db := range sp.DBs {
		if len(opts.Only) > 0 && !slices.Contains(opts.Only, db.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return rep, quarry.Wrap(quarry.KindCanceled, err, "the Spider run was interrupted at %s", db.Name)
		}
		rs, fr, learnTime, err := runSpiderDB(ctx, db, filepath.Join(work, db.Name), now, opts)
		if err != nil {
			return rep, err
		}
		if opts.Faults {
			total := fr
			if rep.Faults != nil {
				total = rep.Faults.Add(fr)
			}
			rep.Faults = &total
		}
		rep.Learn[db.Name] = learnTime.Seconds()
		sum := Summarize(rs)
		rep.PerDB = append(rep.PerDB, SpiderDBSummary{Name: db.Name, Summary: sum})
		rep.Results = append(rep.Results, rs...)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "%-28s %s\n", db.Name, sum.Line())
		}
	}
	rep.Overall = Summarize(rep.Results)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func runSpiderDB(ctx context.Context, db SpiderDB, dir string, now time.Time, opts SpiderOptions) ([]Result, FaultReport, time.Duration, error) {
	var fr FaultReport
	conn, err := opts.Open(ctx, db.Path)
	if err != nil {
		return nil, fr, 0, err
	}
	defer conn.Close()
	if err := os.RemoveAll(dir); err != nil {
		return nil, fr, 0, quarry.Wrap(quarry.KindInput, err, "cannot clear %s", dir)
	}
	t0 := time.Now()
	if _, err := knowledge.Learn(ctx, conn, dir, knowledge.LearnOptions{Now: now, DatabaseFile: db.Path}); err != nil {
		return nil, fr, 0, quarry.Wrap(quarry.KindOf(err), err, "learn %s", db.Name)
	}
	f, err := knowledge.Load(dir)
	if err != nil {
		return nil, fr, 0, quarry.Wrap(quarry.KindOf(err), err, "load the learned knowledge of %s", db.Name)
	}
	// The value index, as quarry learn writes it.
	if _, err := valueindex.Build(ctx, conn, f.Model, filepath.Join(dir, filepath.FromSlash(knowledge.ValuesFile)), valueindex.Limits{Now: now}); err != nil {
		return nil, fr, 0, quarry.Wrap(quarry.KindOf(err), err, "build the value index of %s", db.Name)
	}
	learnTime := time.Since(t0)
	sys, err := NewBuiltin(f, conn, BuiltinOptions{MaxRows: opts.MaxRows, Timeout: opts.Timeout})
	if err != nil {
		return nil, fr, 0, err
	}
	defer sys.Close()
	rs, err := Run(ctx, sys, conn, db.Set, opts.Options)
	for i := range rs {
		rs[i].Group = db.Name
	}
	if err == nil && opts.Faults {
		fr, err = RunFaults(ctx, sys.an, sys.k, db.Set, rs, opts.AsOf)
	}
	return rs, fr, learnTime, err
}

// WriteText writes the per-database table and the overall summary.
func (r *SpiderReport) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Spider dev: %d questions in dev.json; %d over %d databases scored", r.Spider.Questions, r.Overall.Total, len(r.PerDB))
	for _, g := range r.Spider.Skipped {
		fmt.Fprintf(&b, "; skipped %s (%d questions: %s)", g.Name, g.Questions, g.Why)
	}
	b.WriteString("\n\n| database | questions | correct | answered | wrong | not answered | errors | accuracy | answered accuracy |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range r.PerDB {
		s := d.Summary
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %.1f%% | %.1f%% |\n", d.Name, s.Total, s.Correct, s.Answered, len(s.Wrong), s.Refusals, len(s.Failed), 100*s.Accuracy, 100*s.AnsweredAccuracy)
	}
	s := r.Overall
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d | %d | %.1f%% | %.1f%% |\n\n", s.Total, s.Correct, s.Answered, len(s.Wrong), s.Refusals, len(s.Failed), 100*s.Accuracy, 100*s.AnsweredAccuracy)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if err := s.WriteText(w, verbose); err != nil || r.Faults == nil {
		return err
	}
	fmt.Fprintln(w)
	return r.Faults.WriteText(w, verbose)
}
