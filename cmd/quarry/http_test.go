package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/quarry"
)

// httpToken is the service's bearer token; it reaches quarry only through
// .env and must never be printed or stored.
const httpToken = "tok-9f8e7d-secret"

// sqlService answers POST /sql {"sql": ...} by running the statement on a
// SQLite file through quarry's read-only SQLite connector, and GET /schema
// with the connector's catalog.
func sqlService(t *testing.T, path string) (*httptest.Server, *[]string) {
	t.Helper()
	conn, err := sqlite.Open(context.Background(), path, sqlite.Options{Name: "svc"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var (
		mu   sync.Mutex
		seen []string
	)
	fail := func(w http.ResponseWriter, code int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+httpToken {
			fail(w, http.StatusUnauthorized, "missing or wrong token")
			return
		}
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/schema":
			cat, err := conn.Catalog(r.Context())
			if err != nil {
				fail(w, 500, err.Error())
				return
			}
			json.NewEncoder(w).Encode(cat)
		case r.Method == http.MethodPost && r.URL.Path == "/sql":
			var req struct {
				SQL string `json:"sql"`
			}
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				fail(w, 400, "body must be {\"sql\": ...}")
				return
			}
			seen = append(seen, req.SQL)
			rs, err := conn.Query(r.Context(), req.SQL, connector.QueryOptions{})
			if err != nil {
				fail(w, 400, quarry.Message(err))
				return
			}
			out := struct {
				Columns []string `json:"columns"`
				Rows    [][]any  `json:"rows"`
			}{Rows: [][]any{}}
			for _, c := range rs.Columns() {
				out.Columns = append(out.Columns, c.Name)
			}
			for rs.Next() {
				row := make([]any, len(rs.Values()))
				for i, v := range rs.Values() {
					row[i] = quarry.JSONValue(v)
				}
				out.Rows = append(out.Rows, row)
			}
			err = rs.Err()
			rs.Close()
			if err != nil {
				fail(w, 400, quarry.Message(err))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s, &seen
}

func httpProject(t *testing.T) (string, *[]string) {
	t.Helper()
	dir := project(t)
	s, seen := sqlService(t, filepath.Join(dir, "shop.db"))
	// The SQLite file moves out of the project: quarry reaches it only
	// through the service.
	yaml := "version: 1\nconnections:\n  shop:\n    driver: http\n    url: " + s.URL + "/sql\n    schema_url: " + s.URL + "/schema\n    dialect: sqlite\n    headers:\n      Authorization: Bearer ${SVC_TOKEN}\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SVC_TOKEN="+httpToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, seen
}

func TestHTTPConnectorRunAndAsk(t *testing.T) {
	dir, seen := httpProject(t)
	var outputs []string
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT id, name, country, signup_date FROM customers ORDER BY id")
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("run: exit %d: %s", r.code, r.stderr)
	}
	if want := "id,name,country,signup_date\n1,Ada,Germany,2025-01-03\n2,Linus,Finland,2025-02-11\n3,Grace,United States,\n"; r.stdout != want {
		t.Errorf("run stdout = %q, want %q", r.stdout, want)
	}

	// A write is refused by the guard before it reaches the service.
	before := len(*seen)
	r = quarryCmd(t, "", "-C", dir, "run", "DELETE FROM orders")
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code == 0 || len(*seen) != before {
		t.Errorf("DELETE: exit %d, service saw %v", r.code, (*seen)[before:])
	}
	oneLineError(t, r)

	// The service's own error comes back as one line.
	r = quarryCmd(t, "", "-C", dir, "run", "--no-fix", "SELECT nope FROM customers")
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code == 0 || !strings.Contains(r.stderr, "nope") {
		t.Errorf("bad column: exit %d, stderr %s", r.code, r.stderr)
	}

	r = quarryCmd(t, "", "-C", dir, "learn", "--quiet")
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("learn: exit %d: %s", r.code, r.stderr)
	}
	r = quarryCmd(t, "", "-C", dir, "ask", "--json", "how many orders")
	outputs = append(outputs, r.stdout, r.stderr)
	var got struct {
		Rows [][]any `json:"rows"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got.Rows) != 1 || got.Rows[0][0] != float64(5000) {
		t.Fatalf("ask: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// The token is never printed, nor written anywhere in the project
	// besides the .env it came from.
	for _, o := range outputs {
		if strings.Contains(o, httpToken) {
			t.Errorf("output reveals the token: %s", o)
		}
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".env" {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), httpToken) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
}
