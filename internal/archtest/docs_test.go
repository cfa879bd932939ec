package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// row is one package's row of docs/ARCHITECTURE.md's package table.
type row struct {
	pkgs  []string // the packages the row describes
	may   string   // its "may import" cell
	names []string // the package names in backticks in that cell
}

var backticked = regexp.MustCompile("`([^`]+)`")

// docRows reads the package table of docs/ARCHITECTURE.md.
func docRows(t *testing.T) []row {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), " | ")
		if len(cells) < 3 {
			continue
		}
		var r row
		first := backticked.FindAllStringSubmatch(cells[0], -1)
		for i, m := range first {
			p := m[1]
			if i > 0 && !strings.Contains(p, "/") {
				p = first[0][1] + "/" + p // "`internal/llm` (+ `anthropic`)"
			}
			r.pkgs = append(r.pkgs, p)
		}
		r.may = cells[len(cells)-1]
		for _, m := range backticked.FindAllStringSubmatch(r.may, -1) {
			r.names = append(r.names, m[1])
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("docs/ARCHITECTURE.md has no package table")
	}
	return rows
}

// allows reports whether the row's "may import" cell names the internal
// package in: by its path (with or without internal/), by its last path
// element, as one of "the pure cores", or as everything ("everything
// below").
func (r row) allows(in string) bool {
	if strings.Contains(r.may, "everything below") {
		return true
	}
	if strings.Contains(r.may, "the pure cores") && isPure(in) {
		return true
	}
	for _, p := range r.pkgs {
		if in == p || strings.HasPrefix(in, p+"/") {
			return true // the row's own packages and their subpackages
		}
	}
	short := strings.TrimPrefix(in, "internal/")
	for _, n := range r.names {
		if n == in || n == short || n == filepath.Base(in) {
			return true
		}
	}
	return false
}

// TestDocsImportTable holds docs/ARCHITECTURE.md's package table to the
// code: every package has a row, every row names a package that exists,
// and every package quarry imports from is named in the importer's "may
// import" cell.
func TestDocsImportTable(t *testing.T) {
	pkgs := load(t)
	rows := docRows(t)
	byPkg := map[string]row{}
	for _, r := range rows {
		for _, p := range r.pkgs {
			if pkgs[p] == nil {
				t.Errorf("docs/ARCHITECTURE.md describes %s, which does not exist", p)
			}
			byPkg[p] = r
		}
	}
	dirs := make([]string, 0, len(pkgs))
	for dir := range pkgs {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		r, ok := byPkg[dir]
		if !ok {
			t.Errorf("package %s has no row in docs/ARCHITECTURE.md's package table", dir)
			continue
		}
		var missing []string
		for imp := range pkgs[dir].imports {
			in, ok := internalPath(imp)
			if !ok || in == "" || r.allows(in) {
				continue
			}
			missing = append(missing, in)
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("%s imports %s, which its row in docs/ARCHITECTURE.md does not list under \"may import\"", dir, strings.Join(missing, ", "))
		}
	}
}

// TestOnlyCmdImportsTheRuntime: the runtime composes the adapters; the
// surfaces below it are handed what they need, and only the binary (and
// its benchmarks) build one.
func TestOnlyCmdImportsTheRuntime(t *testing.T) {
	for dir, p := range load(t) {
		if strings.HasPrefix(dir, "cmd/") || strings.HasPrefix(dir, "bench/") {
			continue
		}
		if p.imports[module+"/internal/runtime"] {
			t.Errorf("%s imports internal/runtime; only cmd builds the runtime and hands the surfaces what they need", dir)
		}
	}
}
