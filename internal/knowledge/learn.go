package knowledge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Source is what Learn needs from a database: its catalog and read-only
// queries for value profiles. A connector.Conn satisfies it.
type Source interface {
	Catalog(ctx context.Context) (*quarry.Catalog, error)
	Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error)
	Dialect() quarry.Dialect
}

// LearnOptions tune Learn.
type LearnOptions struct {
	// Now is the time of the run, written into model.yaml's header.
	Now time.Time
	// Progress receives one line per ProgressEvery tables profiled (for
	// large schemas); nil means silent.
	Progress      io.Writer
	ProgressEvery int // default 25
	// ProgressLines, when set, bounds the lines Progress gets to about
	// that many, the step growing with the schema (a log, not a
	// terminal: ten thousand tables wrote four hundred lines).
	ProgressLines int
	// MaxValues is the most distinct values a text column may have for
	// them to be recorded as its known values; default 50.
	MaxValues int
	// QueryTimeout bounds each profiling query; default 10s.
	QueryTimeout time.Duration
	// DatabaseFile is the database's file (SQLite): learn reads the
	// descriptions next to it (database_description/<table>.csv,
	// <stem>.descriptions.yaml, descriptions.yaml) when they exist.
	DatabaseFile string
	// Descriptions names a descriptions file (YAML or a BIRD-style CSV)
	// or a folder of CSV files, for any database; it wins over the files
	// found next to DatabaseFile.
	Descriptions string
	// Only limits learn to the tables that match one of these globs
	// (path.Match, without regard to case) on "schema.table" or on the
	// table's name alone; the folder's other entities are kept as they
	// are. A pattern that matches no table is an error of kind usage.
	// Empty means every table.
	Only []string
	// Source names the database for LearnProgressFile (a connection's
	// name, driver and file or host; never a secret): an interrupted run's
	// answers are reused only for the same Source. Empty means
	// DatabaseFile; both empty, learn does not resume.
	Source string
	// KeepProgress leaves LearnProgressFile in place when learn finishes,
	// for a caller with more to do (the runtime's value index) to remove
	// with ForgetProgress once it is done.
	KeepProgress bool
}

// LearnReport says what a Learn run changed and what needs a person.
type LearnReport struct {
	TablesAdded        []string      `json:"tables_added"`        // entity names
	ColumnsAdded       []string      `json:"columns_added"`       // "entity.column", for entities that existed before
	RelationshipsAdded []string      `json:"relationships_added"` // "from.column -> to.column"
	ValuesAdded        int           `json:"values_added"`        // known values newly recorded
	ValuesRemoved      []string      `json:"values_removed"`      // "entity.column" whose known values were dropped: the policy withholds the column
	Labels             []LabelChoice `json:"labels"`              // labels learn chose (entities without one)
	Descriptions       []string      `json:"descriptions"`        // descriptions files read
	Drift              []Drift       `json:"drift"`
	Files              []string      `json:"files"`    // files written, relative to the folder
	Warnings           []string      `json:"warnings"` // things learn skipped, e.g. a profile query that failed
	// EntityFiles says learn wrote a new folder in the per-entity layout
	// (entities/, one file per entity) because the schema has more than
	// SplitTables tables.
	EntityFiles bool `json:"entity_files,omitempty"`
	// Matched is how many tables LearnOptions.Only selected; 0 when it
	// was empty (every table).
	Matched int `json:"matched,omitempty"`
	// Resumed is how many tables learn did not read again: an
	// interrupted run had read them (LearnProgressFile).
	Resumed int `json:"resumed,omitempty"`
}

// Drift is knowledge that refers to a table or column the database no
// longer has. Learn keeps it (it never deletes what people wrote) and
// reports it for a person to fix.
type Drift struct {
	File    string `json:"file"` // relative to the folder
	Line    int    `json:"line"`
	What    string `json:"what"` // e.g. "metric revenue"
	Message string `json:"message"`
}

// Learn builds the knowledge folder dir from src's catalog, or refreshes
// it: human edits are kept, new tables, columns, relationships and values
// are added, nothing people wrote is deleted, and knowledge that refers to
// tables or columns that are gone is reported as drift. Files are written
// atomically; metrics.yaml, policy.yaml, examples and notes are never
// rewritten, except for the candidates: section at the end of metrics.yaml.
func Learn(ctx context.Context, src Source, dir string, opts LearnOptions) (*LearnReport, error) {
	if opts.MaxValues <= 0 {
		opts.MaxValues = 50
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 25
	}
	if opts.QueryTimeout <= 0 {
		opts.QueryTimeout = 10 * time.Second
	}
	descs, err := readDescriptions(opts)
	if err != nil {
		return nil, err
	}
	cat, err := src.Catalog(ctx)
	if err != nil {
		var qe *quarry.Error
		if errors.As(err, &qe) {
			return nil, err
		}
		return nil, quarry.Wrap(quarry.KindConnection, err, "cannot read the database catalog; check the connection with `quarry doctor`")
	}
	// A run killed while it put its files in place is finished first.
	if _, err := finishPending(dir); err != nil {
		return nil, err
	}
	old, err := readExisting(dir)
	if err != nil {
		return nil, err
	}
	rep := &LearnReport{}
	lr := infer(cat)
	if len(opts.Only) > 0 {
		n, err := selectOnly(lr, opts.Only, src.Dialect())
		if err != nil {
			return nil, err
		}
		rep.Matched = n
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "learn: %d of %d tables match --only %s\n", n, len(lr.entities), strings.Join(opts.Only, ","))
		}
	}
	for _, t := range lr.skipped {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s has no columns the database can describe (a broken view?); skipped", t))
	}
	restricted := map[string]bool{}
	for _, r := range old.policy {
		restricted[strings.ToLower(r.Column)] = true
	}
	labelled := map[string]bool{}
	for _, e := range old.model.Entities {
		if strings.TrimSpace(e.Label) != "" {
			labelled[strings.ToLower(cmp.Or(e.Table, e.Name))] = true
		}
	}
	rep.Descriptions = descs.files
	rep.Warnings = append(rep.Warnings, descs.apply(lr, restricted)...)
	prog := loadProgress(dir, progressKey(cmp.Or(opts.Source, opts.DatabaseFile), src.Dialect(), opts, old.policy), opts.Now)
	if n := len(prog.data.Tables); n > 0 && opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "learn: resuming: an interrupted run read %d tables; those unchanged are not read again\n", n)
	}
	valueKeys(ctx, src, lr, restricted, opts)
	if err := profile(ctx, src, lr, restricted, labelled, prog, opts, rep); err != nil {
		return nil, err
	}
	rep.Resumed = len(prog.reused)
	merged := merge(old.model, lr, rep)
	lr.candidates = unrestricted(lr.candidates, restricted)
	lr.candidates = notYears(ctx, src, lr, opts)
	lr.candidates = notFlags(lr)
	lr.candidates = keepCandidates(lr, lr.candidates, old.metrics.Candidates)
	if err := ctx.Err(); err != nil {
		prog.save()
		return nil, interrupted(err)
	}

	perEntity := old.perEntity
	if !perEntity && !old.model.hasModel && len(lr.entities) > SplitTables {
		perEntity = true
		rep.EntityFiles = true
	}
	files := newFileSet(dir)
	newModel, err := writeModelFiles(files, merged, opts.Now, perEntity, rep)
	if err != nil {
		return nil, err
	}
	if !perEntity && len(merged.Entities) > SplitTables {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("model.yaml holds %d entities; `quarry knowledge migrate` splits it into one file per entity (entities/), which is easier to review and to merge", len(merged.Entities)))
	}
	metricsSrc, warn := renderMetrics(old.metricsSrc, old.metrics, lr.candidates)
	if warn != "" {
		rep.Warnings = append(rep.Warnings, warn)
	}
	files.add(MetricsFile, metricsSrc, rep)
	if old.policySrc == nil {
		files.add(PolicyFile, renderPolicy(cat, merged), rep)
	}
	if _, err := os.Stat(filepath.Join(dir, ReadmeFile)); errors.Is(err, os.ErrNotExist) {
		files.add(ReadmeFile, []byte(readmeText), rep)
	}
	rep.Drift = findDrift(cat, old, merged, newModel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create knowledge folder %s", dir)
	}
	if err := files.commit(ctx); err != nil {
		if quarry.KindOf(err) == quarry.KindCanceled {
			prog.save()
		}
		return nil, err
	}
	for _, sub := range []string{ExamplesDir, NotesDir} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(sub)), 0o755); err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create %s in %s", sub, dir)
		}
	}
	if opts.KeepProgress {
		prog.save()
	} else {
		ForgetProgress(dir)
	}
	if err := EnsureCache(dir); err != nil {
		return nil, err
	}
	return rep, nil
}

// writeModelFiles renders the model's files (renderLayout) and adds
// those that changed to set, in name order; it returns them decoded
// again, for the lines drift reports.
func writeModelFiles(set *fileSet, merged *modelDoc, now time.Time, perEntity bool, rep *LearnReport) (*modelDoc, error) {
	rendered := renderLayout(merged, now, perEntity)
	names := make([]string, 0, len(rendered))
	var entNames []string
	for name := range rendered {
		names = append(names, name)
		if name != ModelFile {
			entNames = append(entNames, name)
		}
	}
	sort.Strings(names)
	sort.Strings(entNames)
	for _, name := range names {
		set.add(name, rendered[name], rep)
	}
	nm := decodeFolderModel(rendered[ModelFile], entNames, rendered)
	for _, d := range nm.decoders() {
		if len(d.Problems) > 0 {
			return nil, quarry.Errorf(quarry.KindInternal, "learn wrote a %s it cannot read back: %s", d.File, d.Problems[0].Format(set.dir))
		}
	}
	return nm, nil
}

// existing is what a folder held before learn ran.
type existing struct {
	model      *modelDoc
	metrics    *metricsDoc
	metricsSrc []byte // nil when metrics.yaml is absent
	policy     []PolicyRule
	policySrc  []byte
	examples   []VerifiedQuery
	// perEntity says the folder has entities/: learn writes new entities
	// there, one file each.
	perEntity bool
}

func readExisting(dir string) (*existing, error) {
	old := &existing{}
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot read %s", yamlnode.JoinDisplay(dir, name))
		}
		return b, nil
	}
	fail := func(d *decoder) error {
		if len(d.Problems) == 0 {
			return nil
		}
		return &quarry.Error{Kind: quarry.KindConfig,
			Msg: d.Problems[0].Format(dir) + "; fix it before running learn again (learn keeps what people wrote and will not overwrite a file it cannot read)",
			Err: Problems(d.Problems)}
	}
	src, err := read(ModelFile)
	if err != nil {
		return nil, err
	}
	var entNames []string
	entFiles := map[string][]byte{}
	if st, err := os.Stat(filepath.Join(dir, EntitiesDir)); err == nil && st.IsDir() {
		old.perEntity = true
		if entNames, err = entityFileNames(os.DirFS(dir)); err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot list %s", yamlnode.JoinDisplay(dir, EntitiesDir))
		}
		for _, name := range entNames {
			if entFiles[name], err = read(name); err != nil {
				return nil, err
			}
		}
	}
	old.model = decodeFolderModel(src, entNames, entFiles)
	for _, d := range old.model.decoders() {
		if err := fail(d); err != nil {
			return nil, err
		}
	}
	if old.metricsSrc, err = read(MetricsFile); err != nil {
		return nil, err
	}
	old.metrics = decodeMetrics(old.metricsSrc)
	if err := fail(old.metrics.d); err != nil {
		return nil, err
	}
	if old.policySrc, err = read(PolicyFile); err != nil {
		return nil, err
	}
	var pd *decoder
	var pdoc policyDoc
	pdoc, pd = decodePolicy(old.policySrc)
	old.policy = pdoc.rules
	if err := fail(pd); err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		names, err := globSorted(os.DirFS(dir), ExamplesDir, ".yaml", ".yml")
		if err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot list %s", yamlnode.JoinDisplay(dir, ExamplesDir))
		}
		for _, name := range names {
			b, err := read(name)
			if err != nil {
				return nil, err
			}
			qs, _ := decodeExamples(name, b) // drift is best effort over whatever parses
			old.examples = append(old.examples, qs...)
		}
	}
	return old, nil
}

// profile records the known values of low-cardinality text columns.
// It measures the label candidates of every entity whose label no person
// set (labelled: lower-cased tables) and chooses its label.
func profile(ctx context.Context, src Source, lr *learned, restricted, labelled map[string]bool, prog *progress, opts LearnOptions, rep *LearnReport) error {
	total := len(lr.entities)
	if lr.selected != nil {
		total = rep.Matched
	}
	d := src.Dialect()
	withheld, done := 0, 0
	for i := range lr.entities {
		if !lr.in(i) {
			continue
		}
		if err := ctx.Err(); err != nil {
			prog.save()
			return interrupted(err)
		}
		t := lr.tables[i]
		e := &lr.entities[i]
		if t.RowCount != 0 {
			for j := range e.Columns {
				c := &e.Columns[j]
				flag := flagCandidate(*c)
				if !textual(c.Type) && !flag || lr.keyCols[lowerKey(e.Name, c.Name)] {
					continue
				}
				if restricted[strings.ToLower(e.Table+"."+c.Name)] || restricted[strings.ToLower(e.Name+"."+c.Name)] {
					lr.withheld[lowerKey(e.Name, c.Name)] = true
					c.Values = nil
					continue
				}
				vals, err := readValues(ctx, src, d, t, c.Name, prog, opts)
				if err != nil {
					if ctx.Err() != nil {
						prog.save()
						return interrupted(ctx.Err())
					}
					if quarry.KindOf(err) == quarry.KindForbidden {
						// The column policy withholds the column (a view
						// over a restricted one): no values, and none kept.
						lr.withheld[lowerKey(e.Name, c.Name)] = true
						c.Values = nil
						withheld++
						continue
					}
					rep.Warnings = append(rep.Warnings, fmt.Sprintf("values of %s.%s not read: %s", e.Name, c.Name, quarry.Message(err)))
					continue
				}
				if flag && !yesNo(vals) {
					continue // a number named as a flag that holds more than 0 and 1
				}
				for _, v := range vals { // after the values a descriptions file gave
					if !containsStr(c.Values, v) {
						c.Values = append(c.Values, v)
					}
				}
			}
		}
		if !labelled[strings.ToLower(e.Table)] {
			if err := measureLabel(ctx, src, lr, i, restricted, prog, opts, rep); err != nil {
				prog.save()
				return err
			}
		}
		prog.tableDone()
		done++
		every := opts.ProgressEvery
		if opts.ProgressLines > 0 {
			every = max(every, (total+opts.ProgressLines-1)/opts.ProgressLines)
		}
		if opts.Progress != nil && total >= opts.ProgressEvery && (done%every == 0 || done == total) {
			fmt.Fprintf(opts.Progress, "learn: profiled %d/%d tables\n", done, total)
		}
	}
	if withheld > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("values of %d columns not read: the column policy withholds them (views over restricted columns); their known values are not recorded", withheld))
	}
	return nil
}

// flagCandidate reports whether a column that is not text may be a
// yes/no flag whose values learn reads: a boolean, or an integer named as
// a flag (is_active, refunded). Its values are kept only when they are
// yes and no (yesNo), so that the planner reads "active employees" as
// is_active = 1; a quantity holding only 0 and 1 is never read.
func flagCandidate(c semantic.Column) bool {
	return c.Type == quarry.TypeBool || c.Type == quarry.TypeInt && semantic.FlagName(c.Name)
}

// yesNo reports whether values are those of a yes/no column: some of 0
// and 1, or of true and false.
func yesNo(vals []string) bool {
	for _, v := range vals {
		switch strings.ToLower(v) {
		case "0", "1", "true", "false":
		default:
			return false
		}
	}
	return len(vals) > 0
}

// measureLabel samples the label candidates of entity i and chooses its
// label from what they hold.
func measureLabel(ctx context.Context, src Source, lr *learned, i int, restricted map[string]bool, prog *progress, opts LearnOptions, rep *LearnReport) error {
	e, t := &lr.entities[i], lr.tables[i]
	cands := lr.labelCandidates(i, restricted)
	// The table's dates are sampled beside them, to choose the one
	// that dates a row (measuredTimeColumn).
	sampled := cands[:len(cands):len(cands)]
	for _, d := range dateColumns(t, func(c string) bool { return !lr.isRestricted(e, c, restricted) }) {
		if !slices.ContainsFunc(sampled, func(c labelCand) bool { return c.name == d }) {
			sampled = append(sampled, labelCand{name: d, index: -1})
		}
	}
	var stats map[string]labelStats
	if t.RowCount != 0 && len(sampled) > 0 {
		var err error
		stats, err = readLabels(ctx, src, t, sampled, prog, opts)
		if err != nil && quarry.KindOf(err) == quarry.KindForbidden && len(sampled) > len(cands) && len(cands) > 0 && ctx.Err() == nil {
			stats, err = readLabels(ctx, src, t, cands, prog, opts) // a date withheld: the labels alone
		}
		if err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx.Err())
			}
			if quarry.KindOf(err) != quarry.KindForbidden {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("label of %s not measured (chosen by name): %s", e.Name, quarry.Message(err)))
			}
			stats = nil
		}
	}
	e.TimeColumn = measuredTimeColumn(t, e.TimeColumn, stats)
	textDates(e, stats)
	e.Label = ""
	if ch, ok := chooseLabel(e, cands, stats); ok {
		e.Label = ch.Column
		lr.labels[strings.ToLower(e.Name)] = ch
	}
	return nil
}

// distinctValues returns the sorted distinct values of a column when there
// are at most opts.MaxValues of them, all short; otherwise nil.
func distinctValues(ctx context.Context, src Source, d quarry.Dialect, t *quarry.TableInfo, col string, opts LearnOptions) ([]string, error) {
	qc := quoteIdent(d, col)
	sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d", qc, quoteTable(d, t), qc, opts.MaxValues+1)
	rows, err := src.Query(ctx, sql, connector.QueryOptions{MaxRows: int64(opts.MaxValues + 1), Timeout: opts.QueryTimeout})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var vals []string
	read := 0
	for rows.Next() {
		v := rows.Values()
		if len(v) == 0 {
			continue
		}
		if read++; read > opts.MaxValues {
			return nil, rows.Err() // more than that, the empty text too
		}
		s, ok := valueText(v[0])
		if ok && strings.TrimSpace(s) == "" {
			// An empty text is no value of the column (is_null takes it as
			// empty), and says nothing of the others (found from outside:
			// one '' among the letter grades lost all twelve).
			continue
		}
		if !ok || len(s) > 80 || strings.ContainsAny(s, "\n\r") {
			return nil, rows.Err()
		}
		vals = append(vals, s)
		if len(vals) > opts.MaxValues {
			return nil, rows.Err()
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Strings(vals)
	return vals, nil
}

func valueText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// unrestricted drops candidate measures over restricted columns.
func unrestricted(cands []semantic.Metric, restricted map[string]bool) []semantic.Metric {
	var out []semantic.Metric
	for _, c := range cands {
		ok := true
		for _, r := range qualifiedRefs(c.Expr) {
			if restricted[strings.ToLower(r.entity+"."+r.column)] {
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// quoteIdent quotes a name the dialect's way (dialect.Dialect).
func quoteIdent(d quarry.Dialect, s string) string { return registry.Of(d).QuoteIdent(s) }

func quoteTable(d quarry.Dialect, t *quarry.TableInfo) string {
	if defaultSchemas[strings.ToLower(t.Schema)] {
		return quoteIdent(d, t.Name)
	}
	return quoteIdent(d, t.Schema) + "." + quoteIdent(d, t.Name)
}

// writeIfChanged writes name atomically (a temporary file renamed into
// place) unless it already holds exactly b.
func writeIfChanged(dir, name string, b []byte, rep *LearnReport) error {
	path := filepath.Join(dir, filepath.FromSlash(name))
	if cur, err := os.ReadFile(path); err == nil && string(cur) == string(b) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot write %s; check the folder's permissions", yamlnode.JoinDisplay(dir, name))
	}
	_, werr := tmp.Write(b)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return quarry.Wrap(quarry.KindConfig, err, "cannot write %s; check the free disk space", yamlnode.JoinDisplay(dir, name))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return quarry.Wrap(quarry.KindConfig, err, "cannot replace %s; check the folder's permissions", yamlnode.JoinDisplay(dir, name))
	}
	rep.Files = append(rep.Files, name)
	return nil
}

// merge combines what people wrote (old) with what the catalog says (lr):
// every field a person filled wins, empty fields are filled, row counts are
// refreshed, new columns, values and relationships are appended, and
// nothing is removed.
func merge(old *modelDoc, lr *learned, rep *LearnReport) *modelDoc {
	out := &modelDoc{dbTypes: map[colKey]string{}, header: old.header, comments: old.comments,
		ents: append([]place(nil), old.ents...), rels: append([]place(nil), old.rels...), files: old.files, hasModel: old.hasModel}
	for k, v := range old.dbTypes {
		out.dbTypes[k] = v
	}
	out.Entities = append(out.Entities, cloneEntities(old.Entities)...)
	first := len(old.Entities) == 0
	// lower-cased table → index of its first entity
	byTable := make(map[string]int, len(out.Entities))
	for i := range out.Entities {
		if t := tableOf(out.Entities[i]); byTable[t] == 0 {
			byTable[t] = i + 1
		}
	}
	// learned entity name → merged entity name (a person may have renamed it)
	rename := map[string]string{}
	chosen := map[string]bool{} // learned entities merged, lower-cased
	for li, le := range lr.entities {
		idx := byTable[tableOf(le)] - 1
		if !lr.in(li) {
			// Outside --only: kept as it is; its name is known to the
			// relationships of the entities learn refreshes.
			if idx >= 0 {
				rename[strings.ToLower(le.Name)] = out.Entities[idx].Name
			}
			continue
		}
		chosen[strings.ToLower(le.Name)] = true
		if idx < 0 {
			out.Entities = append(out.Entities, le)
			if ch, ok := lr.labels[strings.ToLower(le.Name)]; ok && le.Label != "" {
				rep.Labels = append(rep.Labels, ch)
			}
			for _, c := range le.Columns {
				rep.ValuesAdded += len(c.Values)
				if t, ok := lr.dbTypes[lowerKey(le.Name, c.Name)]; ok {
					out.dbTypes[lowerKey(le.Name, c.Name)] = t
				}
			}
			rename[strings.ToLower(le.Name)] = le.Name
			if t := tableOf(le); byTable[t] == 0 {
				byTable[t] = len(out.Entities)
			}
			if !first {
				rep.TablesAdded = append(rep.TablesAdded, le.Name)
			}
			continue
		}
		oe := &out.Entities[idx]
		rename[strings.ToLower(le.Name)] = oe.Name
		fill(&oe.Description, le.Description)
		fill(&oe.PrimaryKey, le.PrimaryKey)
		fill(&oe.TimeColumn, le.TimeColumn)
		if strings.TrimSpace(oe.Label) == "" && le.Label != "" {
			if ch, ok := lr.labels[strings.ToLower(le.Name)]; ok {
				ch.Entity = oe.Name
				rep.Labels = append(rep.Labels, ch)
			}
		}
		fill(&oe.Label, le.Label)
		fillList(&oe.Synonyms, le.Synonyms)
		oe.RowCount = le.RowCount
		for _, lc := range le.Columns {
			if t, ok := lr.dbTypes[lowerKey(le.Name, lc.Name)]; ok {
				if _, had := out.dbTypes[lowerKey(oe.Name, lc.Name)]; !had {
					out.dbTypes[lowerKey(oe.Name, lc.Name)] = t
				}
			}
			ci := -1
			for j := range oe.Columns {
				if strings.EqualFold(oe.Columns[j].Name, lc.Name) {
					ci = j
					break
				}
			}
			if ci < 0 {
				oe.Columns = append(oe.Columns, lc)
				rep.ColumnsAdded = append(rep.ColumnsAdded, oe.Name+"."+lc.Name)
				rep.ValuesAdded += len(lc.Values)
				continue
			}
			oc := &oe.Columns[ci]
			if oc.Type == "" {
				oc.Type = lc.Type
			}
			if lr.withheld[lowerKey(le.Name, lc.Name)] && len(oc.Values) > 0 {
				// Values recorded before the column was withheld.
				oc.Values = nil
				rep.ValuesRemoved = append(rep.ValuesRemoved, oe.Name+"."+oc.Name)
			}
			fill(&oc.Description, lc.Description)
			fill(&oc.Unit, lc.Unit)
			fill(&oc.TimeRole, lc.TimeRole)
			fillList(&oc.Synonyms, lc.Synonyms)
			for _, v := range lc.Values {
				if !containsStr(oc.Values, v) {
					oc.Values = append(oc.Values, v)
					rep.ValuesAdded++
				}
			}
		}
	}
	out.Relationships = append(out.Relationships, old.Relationships...)
	type relKey struct{ from, column string }
	rels := make(map[relKey]int, len(out.Relationships)) // index + 1 of the first
	for k, o := range out.Relationships {
		if key := (relKey{strings.ToLower(o.From), strings.ToLower(o.FromColumn)}); rels[key] == 0 {
			rels[key] = k + 1
		}
	}
	for _, r := range lr.relationships {
		if lr.selected != nil {
			// From an entity --only left out: its entity is kept as it
			// is. To one the folder does not have: it would not load.
			if _, known := rename[strings.ToLower(r.To)]; !chosen[strings.ToLower(r.From)] || !known {
				continue
			}
		}
		r.From = renamed(rename, r.From)
		r.To = renamed(rename, r.To)
		key := relKey{strings.ToLower(r.From), strings.ToLower(r.FromColumn)}
		if k := rels[key]; k > 0 {
			fillList(&out.Relationships[k-1].Verbs, r.Verbs)
			continue
		}
		out.Relationships = append(out.Relationships, r)
		rels[key] = len(out.Relationships)
		if !first {
			rep.RelationshipsAdded = append(rep.RelationshipsAdded, fmt.Sprintf("%s.%s -> %s.%s", r.From, r.FromColumn, r.To, r.ToColumn))
		}
	}
	lr.names = rename
	return out
}

func renamed(m map[string]string, name string) string {
	if n, ok := m[strings.ToLower(name)]; ok {
		return n
	}
	return name
}

func fill(dst *string, v string) {
	if strings.TrimSpace(*dst) == "" {
		*dst = v
	}
}

func fillList(dst *[]string, v []string) {
	if len(*dst) == 0 && len(v) > 0 {
		*dst = append([]string(nil), v...)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func cloneEntities(es []semantic.Entity) []semantic.Entity {
	out := make([]semantic.Entity, len(es))
	for i, e := range es {
		e.Synonyms = append([]string(nil), e.Synonyms...)
		cols := make([]semantic.Column, len(e.Columns))
		for j, c := range e.Columns {
			c.Synonyms = append([]string(nil), c.Synonyms...)
			c.Values = append([]string(nil), c.Values...)
			cols[j] = c
		}
		e.Columns = cols
		out[i] = e
	}
	return out
}
