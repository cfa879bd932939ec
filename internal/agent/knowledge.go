package agent

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// maxKnowledgeBytes bounds one knowledge file handed to the model.
const maxKnowledgeBytes = 64 << 10

// knowledgeExts are the kinds of files read_knowledge reads.
var knowledgeExts = map[string]bool{".md": true, ".yaml": true, ".yml": true, ".txt": true}

// modelFile is the knowledge folder's model, which read_knowledge shows
// from the loaded model rather than as written.
const modelFile = "model.yaml"

// readKnowledge reads one file of the knowledge folder for the model. The
// model file is shown as the column policy lets it be: from the loaded
// model, without restricted columns (whose known values learn may have
// written before the column was restricted) and without the relations the
// policy withholds whole (a view over a restricted column, whose values
// would tell what it filters on).
func (a *Agent) readKnowledge(p *policy, name string) (string, error) {
	if a.Knowledge == nil || a.Knowledge.Model == nil {
		return readKnowledge(a.KnowledgeDir, name)
	}
	if strings.EqualFold(strings.TrimSpace(name), modelFile) || a.restricted() && a.sameFile(name, modelFile) {
		if _, err := readKnowledge(a.KnowledgeDir, modelFile); err != nil {
			return "", err
		}
		return a.shownModel(p, "")
	}
	if strings.EqualFold(strings.TrimSpace(name), metricsFile) || a.sameFile(name, metricsFile) {
		if _, err := readKnowledge(a.KnowledgeDir, metricsFile); err != nil {
			return "", err
		}
		return a.shownMetrics(p)
	}
	if file, ok := a.entityFile(name); ok {
		// An entity file is the model too: shown as model.yaml is, for the
		// one entity it holds.
		src, err := readKnowledge(a.KnowledgeDir, file)
		if err != nil {
			return "", err
		}
		return a.shownModel(p, entityNameIn(src))
	}
	if n := strings.TrimSpace(name); n == "" || n == "." || n == "/" {
		list, err := readKnowledge(a.KnowledgeDir, name)
		if err != nil {
			return "", err
		}
		return a.shownList(p, list), nil
	}
	return readKnowledge(a.KnowledgeDir, name)
}

// shownModel writes the model's entities and relationships as JSON (which
// is also YAML), leaving out what the policy keeps from the model; only
// the entity named only and the relationships from it when only is set.
func (a *Agent) shownModel(p *policy, only string) (string, error) {
	m := a.model()
	tables := map[string]bool{}
	for _, t := range a.tables(p) {
		tables[strings.ToLower(t.name)] = true
	}
	shown := func(table string) bool { return tables[strings.ToLower(table)] }
	out := struct {
		Note          string                  `json:"note"`
		Entities      []semantic.Entity       `json:"entities"`
		Relationships []semantic.Relationship `json:"relationships,omitempty"`
	}{Note: "model.yaml as the column policy lets it be shown: restricted columns and withheld tables are left out"}
	for _, e := range m.Entities {
		if !shown(e.TableName()) || only != "" && !strings.EqualFold(e.Name, only) {
			continue
		}
		e.Columns = slices.DeleteFunc(slices.Clone(e.Columns), func(c semantic.Column) bool { return p.column(e.Name, c.Name) || p.column(e.TableName(), c.Name) })
		if a.restricted() {
			// Known values are rows' values, kept from the model under a
			// restricted privacy tier.
			for i := range e.Columns {
				e.Columns[i].Values = nil
			}
		}
		out.Entities = append(out.Entities, e)
	}
	for _, r := range m.Relationships {
		from, to := m.Entity(r.From), m.Entity(r.To)
		if only != "" && !strings.EqualFold(r.From, only) {
			continue
		}
		if from == nil || to == nil || !shown(from.TableName()) || !shown(to.TableName()) ||
			p.column(r.From, r.FromColumn) || p.column(r.To, r.ToColumn) {
			continue
		}
		out.Relationships = append(out.Relationships, r)
	}
	return shownJSON(out, modelFile)
}

// shownJSON is v as the model reads file: indented JSON (which is also
// YAML), cut at maxKnowledgeBytes.
func shownJSON(v any, file string) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", quarry.Wrap(quarry.KindInput, err, "cannot show %s", file)
	}
	text := string(b)
	if len(text) > maxKnowledgeBytes {
		text = text[:maxKnowledgeBytes] + "\n[… cut at 64 KiB]"
	}
	return text, nil
}

// metricsFile is the knowledge folder's metrics and dimensions, which
// read_knowledge shows from the loaded model too.
const metricsFile = "metrics.yaml"

// shownMetrics writes the model's metrics and dimensions as JSON, as the
// policy lets them be shown: none that reads a column the policy keeps
// from the model, and, under a restricted privacy tier, no dimension's
// known values, which learn copied from the rows (found from outside:
// discount codes read from metrics.yaml under schema-only).
func (a *Agent) shownMetrics(p *policy) (string, error) {
	m := a.model()
	hidden := func(exprs ...string) bool {
		for _, x := range exprs {
			for _, ref := range semantic.ColumnRefs(x) {
				if t, c, ok := strings.Cut(ref, "."); ok && p.column(t, c) {
					return true
				}
			}
		}
		return false
	}
	out := struct {
		Note       string               `json:"note"`
		Metrics    []semantic.Metric    `json:"metrics,omitempty"`
		Dimensions []semantic.Dimension `json:"dimensions,omitempty"`
	}{Note: "metrics.yaml as the column policy lets it be shown: what reads a restricted column is left out"}
	if a.restricted() {
		out.Note += ", and so are the dimensions' known values, under this connection's privacy tier"
	}
	for _, mt := range m.Metrics {
		if !hidden(append([]string{mt.Expr}, mt.Filters...)...) {
			out.Metrics = append(out.Metrics, mt)
		}
	}
	for _, d := range m.Dimensions {
		if hidden(d.Expr) {
			continue
		}
		if a.restricted() {
			d.Values = nil
		}
		out.Dimensions = append(out.Dimensions, d)
	}
	return shownJSON(out, metricsFile)
}

// readKnowledge reads one file of the knowledge folder dir, confined to it:
// the name must be relative, clean, free of "..", globs and backslashes,
// and it is opened through an os.Root, which refuses symbolic links that
// lead outside the folder. An empty name or "." lists the files instead.
func readKnowledge(dir, name string) (string, error) {
	if dir == "" {
		return "", quarry.Errorf(quarry.KindNotFound, "this project has no knowledge folder")
	}
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == "/" {
		return listKnowledge(dir)
	}
	if err := checkKnowledgeName(name); err != nil {
		return "", err
	}
	if !knowledgeExts[strings.ToLower(path.Ext(name))] {
		return "", quarry.Errorf(quarry.KindInput, "read_knowledge reads .md, .yaml, .yml and .txt files only, not %q", name)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", quarry.Wrap(quarry.KindNotFound, err, "the knowledge folder cannot be opened")
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", quarry.Errorf(quarry.KindNotFound, "no file %q in the knowledge folder; call read_knowledge with an empty path to list the files", name)
		}
		return "", quarry.Errorf(quarry.KindForbidden, "%q cannot be read from the knowledge folder (it may lead outside it)", name)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", quarry.Errorf(quarry.KindInput, "%q is not a file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKnowledgeBytes+1))
	if err != nil {
		return "", quarry.Wrap(quarry.KindInput, err, "cannot read %q", name)
	}
	text := string(b)
	if len(b) > maxKnowledgeBytes {
		text = string(b[:maxKnowledgeBytes]) + "\n[… cut at 64 KiB]"
	}
	return text, nil
}

// checkKnowledgeName refuses names that could reach outside the folder or
// match more than one file.
func checkKnowledgeName(name string) error {
	switch {
	case strings.ContainsAny(name, "*?[]{}\\\x00"):
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes one file's path, not a pattern: %q", name)
	case path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes a path inside the knowledge folder, not an absolute path: %q", name)
	case !fs.ValidPath(name):
		return quarry.Errorf(quarry.KindForbidden, "read_knowledge takes a clean path inside the knowledge folder (no \"..\", no \"./\", no trailing slash): %q", name)
	}
	return nil
}

// listKnowledge lists the readable files of the folder, one per line.
func listKnowledge(dir string) (string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", quarry.Wrap(quarry.KindNotFound, err, "the knowledge folder cannot be opened")
	}
	defer root.Close()
	var b strings.Builder
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && knowledgeExts[strings.ToLower(path.Ext(p))] {
			b.WriteString(p + "\n")
		}
		return nil
	})
	if err != nil {
		return "", quarry.Wrap(quarry.KindInput, err, "cannot list the knowledge folder")
	}
	if b.Len() == 0 {
		return "(the knowledge folder has no readable files)", nil
	}
	return b.String(), nil
}
