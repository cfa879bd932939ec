package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/quarrydata/quarry"

// pure lists the packages that must stay free of I/O: they import only the
// standard library minus the packages below, and other pure packages.
var pure = []string{
	"internal/quarry",
	"internal/event",
	"internal/sqlguard",
	"internal/semantic",
	"internal/planner",
	"internal/planner/dates",
	"internal/retrieval",
	"internal/verify",
	"internal/narrate",
	"internal/narrate/chart",
	"internal/format",
	"internal/mdhtml",
	"internal/export",
	"internal/ids",
	"internal/suggest",
	"internal/resultcache",
	"internal/store",
	"internal/dialect",
	"internal/dialect/sqlite",
	"internal/dialect/postgres",
	"internal/dialect/mysql",
	"internal/dialect/duckdb",
	"internal/dialect/registry",
	"internal/watch",
	"internal/watch/schedule",
}

// pureThirdParty lists the only third-party modules a pure package may use:
// computation with no I/O of its own.
// singleflight is in-process: callers of one key wait for one call.
var pureThirdParty = []string{"github.com/go-analyze/charts", "github.com/oklog/ulid/v2", "github.com/kljensen/snowball", "golang.org/x/text", "github.com/robfig/cron/v3", "golang.org/x/sync/singleflight"}

// impure standard-library packages: databases, network, processes. Their
// pure subpackages (URL and address parsing) are in pureStd.
var impure = []string{"database/sql", "net", "os/exec", "syscall", "plugin", "os/signal"}

// pureStd are subpackages of impure ones that only compute.
var pureStd = []string{"net/url", "net/netip"}

type pkg struct {
	dir     string // relative to the module root, slash-separated
	imports map[string]bool
	files   []string // non-test Go files
	hasDoc  bool
}

func load(t *testing.T) map[string]*pkg {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		p := pkgs[rel]
		if p == nil {
			p = &pkg{dir: rel, imports: map[string]bool{}}
			pkgs[rel] = p
		}
		p.files = append(p.files, path)
		if f.Doc != nil && strings.HasPrefix(strings.TrimSpace(f.Doc.Text()), "Package "+f.Name.Name) {
			p.hasDoc = true
		}
		if f.Name.Name == "main" && f.Doc != nil {
			p.hasDoc = true
		}
		for _, im := range f.Imports {
			v, _ := strconv.Unquote(im.Path.Value)
			p.imports[v] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func internalPath(imp string) (string, bool) {
	if imp == module {
		return "", true
	}
	if strings.HasPrefix(imp, module+"/") {
		return strings.TrimPrefix(imp, module+"/"), true
	}
	return "", false
}

func isPure(dir string) bool {
	for _, p := range pure {
		if p == dir {
			return true
		}
	}
	return false
}

func TestPurePackagesDoNoIO(t *testing.T) {
	for dir, p := range load(t) {
		if !isPure(dir) {
			continue
		}
		for imp := range p.imports {
			if in, ok := internalPath(imp); ok {
				if !isPure(in) {
					t.Errorf("%s is pure but imports %s, which is not", dir, in)
				}
				continue
			}
			if !strings.Contains(strings.Split(imp, "/")[0], ".") {
				if slices.Contains(pureStd, imp) {
					continue
				}
				for _, bad := range impure {
					if imp == bad || strings.HasPrefix(imp, bad+"/") {
						t.Errorf("%s is pure but imports %s", dir, imp)
					}
				}
				continue
			}
			allowed := false
			for _, m := range pureThirdParty {
				if imp == m || strings.HasPrefix(imp, m+"/") {
					allowed = true
				}
			}
			if !allowed {
				t.Errorf("%s is pure but imports the third-party package %s", dir, imp)
			}
		}
	}
}

func TestAdaptersDoNotImportEachOther(t *testing.T) {
	adapterRoots := []string{"internal/connector/", "internal/llm/", "internal/store/"}
	for dir, p := range load(t) {
		for _, root := range adapterRoots {
			if !strings.HasPrefix(dir+"/", root) || dir+"/" == root {
				continue
			}
			if strings.HasSuffix(dir, "test") {
				continue // a test-support package drives the real adapters (llmtest.NewProviderOver)
			}
			for imp := range p.imports {
				in, ok := internalPath(imp)
				if !ok || !strings.HasPrefix(in, root) || in+"/" == root {
					continue
				}
				if strings.HasPrefix(in, dir+"/") || strings.HasSuffix(in, "test") || in == "internal/connector/normalize" {
					continue // its own subpackages, shared test suites, and the shared result reader
				}
				t.Errorf("adapter %s imports adapter %s; share code through %s instead", dir, in, strings.TrimSuffix(root, "/"))
			}
		}
	}
}

func TestNothingImportsCmd(t *testing.T) {
	for dir, p := range load(t) {
		for imp := range p.imports {
			if in, ok := internalPath(imp); ok && strings.HasPrefix(in, "cmd/") {
				t.Errorf("%s imports %s; only the Go tool builds cmd", dir, in)
			}
		}
	}
}

func TestOnlyCmdReadsTheEnvironment(t *testing.T) {
	for dir, p := range load(t) {
		if strings.HasPrefix(dir, "cmd/") || strings.HasPrefix(dir, "bench") {
			continue
		}
		for _, file := range p.files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range []string{"os.Getenv(", "os.LookupEnv(", "os.Environ("} {
				if strings.Contains(string(src), call) {
					t.Errorf("%s calls %s; read configuration once in cmd and pass it down", file, strings.TrimSuffix(call, "("))
				}
			}
		}
	}
}

func TestEveryPackageIsDocumented(t *testing.T) {
	for dir, p := range load(t) {
		if !p.hasDoc {
			t.Errorf("package %s has no doc comment (add a doc.go starting with \"Package …\")", dir)
		}
	}
}

// transports decode a request, call the runtime they are handed, and
// encode the answer: cmd chooses the adapters, so a transport imports
// none, and it opens no database or process of its own.
var transports = []string{"internal/httpapi", "internal/mcpserver"}

func TestTransportsWireNoAdapters(t *testing.T) {
	pkgs := load(t)
	for _, dir := range transports {
		p := pkgs[dir]
		if p == nil {
			t.Errorf("transport %s not found; update the list", dir)
			continue
		}
		for imp := range p.imports {
			if imp == "database/sql" || imp == "os/exec" || strings.HasPrefix(imp, "database/sql/") {
				t.Errorf("transport %s imports %s; the runtime it is handed does that", dir, imp)
			}
			in, ok := internalPath(imp)
			if !ok {
				continue
			}
			for _, root := range []string{"internal/connector/", "internal/llm/", "internal/store/"} {
				if strings.HasPrefix(in, root) && in != "internal/connector/normalize" {
					t.Errorf("transport %s imports the adapter %s; let cmd wire it and hand it over", dir, in)
				}
			}
		}
	}
}

// TestOnlyTestsImportTestSupport: a test-support package (llmtest,
// connectortest) is linked into no binary: only tests and other
// test-support packages import it.
func TestOnlyTestsImportTestSupport(t *testing.T) {
	for dir, p := range load(t) {
		if strings.HasSuffix(dir, "test") {
			continue
		}
		for imp := range p.imports {
			if in, ok := internalPath(imp); ok && strings.HasSuffix(in, "test") {
				t.Errorf("%s imports the test-support package %s", dir, in)
			}
		}
	}
}

// TestContractsImportNoAdapter: the root of an adapter tree (connector,
// llm, store) is the contract its adapters implement, so it imports none
// of them; transports may import a contract, never an adapter.
func TestContractsImportNoAdapter(t *testing.T) {
	pkgs := load(t)
	for _, root := range []string{"internal/connector", "internal/llm", "internal/store"} {
		p := pkgs[root]
		if p == nil {
			t.Errorf("contract %s not found; update the list", root)
			continue
		}
		for imp := range p.imports {
			if in, ok := internalPath(imp); ok && strings.HasPrefix(in, root+"/") {
				t.Errorf("contract %s imports its adapter %s", root, in)
			}
		}
	}
}
