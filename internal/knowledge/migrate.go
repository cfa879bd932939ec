package knowledge

import (
	"bytes"
	"context"
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
	// NoModel is set, with Done, when the folder has no model.yaml at
	// all: its entities are in entities/ already.
	NoModel bool `json:"no_model"`
	// Resumed is set when Migrate found a migration that was cut short
	// (the files it writes in entities/, model.yaml still whole) and
	// finished it.
	Resumed bool `json:"resumed"`
	// Entities and Relationships count what moved to entities/.
	Entities      int `json:"entities"`
	Relationships int `json:"relationships"`
	// Kept counts the relationships left in model.yaml: those whose from
	// entity already had its own file.
	Kept int `json:"relationships_kept"`
	// Files are the entity files written, relative to the folder (never
	// nil: [] in JSON).
	Files []string `json:"files"`
	// ModelRemoved says model.yaml held nothing else and was removed.
	ModelRemoved bool `json:"model_removed"`
}

// tempPrefix starts the name of every temporary file and folder Migrate
// makes in the knowledge folder; the loader reads none of them, and
// Migrate removes those a killed run left behind.
const tempPrefix = ".migrate-"

// Migrate splits the entities of model.yaml in the folder dir into one
// file each in entities/, with the relationships that start from them,
// keeping their text and comments as written. model.yaml keeps what
// remains, or is removed when nothing does. The folder must load before
// and loads to the same model after (checked before anything is
// written). A folder without entities in model.yaml is left alone
// (Done).
//
// What is on disk is always a folder that loads, or one that Migrate
// finishes when run again (docs/knowledge.md, "One file per entity"):
// when entities/ does not exist, the files are written into a temporary
// folder inside dir which is renamed to entities/ in one step; otherwise
// they are renamed into entities/ one by one. model.yaml is replaced (or
// removed) last, by a rename: that is the commit point. Until then, an
// error or ctx's cancellation undoes everything and leaves the folder as
// it was. A run killed after the files were placed but before model.yaml
// was replaced leaves each moved entity defined twice, in model.yaml and
// in its new file; the next Migrate recognizes files that are byte for
// byte what it would write and finishes. Temporary files left by a
// killed run are removed.
func Migrate(ctx context.Context, dir string) (*MigrateReport, error) {
	return migrate(ctx, dir, os.Rename)
}

// migrate is Migrate with the rename it uses (tests make it fail).
func migrate(ctx context.Context, dir string, rename func(from, to string) error) (*MigrateReport, error) {
	if err := isFolder(dir); err != nil {
		return nil, err
	}
	if err := removeStale(dir); err != nil {
		return nil, err
	}
	l := &loaded{files: map[string][]byte{}}
	if err := l.read(os.DirFS(dir)); err != nil {
		return nil, readError(dir, err)
	}
	taken, err := entityNames(dir)
	if err != nil {
		return nil, err
	}
	rep := &MigrateReport{Files: []string{}}
	before, problems := l.build()
	var present map[string]bool // files of an interrupted run, to keep
	if len(problems) > 0 {
		l2, done := interruptedMigration(ctx, dir, l, taken)
		if ctx.Err() != nil {
			return nil, canceled(ctx)
		}
		if l2 == nil {
			return nil, &quarry.Error{Kind: quarry.KindConfig, Err: Problems(problems),
				Msg: problems[0].Format(dir) + "; migrate changes nothing until the folder loads (see `quarry doctor`)"}
		}
		l, present, rep.Resumed = l2, done, true
		for name := range done {
			delete(taken, strings.ToLower(path.Base(name)))
		}
		before, _ = l.build()
	}
	var moved []int // model.yaml entities, by index in the model
	for i, p := range l.model.ents {
		if p.file == ModelFile {
			moved = append(moved, i)
		}
	}
	if len(moved) == 0 {
		rep.Done = true
		_, hasModel := l.files[ModelFile]
		rep.NoModel = !hasModel
		return rep, nil
	}
	plan, err := planMigration(ctx, dir, l.model, l.files[ModelFile], moved, taken, rep)
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
	if err := plan.write(ctx, dir, rename, present); err != nil {
		return nil, err
	}
	rep.ModelRemoved = plan.model == nil
	return rep, nil
}

// interruptedMigration recognizes a migration that was killed after placing
// files in entities/ but before replacing model.yaml: the folder l does
// not load only because entities of model.yaml are defined again in
// entity files, each of which holds byte for byte what migrating the
// folder without them would write to it. It returns the folder without
// those files and the files (to leave in place), or nil when l is not
// such a folder.
func interruptedMigration(ctx context.Context, dir string, l *loaded, taken map[string]bool) (*loaded, map[string]bool) {
	if len(l.missing) > 0 || l.model.broken() {
		return nil, nil
	}
	inModel := map[string]bool{}
	for i, p := range l.model.ents {
		if p.file == ModelFile {
			inModel[strings.ToLower(l.model.Entities[i].Name)] = true
		}
	}
	done := map[string]bool{}
	for i, p := range l.model.ents {
		if p.file != ModelFile && inModel[strings.ToLower(l.model.Entities[i].Name)] {
			done[p.file] = true
		}
	}
	if len(done) == 0 {
		return nil, nil
	}
	fsys := fstest.MapFS{}
	for name, b := range l.files {
		if !done[name] {
			fsys[name] = &fstest.MapFile{Data: b}
		}
	}
	l2 := &loaded{files: map[string][]byte{}}
	if err := l2.read(fsys); err != nil {
		return nil, nil
	}
	if _, problems := l2.build(); len(problems) > 0 {
		return nil, nil
	}
	var moved []int
	for i, p := range l2.model.ents {
		if p.file == ModelFile {
			moved = append(moved, i)
		}
	}
	left := map[string]bool{}
	for name := range taken {
		left[name] = true
	}
	for name := range done {
		delete(left, strings.ToLower(path.Base(name)))
	}
	plan, err := planMigration(ctx, dir, l2.model, l2.files[ModelFile], moved, left, &MigrateReport{})
	if err != nil {
		return nil, nil
	}
	for name := range done {
		if b, ok := plan.files[name]; !ok || string(b) != string(l.files[name]) {
			return nil, nil
		}
	}
	return l2, done
}

// entityNames are the names in entities/ of dir, in lower case (every
// entry but hidden ones: a new file must not take one).
func entityNames(dir string) (map[string]bool, error) {
	taken := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(dir, EntitiesDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, readError(dir, err)
	}
	for _, e := range entries {
		taken[strings.ToLower(e.Name())] = true
	}
	return taken, nil
}

// removeStale removes the temporary files and folders (tempPrefix) that
// a killed Migrate left in dir.
func removeStale(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return readError(dir, err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return quarry.Wrap(quarry.KindConfig, err, "cannot remove %s, left by a migrate that was stopped; remove it by hand", yamlnode.JoinDisplay(dir, e.Name()))
			}
		}
	}
	return nil
}

// canceled is the error of a migration stopped by ctx.
func canceled(ctx context.Context) error {
	return quarry.Wrap(quarry.KindCanceled, ctx.Err(), "migrate was interrupted; the knowledge folder is unchanged")
}

// migration is what Migrate writes: the entity files (relative to the
// folder) and model.yaml's new text (nil: remove it).
type migration struct {
	files map[string][]byte
	model []byte
}

// planMigration cuts the text of each entity of model.yaml (moved, by
// index in m) and of the relationships that start from it out of src.
// New files take names not in taken (lower case), which it adds to.
//
// src is cut as the decoder read it (yamlnode.Normalize: no byte order
// mark, LF line breaks), and what it writes takes src's line breaks:
// CRLF throughout when src's first line ends with CRLF, LF otherwise.
// model.yaml keeps its byte order mark; entity files get none.
func planMigration(ctx context.Context, dir string, m *modelDoc, src []byte, moved []int, taken map[string]bool, rep *MigrateReport) (*migration, error) {
	crlf := false
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		crlf = true
	}
	hasBOM := bytes.HasPrefix(src, []byte("\xEF\xBB\xBF"))
	lines := strings.Split(string(yamlnode.Normalize(src)), "\n")
	eol := func(b []byte) []byte {
		if crlf {
			b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
		}
		return b
	}
	md := m.d
	// Every item of model.yaml's two lists, and every top-level key, cuts
	// the file: an item runs from the comments above it to the next cut.
	type item struct{ start, first int } // 0-based: its comments, its first key
	var cuts []int
	above := func(first int) int {
		s := first
		if s > len(lines) {
			return s // not a line of src: text refuses it
		}
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
	for n, i := range moved {
		if n%64 == 0 && ctx.Err() != nil {
			return nil, canceled(ctx)
		}
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
		plan.files[name] = eol([]byte(b.String()))
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
		plan.model = eol([]byte(strings.Join(out, "\n")))
		if hasBOM {
			plan.model = append([]byte("\xEF\xBB\xBF"), plan.model...)
		}
	}
	return plan, nil
}

// write writes the plan into dir and returns nil, or an error after
// undoing everything it did. Entity files take model.yaml's permissions
// (learn writes knowledge files 0600: they hold known values), and a new
// entities/ the knowledge folder's. When entities/ does not exist, the
// files are written into a temporary folder inside dir, which is renamed
// to entities/ in one step; otherwise they are renamed into entities/ one
// by one, leaving alone those in present (placed by an interrupted run,
// byte for byte the same). model.yaml's new text is written to a
// temporary file beforehand, and renamed over model.yaml (or model.yaml
// removed) last: the commit point. ctx is checked before each step up to
// it.
func (p *migration) write(ctx context.Context, dir string, rename func(from, to string) error, present map[string]bool) (err error) {
	fail := func(err error, format string, args ...any) error {
		return quarry.Wrap(quarry.KindConfig, err, format+"; the folder is unchanged", args...)
	}
	model := filepath.Join(dir, ModelFile)
	mst, err := os.Stat(model)
	if err != nil {
		return fail(err, "cannot read %s", yamlnode.JoinDisplay(dir, ModelFile))
	}
	dst, err := os.Stat(dir)
	if err != nil {
		return fail(err, "cannot read %s", dir)
	}
	mode, dirMode := mst.Mode().Perm(), dst.Mode().Perm()
	tmp, err := os.MkdirTemp(dir, tempPrefix)
	if err != nil {
		return fail(err, "cannot write into %s; check the folder's permissions", dir)
	}
	defer os.RemoveAll(tmp)
	entDir := filepath.Join(dir, EntitiesDir)
	var placed []string
	createdDir := false
	defer func() {
		if err == nil {
			return
		}
		if createdDir {
			os.RemoveAll(entDir)
		}
		for _, f := range placed {
			os.Remove(f)
		}
	}()
	names := make([]string, 0, len(p.files))
	for name := range p.files {
		if !present[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if ctx.Err() != nil {
			return canceled(ctx)
		}
		if err := writeNewSynced(filepath.Join(tmp, path.Base(name)), p.files[name], mode); err != nil {
			return fail(err, "cannot write %s", yamlnode.JoinDisplay(dir, name))
		}
	}
	newModel := ""
	if p.model != nil {
		newModel = filepath.Join(tmp, ModelFile)
		if err := writeNewSynced(newModel, p.model, mode); err != nil {
			return fail(err, "cannot write %s", yamlnode.JoinDisplay(dir, ModelFile))
		}
		// out of the folder that becomes entities/
		moved := filepath.Join(dir, path.Base(tmp)+"-"+ModelFile)
		if err := os.Rename(newModel, moved); err != nil {
			return fail(err, "cannot write %s", yamlnode.JoinDisplay(dir, ModelFile))
		}
		newModel = moved
		defer os.Remove(moved)
	}
	if ctx.Err() != nil {
		return canceled(ctx)
	}
	if _, err := os.Lstat(entDir); errors.Is(err, fs.ErrNotExist) {
		// every file in one step: entities/ is whole or absent
		syncDir(tmp)
		if err := os.Chmod(tmp, dirMode); err != nil {
			return fail(err, "cannot create %s", yamlnode.JoinDisplay(dir, EntitiesDir))
		}
		if err := rename(tmp, entDir); err != nil {
			return fail(err, "cannot create %s", yamlnode.JoinDisplay(dir, EntitiesDir))
		}
		createdDir = true
	} else {
		for _, name := range names {
			if ctx.Err() != nil {
				return canceled(ctx)
			}
			to := filepath.Join(dir, filepath.FromSlash(name))
			if _, err := os.Lstat(to); err == nil {
				return fail(fs.ErrExist, "%s already exists", yamlnode.JoinDisplay(dir, name))
			}
			if err := rename(filepath.Join(tmp, path.Base(name)), to); err != nil {
				return fail(err, "cannot move %s into place", yamlnode.JoinDisplay(dir, name))
			}
			placed = append(placed, to)
		}
	}
	syncDir(entDir)
	if ctx.Err() != nil {
		return canceled(ctx)
	}
	// the commit point
	if p.model == nil {
		gone := filepath.Join(dir, path.Base(tmp)+"-removed-"+ModelFile)
		if err := rename(model, gone); err != nil {
			return fail(err, "cannot remove %s", yamlnode.JoinDisplay(dir, ModelFile))
		}
		os.Remove(gone)
	} else if err := rename(newModel, model); err != nil {
		return fail(err, "cannot replace %s", yamlnode.JoinDisplay(dir, ModelFile))
	}
	syncDir(dir)
	return nil
}

// writeNewSynced writes b to the new file name with the permissions perm
// (whatever the umask) and flushes it to disk.
func writeNewSynced(name string, b []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	merr := f.Chmod(perm)
	serr := f.Sync()
	return errors.Join(werr, merr, serr, f.Close())
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
