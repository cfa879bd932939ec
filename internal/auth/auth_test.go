package auth

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestNewToken(t *testing.T) {
	secret, hash, err := NewToken(bytes.NewReader(bytes.Repeat([]byte{0xAB}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	const want = "qry_vov2xk5lvov2xk5lvov2xk5lvov2xk5lvov2xk5lvov2xk5lvovq"
	if secret != want {
		t.Errorf("secret = %s, want %s", secret, want)
	}
	if hash != Hash(secret) || !strings.HasPrefix(hash, "sha256:") || len(hash) != len("sha256:")+64 || strings.Contains(hash, secret) {
		t.Errorf("hash = %s", hash)
	}
	if !wellFormed(secret) {
		t.Error("a new token is not well formed")
	}
	for _, bad := range []string{"", "qry_", secret[:len(secret)-1], secret + "a", strings.ToUpper(secret), "tok_" + secret[4:], secret[:10] + "!" + secret[11:]} {
		if wellFormed(bad) {
			t.Errorf("wellFormed(%q) = true", bad)
		}
	}
	if _, _, err := NewToken(bytes.NewReader(make([]byte, 31))); quarry.KindOf(err) != quarry.KindInternal {
		t.Errorf("NewToken from too little randomness: %v", err)
	}
	if _, _, err := NewToken(iotest.ErrReader(errors.New("no entropy"))); err == nil {
		t.Error("NewToken from a failing reader: no error")
	}
}

func TestSameHash(t *testing.T) {
	a := Hash("qry_a")
	for _, tt := range []struct {
		b    string
		want bool
	}{{a, true}, {Hash("qry_b"), false}, {a[:len(a)-1] + "x", false}, {"x" + a[1:], false}, {a[:10], false}, {"", false}} {
		if got := sameHash(a, tt.b); got != tt.want {
			t.Errorf("sameHash(%s, %s) = %v", a, tt.b, got)
		}
	}
}

// TestHashesAreComparedInConstantTime: no code of this package compares a
// hash, a secret or a token with == or != (which stop at the first
// difference); they go through sameHash, which is
// crypto/subtle.ConstantTimeCompare.
func TestHashesAreComparedInConstantTime(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
				return true
			}
			checked++
			for _, side := range []ast.Expr{be.X, be.Y} {
				if lit, ok := side.(*ast.BasicLit); ok && lit.Value == `""` {
					return true // emptiness is no secret
				}
				if call, ok := side.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "len" {
						return true // a token's length is public
					}
				}
			}
			for _, side := range []ast.Expr{be.X, be.Y} {
				name := strings.ToLower(string(src[fset.Position(side.Pos()).Offset:fset.Position(side.End()).Offset]))
				for _, w := range []string{"hash", "secret", "token", "value"} {
					if strings.Contains(name, w) {
						t.Errorf("%s: %s compared with %s; use sameHash", fset.Position(be.Pos()), name, be.Op)
					}
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no comparisons found: the test reads nothing")
	}
}

func TestRoles(t *testing.T) {
	for _, s := range []string{"admin", "Analyst", " viewer "} {
		if _, err := ParseRole(s); err != nil {
			t.Errorf("ParseRole(%q): %v", s, err)
		}
	}
	if _, err := ParseRole("owner"); quarry.KindOf(err) != quarry.KindUsage {
		t.Errorf("ParseRole(owner): %v", err)
	}
	for _, tt := range []struct {
		p    Person
		conn string
		want bool
	}{
		{Person{Name: "a", Role: Admin, Connections: []string{"x"}}, "y", true},
		{Person{Name: "b", Role: Analyst}, "y", true},
		{Person{Name: "b", Role: Analyst, Connections: []string{"x", "y"}}, "y", true},
		{Person{Name: "b", Role: Analyst, Connections: []string{"x"}}, "y", false},
		{Person{Name: "v", Role: Viewer}, "y", false},
		{Person{Name: "?", Role: "owner"}, "y", false},
	} {
		if got, why := tt.p.MayStart(tt.conn); got != tt.want || (why == "") != got {
			t.Errorf("%+v MayStart(%s) = %v, %q", tt.p, tt.conn, got, why)
		}
	}
}
