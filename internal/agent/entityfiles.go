package agent

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// entitiesDir is the knowledge folder's folder of entity files, one
// entity each (docs/knowledge.md): part of the model, so read_knowledge
// shows each as model.yaml is shown, never as written.
const entitiesDir = "entities"

// entityFile returns the path of the entity file name reads: a path under
// entities/ (in any case), or, under a restricted tier, another name for
// one of its files (a link to it).
func (a *Agent) entityFile(name string) (string, bool) {
	name = strings.TrimSpace(name)
	if dir, _, ok := strings.Cut(name, "/"); ok && strings.EqualFold(dir, entitiesDir) {
		return name, true
	}
	if !a.restricted() || a.KnowledgeDir == "" || name == "" {
		return "", false
	}
	got, err := os.Stat(filepath.Join(a.KnowledgeDir, filepath.FromSlash(name)))
	if err != nil {
		return "", false
	}
	entries, _ := os.ReadDir(filepath.Join(a.KnowledgeDir, entitiesDir))
	for _, e := range entries {
		if want, err := os.Stat(filepath.Join(a.KnowledgeDir, entitiesDir, e.Name())); err == nil && os.SameFile(want, got) {
			return entitiesDir + "/" + e.Name(), true
		}
	}
	return "", false
}

// entityNameIn is the name: of an entity file's entity ("" when the file
// says none), read from its top-level line.
func entityNameIn(src string) string {
	for _, l := range strings.Split(src, "\n") {
		v, ok := strings.CutPrefix(strings.TrimRight(l, " \t\r"), "name:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.Index(v, " #"); i >= 0 && !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "'") {
			v = strings.TrimSpace(v[:i])
		}
		switch {
		case strings.HasPrefix(v, `"`):
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
		case strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2:
			return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
		}
		return v
	}
	return ""
}

// shownList leaves out of a listing of the folder the entity files of
// entities the policy withholds: their names would name the table.
func (a *Agent) shownList(p *policy, list string) string {
	shown := map[string]bool{}
	for _, t := range a.tables(p) {
		shown[strings.ToLower(t.name)] = true
	}
	m := a.model()
	var b strings.Builder
	for _, l := range strings.SplitAfter(list, "\n") {
		name := strings.TrimSpace(l)
		if dir, _, ok := strings.Cut(name, "/"); ok && strings.EqualFold(dir, entitiesDir) && path.Ext(name) != ".md" {
			src, err := readKnowledge(a.KnowledgeDir, name)
			if err != nil {
				continue
			}
			e := m.Entity(entityNameIn(src))
			if e == nil || !shown[strings.ToLower(e.TableName())] {
				continue
			}
		}
		b.WriteString(l)
	}
	return b.String()
}
