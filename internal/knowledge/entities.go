package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// The per-entity layout: entities/<file>.yaml, one entity per file, with
// the relationships that start from it (docs/knowledge.md).
const (
	EntitiesDir = "entities"
	// SplitTables is the number of tables above which learn writes a new
	// folder in the per-entity layout.
	SplitTables = 100
)

// place is where an entity or a relationship is written: its file, that
// file's decoder, and its path in the file ("entities[3]" in model.yaml,
// "" for the entity of an entity file, "relationships[0]").
type place struct {
	file string
	d    *decoder
	path string
}

// at is the path of key under the place.
func (p place) at(key string) string {
	if key == "" {
		return p.path
	}
	return yamlnode.JoinPath(p.path, key)
}

// line is the line of key under the place (the place itself for "").
func (p place) line(key string) int {
	if p.d == nil {
		return 0
	}
	if path := p.at(key); path != "" {
		return p.d.LineOf(path)
	}
	return p.d.Lines[""] // the entity of an entity file: the file's mapping
}

// where is "file:line" of key under the place, for messages that point
// at a second place.
func (p place) where(key string) string {
	if l := p.line(key); l > 0 {
		return fmt.Sprintf("%s:%d", p.file, l)
	}
	return p.file
}

// entityFile is one file of entities/ as read: its decoder, its leading
// comment block and the comment lines above its columns and
// relationships ("columns[2]", "relationships[0]"), which learn keeps.
type entityFile struct {
	name     string // relative to the folder: "entities/customers.yaml"
	d        *decoder
	header   []string
	comments map[string][]string
}

// decodeFolderModel decodes model.yaml (src, nil when absent) and the
// entity files names (read from files) into one model: model.yaml's
// entities and relationships first, then each file's, in name order.
func decodeFolderModel(src []byte, names []string, files map[string][]byte) *modelDoc {
	m := decodeModel(src)
	m.hasModel = src != nil
	for _, name := range names {
		m.addEntityFile(name, files[name])
	}
	return m
}

// addEntityFile decodes one file of entities/: a mapping with the fields
// of an entity of model.yaml, and relationships: whose from is the
// entity (implied when left out).
func (m *modelDoc) addEntityFile(name string, src []byte) {
	d := newDecoder(name)
	ef := &entityFile{name: name, d: d}
	m.files = append(m.files, ef)
	root := d.Parse(src)
	if root == nil {
		if !d.Broken {
			d.Errf(0, "", "holds no entity; write one (name:, table:, columns:, …) or delete the file")
		}
		return
	}
	var e semantic.Entity
	var rels []semantic.Relationship
	dbTypes := map[string]string{}
	fields := entityFields(d, &e, dbTypes)
	fields = append(fields, field{"relationships", func(v ast.Node, p string) {
		d.Seq(v, p, "relationships", func(_ int, v ast.Node, p string) {
			rels = append(rels, decodeRelationship(d, v, p))
		})
	}})
	if !d.Mapping(root, "", "an entity (name:, table:, columns:, …)", fields) {
		return
	}
	e.Schema, e.Table = readTable(e.Schema, e.Table)
	for c, t := range dbTypes {
		m.dbTypes[lowerKey(e.Name, c)] = t
	}
	m.Entities = append(m.Entities, e)
	m.ents = append(m.ents, place{file: name, d: d})
	paths := make([]string, 0, len(e.Columns)+len(rels))
	for j := range e.Columns {
		paths = append(paths, fmt.Sprintf("columns[%d]", j))
	}
	for k := range rels {
		p := fmt.Sprintf("relationships[%d]", k)
		paths = append(paths, p)
		r := &rels[k]
		switch {
		case r.From == "":
			r.From = e.Name
		case !strings.EqualFold(r.From, e.Name):
			d.Errf(d.LineOf(p+".from"), p+".from", "this file holds entity %q, but the relationship starts from %q; a relationship lives in the file of its from entity: move it there (or to model.yaml)", e.Name, r.From)
		}
		m.Relationships = append(m.Relationships, *r)
		m.rels = append(m.rels, place{file: name, d: d, path: p})
	}
	ef.header, ef.comments = fileComments(src, d, paths)
}

// decodeRelationship decodes one item of a relationships: list.
func decodeRelationship(d *decoder, v ast.Node, p string) semantic.Relationship {
	var r semantic.Relationship
	d.Mapping(v, p, "a relationship", []field{
		{"name", func(v ast.Node, p string) { r.Name = d.Str(v, p) }},
		{"from", func(v ast.Node, p string) { r.From = d.Str(v, p) }},
		{"from_column", func(v ast.Node, p string) { r.FromColumn = d.Str(v, p) }},
		{"to", func(v ast.Node, p string) { r.To = d.Str(v, p) }},
		{"to_column", func(v ast.Node, p string) { r.ToColumn = d.Str(v, p) }},
		{"cardinality", func(v ast.Node, p string) { r.Cardinality = semantic.Cardinality(d.Str(v, p)) }},
		{"verbs", func(v ast.Node, p string) { r.Verbs = d.Strs(v, p) }},
	})
	return r
}

// decoders are every decoder of the model's files: model.yaml's, then
// each entity file's.
func (m *modelDoc) decoders() []*decoder {
	out := []*decoder{m.d}
	for _, f := range m.files {
		out = append(out, f.d)
	}
	return out
}

// broken reports whether a file of the model could not be parsed.
func (m *modelDoc) broken() bool {
	for _, d := range m.decoders() {
		if d.Broken {
			return true
		}
	}
	return false
}

// entityFileName is the file, in entities/, for an entity named name:
// the name in lower case when it is made only of a-z 0-9 _ . - (so
// "sales.orders" stays readable) and is safe on every system; otherwise
// those characters of it, with the first 8 hex digits of the SHA-256 of
// the name appended, so that two names written alike never share a file
// whatever order they come in.
func entityFileName(name string) string {
	low := strings.ToLower(strings.TrimSpace(name))
	var b strings.Builder
	for _, r := range low {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > 80 {
		s = s[:80]
	}
	if s == low && s != "" && safeBase(s) {
		return s + ".yaml"
	}
	sum := sha256.Sum256([]byte(name))
	s = strings.Trim(s, ".")
	if s == "" {
		s = "entity"
	}
	return s + "-" + hex.EncodeToString(sum[:4]) + ".yaml"
}

// safeBase reports whether s (already limited to a-z 0-9 _ . -) names a
// file the same way everywhere: no leading or trailing dot (hidden, or
// dropped by Windows) and no name Windows reserves for a device.
func safeBase(s string) bool {
	if strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.HasPrefix(s, "-") {
		return false
	}
	stem, _, _ := strings.Cut(s, ".")
	switch stem {
	case "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
		"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9":
		return false
	}
	return true
}

// newEntityFile returns entities/<entityFileName(name)>, or the same with
// -2, -3, … before .yaml when taken (lower-case names) already holds it.
// It adds the name to taken.
func newEntityFile(name string, taken map[string]bool) string {
	base := entityFileName(name)
	f := base
	for n := 2; taken[strings.ToLower(f)]; n++ {
		f = fmt.Sprintf("%s-%d.yaml", strings.TrimSuffix(base, ".yaml"), n)
	}
	taken[strings.ToLower(f)] = true
	return EntitiesDir + "/" + f
}

// renderLayout renders the model's files: model.yaml with the entities
// and relationships placed there, and one file per entity placed in
// entities/. Entities and relationships without a place (new ones) go
// to a new entity file when perEntity is set, to model.yaml otherwise; a
// new relationship goes to the file of its from entity. model.yaml is
// left out when it did not exist and nothing is placed there.
func renderLayout(m *modelDoc, now time.Time, perEntity bool) map[string][]byte {
	taken := map[string]bool{}
	for _, f := range m.files {
		taken[strings.ToLower(path.Base(f.name))] = true
	}
	for len(m.ents) < len(m.Entities) {
		m.ents = append(m.ents, place{})
	}
	for len(m.rels) < len(m.Relationships) {
		m.rels = append(m.rels, place{})
	}
	byName := map[string]string{}
	for i := range m.Entities {
		p := &m.ents[i]
		if p.file == "" {
			p.file = ModelFile
			if perEntity {
				p.file = newEntityFile(m.Entities[i].Name, taken)
			}
		}
		byName[strings.ToLower(m.Entities[i].Name)] = p.file
	}
	for i := range m.Relationships {
		if p := &m.rels[i]; p.file == "" {
			p.file = ModelFile
			if f := byName[strings.ToLower(m.Relationships[i].From)]; f != "" {
				p.file = f
			}
		}
	}
	out := map[string][]byte{}
	part := &modelDoc{dbTypes: m.dbTypes, header: m.header, comments: m.comments}
	for i, e := range m.Entities {
		if m.ents[i].file == ModelFile {
			part.Entities = append(part.Entities, e)
		}
	}
	for i, r := range m.Relationships {
		if m.rels[i].file == ModelFile {
			part.Relationships = append(part.Relationships, r)
		}
	}
	if m.hasModel || len(part.Entities) > 0 || len(part.Relationships) > 0 || !perEntity {
		out[ModelFile] = renderModel(part, now)
	}
	files := map[string]*entityFile{}
	for _, f := range m.files {
		files[f.name] = f
	}
	for i, e := range m.Entities {
		name := m.ents[i].file
		if name == ModelFile {
			continue
		}
		var rels []semantic.Relationship
		for k, r := range m.Relationships {
			if m.rels[k].file == name {
				rels = append(rels, r)
			}
		}
		ef := files[name]
		if ef == nil {
			ef = &entityFile{name: name}
		}
		out[name] = renderEntityFile(e, rels, m.dbTypes, ef)
	}
	return out
}

// renderEntityFile renders one file of entities/ in learn's fixed layout,
// with the file's leading comments and those above its columns and
// relationships.
func renderEntityFile(e semantic.Entity, rels []semantic.Relationship, dbTypes map[colKey]string, ef *entityFile) []byte {
	var w yamlWriter
	for _, h := range ef.header {
		w.line(0, "%s", h)
	}
	comments := func(indent int, path string) {
		for _, c := range ef.comments[path] {
			w.line(indent, "%s", c)
		}
	}
	w.entity(e, dbTypes, 0, comments, func(j int) string { return fmt.Sprintf("columns[%d]", j) })
	if len(rels) > 0 {
		w.WriteString("\nrelationships:\n")
		for k, r := range rels {
			comments(2, fmt.Sprintf("relationships[%d]", k))
			w.relationship(r, false)
		}
	}
	return w.Bytes()
}

// HasModel reports whether the folder dir holds a model: model.yaml, or
// an entity file in entities/. Before the first learn it holds neither.
func HasModel(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ModelFile)); err == nil {
		return true
	}
	// The first entity file will do: entities/ may hold ten thousand.
	d, err := os.Open(filepath.Join(dir, EntitiesDir))
	if err != nil {
		return false
	}
	defer d.Close()
	for {
		batch, err := d.ReadDir(256)
		for _, e := range batch {
			if isEntityFile(e) {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
}

// isEntityFile reports whether an entry of entities/ is an entity file
// (entityFiles): a plain *.yaml or *.yml file, not hidden.
func isEntityFile(e fs.DirEntry) bool {
	ext := path.Ext(e.Name())
	return !strings.HasPrefix(e.Name(), ".") && e.Type()&fs.ModeSymlink == 0 && !e.IsDir() &&
		(strings.EqualFold(ext, ".yaml") || strings.EqualFold(ext, ".yml"))
}

// entityFileNames lists the entity files of a folder: entities/*.yaml
// and *.yml, sorted, leaving out hidden files (an editor's or a
// system's, and learn's own temporary files), symbolic links and
// folders (entityFiles).
func entityFileNames(fsys fs.FS) ([]string, error) {
	names, _, err := entityFiles(fsys)
	return names, err
}

// entityFiles lists the entity files of a folder (entityFileNames) and
// what in entities/ cannot be read as one: a folder inside it, whose
// entities would silently be missing, and a symbolic link, which could
// lead anywhere (and whose target would be quoted in messages). Hidden
// entries are left out.
func entityFiles(fsys fs.FS) ([]string, []Problem, error) {
	entries, err := fs.ReadDir(fsys, EntitiesDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var problems []Problem
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name := EntitiesDir + "/" + e.Name()
		yaml := strings.EqualFold(path.Ext(name), ".yaml") || strings.EqualFold(path.Ext(name), ".yml")
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			if yaml {
				problems = append(problems, Problem{File: name, Msg: "is a symbolic link, and entities/ holds only plain files; replace the link with the file it points to"})
			}
		case e.IsDir():
			problems = append(problems, Problem{File: name, Msg: "is a folder, and entities/ is not read below its top level; move its files up into entities/ (one entity per file)"})
		case yaml:
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, problems, nil
}
