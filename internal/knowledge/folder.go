package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/watch"
)

// Folder is a loaded, validated knowledge folder.
type Folder struct {
	Dir   string          // the folder as given to Load
	Model *semantic.Model // entities, relationships, metrics, dimensions; Restricted from policy.yaml
	// Verified are the approved queries of examples/*.yaml (not
	// examples/_pending/).
	Verified []VerifiedQuery
	Notes    []Note
	Policy   []PolicyRule
	// Groups are policy.yaml's groups: columns restricted for some
	// people on top of Policy, and the connections they may use.
	Groups []PolicyGroup
	// Candidates are the measures learn suggests (the candidates: section of
	// metrics.yaml). They are not metrics until a person moves them.
	Candidates []semantic.Metric
	// Monitors are the monitors of monitors/*.yaml, by file name
	// (docs/watch.md).
	Monitors []watch.Monitor
	// Hash is the hex SHA-256 over the loaded files (names and contents),
	// recorded in every answer's provenance as the knowledge version.
	Hash string
	// Files are the loaded files, relative to Dir, sorted.
	Files []string
}

// isFolder is nil when dir is a folder, else the error that says to learn
// one.
func isFolder(dir string) error {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return &quarry.Error{Kind: quarry.KindConfig, Err: err,
			Msg: fmt.Sprintf("knowledge folder %s not found; run `quarry learn` to build it from your database", dir)}
	}
	return nil
}

// Note is one Markdown file of notes/.
type Note struct {
	Name string `json:"name"` // relative to notes/, e.g. "fiscal-year.md"
	Text string `json:"text"`
}

// Load reads and validates the knowledge folder dir. Every problem is a
// *quarry.Error of kind KindConfig whose message names the file, line and
// field ("knowledge/metrics.yaml:12: metrics[2].entity: unknown entity …").
// A folder whose files are byte for byte the ones last loaded is read back
// from FolderCacheFile instead of being decoded and validated again; one
// whose Stamp is the cache's is read back without reading its files.
func Load(dir string) (*Folder, error) {
	if err := isFolder(dir); err != nil {
		return nil, err
	}
	if err := pendingError(dir); err != nil {
		return nil, err
	}
	// The cache is decoded while the folder is stamped: one waits on
	// the CPU, the other on the file system. Which of the two the cache
	// is good for is decided once both are done.
	tail := cacheTail()
	var cache chan cachedFolder
	if tail != "" {
		cache = make(chan cachedFolder, 1)
		go func() { cache <- readCache(dir, tail) }()
	}
	// The stamp is taken before the files are read: a file written after
	// it changes the next stamp, so the cache never outlives an edit.
	stamp, _ := Stamp(dir)
	var c cachedFolder
	if cache != nil {
		c = <-cache
	}
	if c.f != nil && stamp != "" && c.head.Stamp == stamp {
		c.f.Dir = dir
		return c.f, nil
	}
	l := &loaded{files: map[string][]byte{}}
	if err := l.gather(os.DirFS(dir)); err != nil {
		return nil, readError(dir, err)
	}
	var key string
	if len(l.missing) == 0 && tail != "" {
		_, hash := l.hash()
		key = hash + "/" + tail
		if c.f != nil && c.head.Key == key {
			// The same bytes under new times (a checkout, a copy): kept
			// under the new stamp, so the next Load reads no file.
			writeCache(dir, cacheHead{Key: key, Stamp: stamp}, c.f)
			c.f.Dir = dir
			return c.f, nil
		}
	}
	l.decode()
	f, err := built(l, dir)
	if err == nil && key != "" {
		writeCache(dir, cacheHead{Key: key, Stamp: stamp}, f)
	}
	return f, err
}

// Fingerprint returns the hash Load would give the folder dir (Folder.Hash:
// the SHA-256 over the names and contents of the files it reads), without
// decoding them, or "" when there is no folder. A server compares it before
// each request to pick up an edited folder (a new policy.yaml) at once.
func Fingerprint(dir string) (string, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil || !st.IsDir() {
		return "", readError(dir, err)
	}
	l := &loaded{files: map[string][]byte{}}
	if err := l.gather(os.DirFS(dir)); err != nil {
		return "", readError(dir, err)
	}
	_, hash := l.hash()
	return hash, nil
}

// LoadFS is Load over any file system (an embedded folder, for instance),
// without the cache; dir is only used to name files in messages and as
// Folder.Dir.
func LoadFS(fsys fs.FS, dir string) (*Folder, error) {
	l := &loaded{files: map[string][]byte{}}
	if err := l.read(fsys); err != nil {
		return nil, readError(dir, err)
	}
	return built(l, dir)
}

func readError(dir string, err error) error {
	return &quarry.Error{Kind: quarry.KindConfig, Err: err,
		Msg: fmt.Sprintf("cannot read knowledge folder %s; check that it exists and is readable", dir)}
}

// built validates a read folder: the folder, or an error that names its
// first problem and carries them all.
func built(l *loaded, dir string) (*Folder, error) {
	f, problems := l.build()
	if len(problems) > 0 {
		msg := problems[0].Format(dir)
		if len(problems) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(problems)-1)
		}
		return nil, &quarry.Error{Kind: quarry.KindConfig, Msg: msg, Err: Problems(problems)}
	}
	f.Dir = dir
	return f, nil
}

// Problems is the list of every problem found in a folder; LoadFS puts it
// in the error's cause so that callers can show them all:
//
//	var ps knowledge.Problems
//	if errors.As(err, &ps) { ... }
type Problems []Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.Format(""))
	}
	return b.String()
}

// Check reads the folder and returns it with every problem found, in file
// order. The error is for I/O failures only.
func Check(fsys fs.FS) (*Folder, []Problem, error) {
	l := &loaded{files: map[string][]byte{}}
	if err := l.read(fsys); err != nil {
		return nil, nil, err
	}
	f, problems := l.build()
	return f, problems, nil
}

// loaded holds the raw files of a folder and their decoded forms.
type loaded struct {
	files    map[string][]byte
	model    *modelDoc
	metrics  *metricsDoc
	policy   []PolicyRule
	groups   []PolicyGroup
	policyD  *decoder
	examples []VerifiedQuery
	exD      []*decoder
	notes    []Note
	monitors []*watch.Monitor
	monD     []*decoder
	missing  []Problem
	// exNames and noteNames are the examples and notes files gathered,
	// in the order they are decoded.
	exNames, noteNames []string
	monNames           []string
	// entNames are the files of entities/, in name order.
	entNames []string
}

func readOptional(fsys fs.FS, name string) ([]byte, bool, error) {
	b, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// read reads the folder's files (gather), then decodes them.
func (l *loaded) read(fsys fs.FS) error {
	if err := l.gather(fsys); err != nil {
		return err
	}
	l.decode()
	return nil
}

// gather reads every file the folder is made of into l.files: model.yaml
// (an empty entry when it is missing and entities/ holds no entity
// file), entities/*.yaml, metrics.yaml, policy.yaml,
// examples/*.yaml, monitors/*.yaml and notes/**/*.md. Nothing is decoded.
func (l *loaded) gather(fsys fs.FS) error {
	src, ok, err := readOptional(fsys, ModelFile)
	if err != nil {
		return err
	}
	ents, problems, err := entityFiles(fsys)
	if err != nil {
		return err
	}
	l.missing = append(l.missing, problems...)
	for _, name := range ents {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		l.files[name] = src
		l.entNames = append(l.entNames, name)
	}
	switch {
	case ok:
		l.files[ModelFile] = src
	case len(ents) == 0:
		l.missing = append(l.missing, Problem{File: ModelFile, Msg: "missing; run `quarry learn` to write it from your database"})
		l.files[ModelFile] = nil
	}
	for _, name := range []string{MetricsFile, PolicyFile} {
		src, ok, err := readOptional(fsys, name)
		if err != nil {
			return err
		}
		if ok {
			l.files[name] = src
		}
	}
	exs, err := globSorted(fsys, ExamplesDir, ".yaml", ".yml")
	if err != nil {
		return err
	}
	for _, name := range exs {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		l.files[name] = src
		l.exNames = append(l.exNames, name)
	}
	mons, err := globSorted(fsys, MonitorsDir, ".yaml", ".yml")
	if err != nil {
		return err
	}
	for _, name := range mons {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		l.files[name] = src
		l.monNames = append(l.monNames, name)
	}
	if st, err := fs.Stat(fsys, NotesDir); err == nil && st.IsDir() {
		err := fs.WalkDir(fsys, NotesDir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() || !strings.EqualFold(path.Ext(p), ".md") {
				return nil
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			l.files[p] = b
			l.noteNames = append(l.noteNames, p)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// decode decodes the gathered files.
func (l *loaded) decode() {
	l.model = decodeFolderModel(l.files[ModelFile], l.entNames, l.files)
	l.metrics = decodeMetrics(l.files[MetricsFile])
	var pdoc policyDoc
	pdoc, l.policyD = decodePolicy(l.files[PolicyFile])
	l.policy, l.groups = pdoc.rules, pdoc.groups
	for _, name := range l.exNames {
		qs, d := decodeExamples(name, l.files[name])
		l.examples = append(l.examples, qs...)
		l.exD = append(l.exD, d)
	}
	for _, name := range l.monNames {
		m, d := decodeMonitor(name, l.files[name])
		l.monitors = append(l.monitors, m)
		l.monD = append(l.monD, d)
	}
	for _, p := range l.noteNames {
		l.notes = append(l.notes, Note{Name: strings.TrimPrefix(p, NotesDir+"/"), Text: string(l.files[p])})
	}
}

// globSorted lists dir/*ext (not recursing), sorted.
func globSorted(fsys fs.FS, dir string, exts ...string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		for _, ext := range exts {
			if strings.EqualFold(path.Ext(e.Name()), ext) {
				out = append(out, dir+"/"+e.Name())
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func (l *loaded) build() (*Folder, []Problem) {
	m := &semantic.Model{
		Entities:      l.model.Entities,
		Relationships: l.model.Relationships,
		Metrics:       l.metrics.Metrics,
		Dimensions:    l.metrics.Dimensions,
	}
	for i := range m.Entities {
		e := &m.Entities[i]
		if e.Table == "" {
			e.Table = e.Name
		}
	}
	for _, r := range l.policy {
		if r.Column != "" {
			m.Restricted = append(m.Restricted, r.Column)
		}
	}
	forgetRestrictedValues(m)
	var problems []Problem
	problems = append(problems, l.missing...)
	for _, d := range l.model.decoders() {
		problems = append(problems, d.Problems...)
	}
	problems = append(problems, l.metrics.d.Problems...)
	problems = append(problems, l.policyD.Problems...)
	for _, d := range l.exD {
		problems = append(problems, d.Problems...)
	}
	for _, d := range l.monD {
		problems = append(problems, d.Problems...)
	}
	// Cross-references are checked even when some fields were malformed,
	// so that one run shows every problem; but not when a file could not be
	// parsed at all, which would make everything it defines look unknown.
	broken := len(l.missing) > 0 || l.model.broken() || l.metrics.d.Broken || l.policyD.Broken
	candidates := l.metrics.Candidates
	if !broken {
		v := newValidator(m, l)
		v.all()
		candidates = v.usableCandidates(candidates)
		problems = append(problems, v.problems...)
		if len(problems) == 0 {
			problems = semanticValidate(m, l)
		}
	}
	sortProblems(problems)
	f := &Folder{
		Model:      m,
		Verified:   l.examples,
		Notes:      l.notes,
		Policy:     l.policy,
		Groups:     l.groups,
		Candidates: candidates,
	}
	for _, m := range l.monitors {
		if m != nil {
			f.Monitors = append(f.Monitors, *m)
		}
	}
	f.Files, f.Hash = l.hash()
	return f, problems
}

// hash lists the gathered files, sorted, and the hex SHA-256 over their
// names and contents.
func (l *loaded) hash() ([]string, string) {
	names := make([]string, 0, len(l.files))
	for name := range l.files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(l.files[name]))
		h.Write(l.files[name])
	}
	// what could not be read changes the hash too, so that a server that
	// compares Fingerprint sees a folder put into entities/
	for _, p := range l.missing {
		fmt.Fprintf(h, "missing\x00%s\x00%s\x00", p.File, p.Msg)
	}
	return names, hex.EncodeToString(h.Sum(nil))
}

func sortProblems(ps []Problem) {
	rank := func(f string) int {
		switch f {
		case ModelFile:
			return 0
		case MetricsFile:
			return 2
		case PolicyFile:
			return 3
		}
		if strings.HasPrefix(f, EntitiesDir+"/") {
			return 1
		}
		return 4
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if rank(a.File) != rank(b.File) {
			return rank(a.File) < rank(b.File)
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// semanticValidate runs the semantic model's own checks (the compiler's
// rules: join reachability, fan-out, expression shape) and places each
// problem at the file and line of the field it names.
func semanticValidate(m *semantic.Model, l *loaded) []Problem {
	var out []Problem
	for _, sp := range m.Validate() {
		file, path, d := locate(m, l, sp.Path)
		p := Problem{File: file, Path: path, Msg: sp.Message}
		if d != nil {
			p.Line = d.LineOf(path)
		}
		out = append(out, p)
	}
	return out
}

// locate turns a semantic path such as "metrics[revenue].expr" into the
// file, the decoder path ("metrics[3].expr") and the decoder of that file.
func locate(m *semantic.Model, l *loaded, spath string) (string, string, *decoder) {
	head, rest, _ := strings.Cut(spath, "]")
	kind, key, ok := strings.Cut(head, "[")
	if !ok {
		return MetricsFile, spath, l.metrics.d
	}
	idx := -1
	if n, err := strconv.Atoi(key); err == nil {
		idx = n
	}
	find := func(n int, name func(int) string) {
		if idx >= 0 {
			return
		}
		for i := 0; i < n; i++ {
			if strings.EqualFold(name(i), key) {
				idx = i
				return
			}
		}
	}
	var file string
	var d *decoder
	switch kind {
	case "entities", "relationships":
		places := l.model.ents
		if kind == "entities" {
			find(len(m.Entities), func(i int) string { return m.Entities[i].Name })
		} else {
			places = l.model.rels
			find(len(m.Relationships), func(i int) string { return m.Relationships[i].Name })
		}
		if idx < 0 || idx >= len(places) {
			return ModelFile, spath, l.model.d
		}
		pl := places[idx]
		if rest = strings.TrimPrefix(rest, "."); rest != "" {
			return pl.file, pl.at(rest), pl.d
		}
		return pl.file, pl.path, pl.d
	case "metrics":
		file, d = MetricsFile, l.metrics.d
		find(len(m.Metrics), func(i int) string { return m.Metrics[i].Name })
	case "dimensions":
		file, d = MetricsFile, l.metrics.d
		find(len(m.Dimensions), func(i int) string { return m.Dimensions[i].Name })
	case "restricted":
		file, d = PolicyFile, l.policyD
	default:
		return MetricsFile, spath, l.metrics.d
	}
	if idx < 0 {
		return file, spath, d
	}
	return file, fmt.Sprintf("%s[%d]%s", kind, idx, rest), d
}

// forgetRestrictedValues drops the values learn recorded of columns that
// were restricted since: a restricted column's values are not quarry's to
// use, and held in memory they were scrubbed from what a model is sent,
// which made a question's words an oracle (found by an attacker: a run
// that echoed a guessed SSN stopped with "a restricted value was about to
// be sent", one that echoed another did not). The next learn drops them
// from the files too.
func forgetRestrictedValues(m *semantic.Model) {
	restricted := m.RestrictedCheck()
	for i := range m.Entities {
		e := &m.Entities[i]
		for j := range e.Columns {
			if len(e.Columns[j].Values) > 0 && restricted(e, e.Columns[j].Name) {
				e.Columns[j].Values = nil
			}
		}
	}
}
