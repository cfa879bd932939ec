package knowledge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/yamlnode"
)

// MigrateReport says what Migrate did.
type MigrateReport struct {
	// Done is set when there was nothing to move: model.yaml is absent or
	// holds no entities.
	Done bool `json:"already_done"`
	// Entities and Relationships count what moved to entities/.
	Entities      int `json:"entities"`
	Relationships int `json:"relationships"`
	// Kept counts the relationships left in model.yaml: those whose from
	// entity already had its own file.
	Kept int `json:"relationships_kept"`
	// Files are the entity files written, relative to the folder.
	Files []string `json:"files"`
	// ModelRemoved says model.yaml held nothing else and was removed.
	ModelRemoved bool `json:"model_removed"`
}

// Migrate splits the entities of model.yaml in the folder dir into one
// file each in entities/, with the relationships that start from them,
// keeping their text and comments as written. model.yaml keeps what
// remains, or is removed when nothing does. The folder must load before
// and loads to the same model after (checked before anything is
// written); the new files are written into a temporary folder inside dir
// and renamed into place, and model.yaml is replaced last, so that on
// any error the folder is left as it was. A folder without entities in
// model.yaml is left alone (Done).
func Migrate(dir string) (*MigrateReport, error) { return migrate(dir, os.Rename) }

// migrate is Migrate with the rename it uses (tests make it fail).
func migrate(dir string, rename func(from, to string) error) (*MigrateReport, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &quarry.Error{Kind: quarry.KindConfig, Err: err,
			Msg: fmt.Sprintf("knowledge folder %s not found; run `quarry learn` to build it from your database", dir)}
	}
	l := &loaded{files: map[string][]byte{}}
	if err := l.read(os.DirFS(dir)); err != nil {
		return nil, readError(dir, err)
	}
	before, problems := l.build()
	if len(problems) > 0 {
		return nil, &quarry.Error{Kind: quarry.KindConfig, Err: Problems(problems),
			Msg: problems[0].Format(dir) + "; migrate changes nothing until the folder loads (see `quarry doctor`)"}
	}
	rep := &MigrateReport{}
	var moved []int // model.yaml entities, by index in the model
	for i, p := range l.model.ents {
		if p.file == ModelFile {
			moved = append(moved, i)
		}
	}
	if len(moved) == 0 {
		rep.Done = true
		return rep, nil
	}
	plan, err := planMigration(dir, l.model, l.files[ModelFile], moved, rep)
	if err != nil {
		return nil, err
	}
	// The folder as it will be must load to the same model.
	fsys := fstest.MapFS{}
	for name, b := range l.files {
		if name != ModelFile {
			fsys[name] = &fstest.MapFile{Data: b}
		}
	}
	for name, b := range plan.files {
		fsys[name] = &fstest.MapFile{Data: b}
	}
	if plan.model != nil {
		fsys[ModelFile] = &fstest.MapFile{Data: plan.model}
	}
	after, problems, err := Check(fsys)
	if err != nil || len(problems) > 0 || !sameModel(before.Model, after.Model) {
		msg := "the split folder would not load to the same model"
		if len(problems) > 0 {
			msg = problems[0].Format(dir)
		}
		return nil, quarry.Errorf(quarry.KindInternal, "migrate stopped before writing anything: %s (please report it); the folder is unchanged", msg)
	}
	if err := plan.write(dir, rename); err != nil {
		return nil, err
	}
	rep.ModelRemoved = plan.model == nil
	return rep, nil
}

// migration is what Migrate writes: the entity files (relative to the
// folder) and model.yaml's new text (nil: remove it).
type migration struct {
	files map[string][]byte
	model []byte
}

// planMigration cuts the text of each entity of model.yaml (moved, by
// index in m) and of the relationships that start from it out of src.
func planMigration(dir string, m *modelDoc, src []byte, moved []int, rep *MigrateReport) (*migration, error) {
	lines := strings.Split(string(src), "\n")
	md := m.d
	// Every item of model.yaml's two lists, and every top-level key, cuts
	// the file: an item runs from the comments above it to the next cut.
	type item struct{ start, first int } // 0-based: its comments, its first key
	var cuts []int
	above := func(first int) int {
		s := first
		for s > 0 && strings.HasPrefix(strings.TrimSpace(lines[s-1]), "#") {
			s--
		}
		return s
	}
	itemOf := func(p place) item {
		first := md.LineOf(p.path) - 1
		return item{above(first), first}
	}
	var keys []int
	for i, l := range lines {
		if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '-' {
			keys = append(keys, i)
			cuts = append(cuts, above(i))
		}
	}
	for i, p := range m.ents {
		if p.file == ModelFile {
			cuts = append(cuts, itemOf(m.ents[i]).start)
		}
	}
	for i, p := range m.rels {
		if p.file == ModelFile {
			cuts = append(cuts, itemOf(m.rels[i]).start)
		}
	}
	cuts = append(cuts, len(lines))
	sort.Ints(cuts)
	end := func(it item) int {
		i := sort.SearchInts(cuts, it.first+1)
		return cuts[i]
	}
	notBlock := func(p place) error {
		return quarry.Errorf(quarry.KindConfig, "%s: migrate moves each entity's text as written and cannot cut this one out (write the list in block style, one \"- \" item per entry); the folder is unchanged",
			yamlnode.JoinDisplay(dir, fmt.Sprintf("%s:%d", ModelFile, md.LineOf(p.path))))
	}
	// text returns an item's lines without the "- " and the indentation
	// of its keys, its comments at the start of the line.
	text := func(p place) ([]string, [2]int, error) {
		it := itemOf(p)
		e := end(it)
		if it.first < 0 || it.first >= len(lines) {
			return nil, [2]int{}, notBlock(p)
		}
		dash := lines[it.first]
		ind := len(dash) - len(strings.TrimLeft(dash, " "))
		if !strings.HasPrefix(dash[ind:], "- ") {
			return nil, [2]int{}, notBlock(p)
		}
		col := ind + 2 + len(dash[ind+2:]) - len(strings.TrimLeft(dash[ind+2:], " "))
		if strings.HasPrefix(dash[col:], "{") {
			return nil, [2]int{}, notBlock(p)
		}
		var out []string
		for i := it.start; i < e; i++ {
			l := strings.TrimRight(lines[i], " \t\r")
			switch {
			case i == it.first:
				out = append(out, l[col:])
			case strings.TrimSpace(l) == "":
				out = append(out, "")
			case strings.HasPrefix(strings.TrimSpace(l), "#") && i < it.first:
				out = append(out, strings.TrimSpace(l))
			case len(l)-len(strings.TrimLeft(l, " ")) >= col:
				out = append(out, l[col:])
			case strings.HasPrefix(strings.TrimSpace(l), "#"):
				out = append(out, strings.TrimSpace(l))
			default:
				return nil, [2]int{}, notBlock(p)
			}
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		return out, [2]int{it.start, e}, nil
	}
	taken := map[string]bool{}
	if entries, err := os.ReadDir(filepath.Join(dir, EntitiesDir)); err == nil {
		for _, e := range entries {
			taken[strings.ToLower(e.Name())] = true
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, readError(dir, err)
	}
	drop := make([]bool, len(lines))
	cut := func(r [2]int) {
		for i := r[0]; i < r[1]; i++ {
			drop[i] = true
		}
	}
	// relationships of model.yaml by their lower-cased from entity
	relsOf := map[string][]int{}
	for k, p := range m.rels {
		if p.file == ModelFile {
			from := strings.ToLower(m.Relationships[k].From)
			relsOf[from] = append(relsOf[from], k)
		}
	}
	plan := &migration{files: map[string][]byte{}}
	movedRels := 0
	for _, i := range moved {
		e := m.Entities[i]
		body, r, err := text(m.ents[i])
		if err != nil {
			return nil, err
		}
		cut(r)
		var b strings.Builder
		for _, l := range body {
			b.WriteString(l + "\n")
		}
		rels := relsOf[strings.ToLower(e.Name)]
		delete(relsOf, strings.ToLower(e.Name))
		if len(rels) > 0 {
			b.WriteString("\nrelationships:\n")
		}
		for _, k := range rels {
			rt, r, err := text(m.rels[k])
			if err != nil {
				return nil, err
			}
			cut(r)
			movedRels++
			first := true
			for _, l := range rt {
				switch {
				case strings.HasPrefix(l, "from:"):
					continue // implied by the file
				case l == "":
					b.WriteString("\n")
				case strings.HasPrefix(l, "#") && first:
					b.WriteString("  " + l + "\n")
				case first:
					b.WriteString("  - " + l + "\n")
					first = false
				default:
					b.WriteString("    " + l + "\n")
				}
			}
			if first {
				b.WriteString("  - {}\n")
			}
		}
		name := newEntityFile(e.Name, taken)
		plan.files[name] = []byte(b.String())
		rep.Files = append(rep.Files, name)
	}
	for _, ks := range relsOf {
		rep.Kept += len(ks)
	}
	rep.Entities, rep.Relationships = len(moved), movedRels
	sort.Strings(rep.Files)
	// What remains of model.yaml: a list left empty loses its key too.
	remaining := map[string]int{}
	for _, p := range m.ents {
		if p.file == ModelFile && !drop[itemOf(p).first] {
			remaining["entities"]++
		}
	}
	for _, p := range m.rels {
		if p.file == ModelFile && !drop[itemOf(p).first] {
			remaining["relationships"]++
		}
	}
	for _, k := range keys {
		key, _, _ := strings.Cut(lines[k], ":")
		if (key == "entities" || key == "relationships") && remaining[key] == 0 {
			drop[k] = true
		}
	}
	var out []string
	content := false
	for i, l := range lines {
		if drop[i] {
			continue
		}
		out = append(out, l)
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			content = true
		}
	}
	if content {
		plan.model = []byte(strings.Join(out, "\n"))
	}
	return plan, nil
}

// write writes the plan into dir: the entity files into a temporary
// folder inside dir, renamed into entities/ one by one, then model.yaml
// replaced (or removed) last. On an error everything it did is undone.
func (p *migration) write(dir string, rename func(from, to string) error) (err error) {
	tmp, err := os.MkdirTemp(dir, ".migrate-")
	if err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot write into %s; check the folder's permissions (the folder is unchanged)", dir)
	}
	defer os.RemoveAll(tmp)
	entDir := filepath.Join(dir, EntitiesDir)
	var placed []string
	createdDir := false
	defer func() {
		if err == nil {
			return
		}
		for _, f := range placed {
			os.Remove(f)
		}
		if createdDir {
			os.Remove(entDir)
		}
	}()
	fail := func(err error, format string, args ...any) error {
		return quarry.Wrap(quarry.KindConfig, err, format+"; the folder is unchanged", args...)
	}
	names := make([]string, 0, len(p.files))
	for name := range p.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(tmp, path.Base(name)), p.files[name], 0o644); err != nil {
			return fail(err, "cannot write %s", yamlnode.JoinDisplay(dir, name))
		}
	}
	if _, err := os.Stat(entDir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(entDir, 0o755); err != nil {
			return fail(err, "cannot create %s", yamlnode.JoinDisplay(dir, EntitiesDir))
		}
		createdDir = true
	}
	for _, name := range names {
		to := filepath.Join(dir, filepath.FromSlash(name))
		if _, err := os.Lstat(to); err == nil {
			return fail(fs.ErrExist, "%s already exists", yamlnode.JoinDisplay(dir, name))
		}
		if err := rename(filepath.Join(tmp, path.Base(name)), to); err != nil {
			return fail(err, "cannot move %s into place", yamlnode.JoinDisplay(dir, name))
		}
		placed = append(placed, to)
	}
	model := filepath.Join(dir, ModelFile)
	if p.model == nil {
		if err := rename(model, filepath.Join(tmp, ModelFile)); err != nil {
			return fail(err, "cannot remove %s", yamlnode.JoinDisplay(dir, ModelFile))
		}
		return nil
	}
	if err := os.WriteFile(filepath.Join(tmp, ModelFile), p.model, 0o644); err != nil {
		return fail(err, "cannot write %s", yamlnode.JoinDisplay(dir, ModelFile))
	}
	if err := rename(filepath.Join(tmp, ModelFile), model); err != nil {
		return fail(err, "cannot replace %s", yamlnode.JoinDisplay(dir, ModelFile))
	}
	return nil
}

// sameModel reports whether two models hold the same entities and
// relationships (in any order: the per-entity layout orders them by
// file), metrics, dimensions and restricted columns.
func sameModel(a, b *semantic.Model) bool {
	return reflect.DeepEqual(SortedModel(a), SortedModel(b))
}

// SortedModel is a copy of m with its entities sorted by name and its
// relationships by from, from_column, to, to_column and name: the order
// of a folder's files says nothing about the model, and migrating a
// folder changes it.
func SortedModel(m *semantic.Model) *semantic.Model {
	c := *m
	c.Entities = append([]semantic.Entity(nil), m.Entities...)
	c.Relationships = append([]semantic.Relationship(nil), m.Relationships...)
	sort.SliceStable(c.Entities, func(i, j int) bool {
		return strings.ToLower(c.Entities[i].Name) < strings.ToLower(c.Entities[j].Name)
	})
	key := func(r semantic.Relationship) string {
		return strings.ToLower(strings.Join([]string{r.From, r.FromColumn, r.To, r.ToColumn, r.Name}, "\x00"))
	}
	sort.SliceStable(c.Relationships, func(i, j int) bool { return key(c.Relationships[i]) < key(c.Relationships[j]) })
	return &c
}
