package archtest

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneGoroutinePackages keeps scripts/one-goroutine true: the
// packages it lists, and every package of this module they import, start
// no goroutine, and their own tests start none and run none in parallel,
// but for those named TestConcurrent…, which use one planner or model
// from several goroutines at once as a server does. The race detector
// reports only accesses from two goroutines, so scripts/test.sh runs
// only those tests of these packages in its race pass (the planner's
// others took a minute and a half of it, and could find nothing). A
// goroutine or a t.Parallel added elsewhere fails here: put it in a
// TestConcurrent… test, or take the package off the list.
func TestOneGoroutinePackages(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "scripts", "one-goroutine"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pkgs := load(t)
	var listed []string
	for s := bufio.NewScanner(f); s.Scan(); {
		if dir := strings.TrimSpace(s.Text()); dir != "" && !strings.HasPrefix(dir, "#") {
			if pkgs[dir] == nil {
				t.Errorf("scripts/one-goroutine lists %s, which is no package", dir)
				continue
			}
			listed = append(listed, dir)
		}
	}
	if len(listed) == 0 {
		t.Fatal("scripts/one-goroutine lists no package")
	}
	// The packages they import, up the chain.
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		for imp := range pkgs[dir].imports {
			if d, ok := internalPath(imp); ok && pkgs[d] != nil {
				visit(d)
			}
		}
	}
	for _, dir := range listed {
		visit(dir)
	}
	fset := token.NewFileSet()
	check := func(path string, tests bool) {
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				return !tests || !strings.HasPrefix(n.Name.Name, "TestConcurrent")
			case *ast.GoStmt:
				t.Errorf("%s starts a goroutine, and scripts/one-goroutine lists it or a package that imports it", fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if tests && n.Sel.Name == "Parallel" {
					t.Errorf("%s runs a test in parallel, and scripts/one-goroutine lists its package", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	for dir := range seen {
		for _, path := range pkgs[dir].files {
			check(path, false)
		}
	}
	root := filepath.Join("..", "..")
	for _, dir := range listed {
		tests, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range tests {
			check(path, true)
		}
	}
}
