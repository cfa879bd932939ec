package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// Imported is a semantic model written for another tool (dbt MetricFlow,
// Cube, Snowflake Cortex Analyst), already in quarry's terms: what Import
// merges into a knowledge folder. Expressions use entity.column.
type Imported struct {
	// Name names the files of examples the import writes
	// (examples/<Name>.yaml, examples/_pending/<Name>.yaml).
	Name          string
	Entities      []semantic.Entity
	DBTypes       map[string]string // "entity.column" → the type as the source declares it
	Relationships []semantic.Relationship
	Metrics       []semantic.Metric
	Dimensions    []semantic.Dimension
	// Verified are queries a person checked (with who and when);
	// Pending are queries that lack either and go to examples/_pending/.
	Verified []VerifiedQuery
	Pending  []VerifiedQuery
	// Skipped is what the source defines and quarry cannot represent.
	Skipped []Skipped
	// Warnings are things imported with a caveat a person should read.
	Warnings []string
}

// Skipped is one thing an import left out, and why.
type Skipped struct {
	What   string `json:"what"` // "metric", "measure", "dimension", "cube", "join", …
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func (s Skipped) String() string { return fmt.Sprintf("%s %s: %s", s.What, s.Name, s.Reason) }

// ImportReport says what an import changed.
type ImportReport struct {
	EntitiesAdded      []string `json:"entities_added"`
	ColumnsAdded       []string `json:"columns_added"` // "entity.column", for entities that existed before
	RelationshipsAdded []string `json:"relationships_added"`
	MetricsAdded       []string `json:"metrics_added"`
	DimensionsAdded    []string `json:"dimensions_added"`
	ExamplesAdded      int      `json:"examples_added"`
	PendingAdded       int      `json:"pending_added"`
	// Kept names metrics and dimensions the folder already defines
	// differently: the folder's definition wins, as with learn.
	Kept     []string  `json:"kept"`
	Skipped  []Skipped `json:"skipped"`
	Warnings []string  `json:"warnings"`
	Files    []string  `json:"files"` // written, relative to the folder
}

// Import merges in into the knowledge folder dir the way learn refreshes
// it: every field people wrote wins, empty fields are filled, new
// entities, columns, relationships, metrics, dimensions and examples are
// added and nothing is removed. metrics.yaml is re-rendered in learn's
// fixed layout (keeping its header, the comments directly above each
// item and the candidates: section). An imported metric or dimension the
// folder's checks reject is skipped with the check's message. Nothing is
// written unless the whole folder validates afterwards; running the same
// import again changes nothing.
func Import(ctx context.Context, dir string, in *Imported) (*ImportReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, quarry.Wrap(quarry.KindCanceled, err, "import was interrupted; nothing was written")
	}
	old, err := readExisting(dir)
	if err != nil {
		return nil, err
	}
	rep := &ImportReport{Skipped: append([]Skipped(nil), in.Skipped...), Warnings: append([]string(nil), in.Warnings...)}
	ents := cloneEntities(in.Entities)
	for i := range ents {
		// another tool names a relation as learn's table: field does
		ents[i].Schema, ents[i].Table = readTable(ents[i].Schema, ents[i].Table)
	}
	lr := &learned{entities: ents, relationships: append([]semantic.Relationship(nil), in.Relationships...),
		dbTypes: map[colKey]string{}, keyCols: map[colKey]bool{}, withheld: map[colKey]bool{}}
	for k, t := range in.DBTypes {
		e, c, _ := strings.Cut(k, ".")
		lr.dbTypes[lowerKey(e, c)] = t
	}
	lrep := &LearnReport{}
	merged := merge(old.model, lr, lrep)
	rep.ColumnsAdded = lrep.ColumnsAdded
	oldNames := map[string]bool{}
	rowCounts := map[string]int64{}
	for _, e := range old.model.Entities {
		oldNames[strings.ToLower(e.Name)] = true
		rowCounts[strings.ToLower(e.Name)] = e.RowCount // the catalog's, not the import's
	}
	for i := range merged.Entities {
		e := &merged.Entities[i]
		if oldNames[strings.ToLower(e.Name)] {
			e.RowCount = rowCounts[strings.ToLower(e.Name)]
		} else {
			rep.EntitiesAdded = append(rep.EntitiesAdded, e.Name)
		}
	}
	for _, r := range merged.Relationships[len(old.model.Relationships):] {
		rep.RelationshipsAdded = append(rep.RelationshipsAdded, fmt.Sprintf("%s.%s -> %s.%s", r.From, r.FromColumn, r.To, r.ToColumn))
	}
	// An imported entity may match a table the folder already names
	// differently; its metrics then use the folder's name.
	rename := map[string]string{}
	for _, ie := range in.Entities {
		for _, me := range merged.Entities {
			if strings.EqualFold(tableOf(me), tableOf(ie)) && !strings.EqualFold(me.Name, ie.Name) {
				rename[strings.ToLower(ie.Name)] = me.Name
			}
		}
	}
	metrics, dims := renameEntities(in.Metrics, in.Dimensions, rename)

	files := renderLayout(merged, time.Time{}, old.perEntity)
	modelNames := make([]string, 0, len(files))
	for name := range files {
		modelNames = append(modelNames, name)
	}
	sort.Strings(modelNames)
	header, comments := fileComments(old.metricsSrc, old.metrics.d, metricPaths(old.metrics))
	exName := importFileName(in.Name)
	exFile, pendFile := ExamplesDir+"/"+exName+".yaml", PendingDir+"/"+exName+".yaml"
	pendOld, err := readPending(dir, pendFile)
	if err != nil {
		return nil, err
	}
	verified, nv := mergeExamples(old.examples, exFile, in.Verified)
	if nv > 0 {
		files[exFile] = renderExamples(verified)
		rep.ExamplesAdded = nv
	}
	pending, np := mergeExamples(pendOld, pendFile, in.Pending)
	if np > 0 {
		files[pendFile] = renderExamples(pending)
		rep.PendingAdded = np
	}
	if old.policySrc == nil {
		files[PolicyFile] = renderPolicy(nil, merged)
	}
	current, err := folderFiles(dir)
	if err != nil {
		return nil, err
	}
	// Render, check, drop what the checks reject, and again, until the
	// imported items all pass.
	for round := 0; ; round++ {
		ms, ds, added, kept := mergeMetrics(old.metrics, metrics, dims)
		files[MetricsFile] = renderMetricsFile(header, comments, old.metrics, ms, ds)
		problems, err := checkWith(current, files)
		if err != nil {
			return nil, quarry.Wrap(quarry.KindInternal, err, "cannot check the imported knowledge")
		}
		var bad []Problem
		dropped := false
		for _, p := range problems {
			what, name := problemItem(p, ms, ds)
			if name == "" || !added[what+" "+strings.ToLower(name)] {
				bad = append(bad, p)
				continue
			}
			if dropItem(&metrics, &dims, what, name) {
				rep.Skipped = append(rep.Skipped, Skipped{What: what, Name: name, Reason: p.Msg})
				dropped = true
			}
		}
		if len(bad) > 0 {
			msg := bad[0].Format(dir)
			if len(bad) > 1 {
				msg += fmt.Sprintf(" (and %d more problems)", len(bad)-1)
			}
			return nil, &quarry.Error{Kind: quarry.KindConfig, Err: Problems(bad),
				Msg: msg + "; the import would leave the knowledge folder invalid, so nothing was written (fix the folder or the imported file and run the import again)"}
		}
		if dropped && round < len(in.Metrics)+len(in.Dimensions)+1 {
			continue
		}
		for _, m := range ms {
			if added["metric "+strings.ToLower(m.Name)] {
				rep.MetricsAdded = append(rep.MetricsAdded, m.Name)
			}
		}
		for _, d := range ds {
			if added["dimension "+strings.ToLower(d.Name)] {
				rep.DimensionsAdded = append(rep.DimensionsAdded, d.Name)
			}
		}
		rep.Kept = kept
		break
	}

	if err := ctx.Err(); err != nil {
		return nil, quarry.Wrap(quarry.KindCanceled, err, "import was interrupted; nothing was written")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create knowledge folder %s", dir)
	}
	for _, sub := range []string{ExamplesDir, NotesDir} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(sub)), 0o755); err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create %s in %s", sub, dir)
		}
	}
	if _, ok := files[pendFile]; ok {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(PendingDir)), 0o755); err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create %s in %s", PendingDir, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ReadmeFile)); errors.Is(err, os.ErrNotExist) {
		files[ReadmeFile] = []byte(readmeText)
	}
	wrep := &LearnReport{}
	if old.perEntity {
		if err := os.MkdirAll(filepath.Join(dir, EntitiesDir), 0o755); err != nil {
			return nil, quarry.Wrap(quarry.KindConfig, err, "cannot create %s in %s", EntitiesDir, dir)
		}
	}
	for _, name := range append(modelNames, MetricsFile, PolicyFile, exFile, pendFile, ReadmeFile) {
		if b, ok := files[name]; ok {
			if err := writeIfChanged(dir, name, b, wrep); err != nil {
				return nil, err
			}
		}
	}
	rep.Files = wrep.Files
	return rep, nil
}

// tableOf is the key of e's relation: its (schema, table) pair.
func tableOf(e semantic.Entity) string { return entityKey(&e) }

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// importFileName turns a model's name into a file name.
func importFileName(name string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(name), "-"), "-.")
	if s == "" {
		return "imported"
	}
	return s
}

// renameEntities rewrites entity names in metrics and dimensions.
func renameEntities(ms []semantic.Metric, ds []semantic.Dimension, rename map[string]string) ([]semantic.Metric, []semantic.Dimension) {
	outM := make([]semantic.Metric, len(ms))
	for i, m := range ms {
		m.Entity = renamed(rename, m.Entity)
		m.Expr = renameRefs(m.Expr, rename)
		m.Time = renameRefs(m.Time, rename)
		m.Filters = append([]string(nil), m.Filters...)
		for j := range m.Filters {
			m.Filters[j] = renameRefs(m.Filters[j], rename)
		}
		outM[i] = m
	}
	outD := make([]semantic.Dimension, len(ds))
	for i, d := range ds {
		d.Entity = renamed(rename, d.Entity)
		d.Expr = renameRefs(d.Expr, rename)
		outD[i] = d
	}
	return outM, outD
}

// renameRefs rewrites the entity part of entity.column references outside
// string literals.
func renameRefs(expr string, rename map[string]string) string {
	if len(rename) == 0 || expr == "" {
		return expr
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'':
			j := skipQuoted(expr, i, '\'')
			b.WriteString(expr[i:j])
			i = j
		case isIdentStart(c) && (i == 0 || !isIdentByte(expr[i-1]) && expr[i-1] != '.'):
			j := i
			for j < len(expr) && isIdentByte(expr[j]) {
				j++
			}
			word := expr[i:j]
			if n, ok := rename[strings.ToLower(word)]; ok && j < len(expr) && expr[j] == '.' {
				word = n
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// mergeMetrics adds the imported metrics and dimensions that the folder
// does not define yet (by name). One it defines keeps the folder's
// definition, with empty descriptive fields filled; it is listed in kept
// when the definitions differ. added holds "metric name" and "dimension
// name" (lower case) for the new ones.
func mergeMetrics(old *metricsDoc, ms []semantic.Metric, ds []semantic.Dimension) ([]semantic.Metric, []semantic.Dimension, map[string]bool, []string) {
	added := map[string]bool{}
	var kept []string
	outM := append([]semantic.Metric(nil), old.Metrics...)
	for _, m := range ms {
		i := indexMetric(outM, m.Name)
		if i < 0 {
			outM = append(outM, m)
			added["metric "+strings.ToLower(m.Name)] = true
			continue
		}
		o := &outM[i]
		if normExpr(o.Expr) != normExpr(m.Expr) || normExpr(o.Derived) != normExpr(m.Derived) || !strings.EqualFold(o.Entity, m.Entity) ||
			normExpr(strings.Join(o.Filters, " and ")) != normExpr(strings.Join(m.Filters, " and ")) || normExpr(o.Time) != normExpr(m.Time) {
			kept = append(kept, "metric "+o.Name)
		}
		fill(&o.Description, m.Description)
		fillList(&o.Synonyms, m.Synonyms)
		fill(&o.Format, m.Format)
		fill(&o.Unit, m.Unit)
	}
	outD := append([]semantic.Dimension(nil), old.Dimensions...)
	for _, d := range ds {
		i := -1
		for j := range outD {
			if strings.EqualFold(outD[j].Name, d.Name) {
				i = j
				break
			}
		}
		if i < 0 {
			outD = append(outD, d)
			added["dimension "+strings.ToLower(d.Name)] = true
			continue
		}
		o := &outD[i]
		if normExpr(o.Expr) != normExpr(d.Expr) || !strings.EqualFold(o.Entity, d.Entity) {
			kept = append(kept, "dimension "+o.Name)
		}
		fill(&o.Description, d.Description)
		fillList(&o.Synonyms, d.Synonyms)
		fillList(&o.Values, d.Values)
	}
	return outM, outD, added, kept
}

func indexMetric(ms []semantic.Metric, name string) int {
	for i := range ms {
		if strings.EqualFold(ms[i].Name, name) {
			return i
		}
	}
	return -1
}

func metricPaths(d *metricsDoc) []string {
	var paths []string
	for i := range d.Metrics {
		paths = append(paths, fmt.Sprintf("metrics[%d]", i))
	}
	for i := range d.Dimensions {
		paths = append(paths, fmt.Sprintf("dimensions[%d]", i))
	}
	return paths
}

// problemItem names the metric or dimension a problem of metrics.yaml is
// about ("metric", "revenue"), or returns an empty name.
func problemItem(p Problem, ms []semantic.Metric, ds []semantic.Dimension) (string, string) {
	if p.File != MetricsFile {
		return "", ""
	}
	head, _, _ := strings.Cut(p.Path, "]")
	kind, idx, ok := strings.Cut(head, "[")
	if !ok {
		return "", ""
	}
	n, err := strconv.Atoi(idx)
	if err != nil {
		return "", ""
	}
	switch {
	case kind == "metrics" && n < len(ms):
		return "metric", ms[n].Name
	case kind == "dimensions" && n < len(ds):
		return "dimension", ds[n].Name
	}
	return "", ""
}

func dropItem(ms *[]semantic.Metric, ds *[]semantic.Dimension, what, name string) bool {
	if what == "metric" {
		if i := indexMetric(*ms, name); i >= 0 {
			*ms = append((*ms)[:i:i], (*ms)[i+1:]...)
			return true
		}
		return false
	}
	for i := range *ds {
		if strings.EqualFold((*ds)[i].Name, name) {
			*ds = append((*ds)[:i:i], (*ds)[i+1:]...)
			return true
		}
	}
	return false
}

// mergeExamples returns the examples of file followed by the imported ones
// whose question no example of the folder asks yet, and how many those are.
func mergeExamples(existing []VerifiedQuery, file string, in []VerifiedQuery) ([]VerifiedQuery, int) {
	asked := map[string]bool{}
	var out []VerifiedQuery
	for _, q := range existing {
		asked[normExpr(q.Question)] = true
		if q.File == file {
			out = append(out, q)
		}
	}
	n := 0
	for _, q := range in {
		if asked[normExpr(q.Question)] {
			continue
		}
		asked[normExpr(q.Question)] = true
		out = append(out, q)
		n++
	}
	return out, n
}

func readPending(dir, name string) ([]VerifiedQuery, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot read %s", yamlnode.JoinDisplay(dir, name))
	}
	qs, d := decodeExamples(name, b)
	if len(d.Problems) > 0 {
		return nil, &quarry.Error{Kind: quarry.KindConfig, Err: Problems(d.Problems),
			Msg: d.Problems[0].Format(dir) + "; fix it before importing again (import will not overwrite a file it cannot read)"}
	}
	return qs, nil
}

// folderFiles reads the files of dir that Check reads.
func folderFiles(dir string) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	fsys := os.DirFS(dir)
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipAll
			}
			return err
		}
		if e.IsDir() || strings.HasPrefix(path.Base(p), ".") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		return nil, quarry.Wrap(quarry.KindConfig, err, "cannot read knowledge folder %s", dir)
	}
	return out, nil
}

// checkWith checks the folder as it would be with files written over it.
func checkWith(current fstest.MapFS, files map[string][]byte) ([]Problem, error) {
	fsys := fstest.MapFS{}
	for k, v := range current {
		fsys[k] = v
	}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: v}
	}
	_, problems, err := Check(fsys)
	return problems, err
}
