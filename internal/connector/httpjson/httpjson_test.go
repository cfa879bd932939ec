package httpjson

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func open(t *testing.T, u string, mod func(*Options)) *Conn {
	t.Helper()
	o := Options{Name: "svc", URL: u, Headers: map[string]string{"Authorization": "Bearer s3cret-token"}}
	if mod != nil {
		mod(&o)
	}
	c, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func collect(t *testing.T, rs quarry.Rows) [][]any {
	t.Helper()
	var out [][]any
	for rs.Next() {
		out = append(out, append([]any(nil), rs.Values()...))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestQuerySendsSQLAndHeaders(t *testing.T) {
	var calls int
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		var body struct{ SQL string }
		json.NewDecoder(r.Body).Decode(&body)
		if r.Method != http.MethodPost || body.SQL != "SELECT 1" || r.Header.Get("Authorization") != "Bearer s3cret-token" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad request", 400)
			return
		}
		io.WriteString(w, `{"result":{"data":[{"a":1,"b":"x"},{"a":2,"b":null},{"a":3,"b":"z"}]}}`)
	})
	c := open(t, s.URL, nil)
	if c.Dialect() != quarry.DialectGeneric {
		t.Errorf("Dialect = %q, want any", c.Dialect())
	}
	rs, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{MaxRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, rs)
	if len(got) != 2 || got[0][0] != int64(1) || got[1][1] != nil {
		t.Errorf("rows = %v", got)
	}
	if !rs.(connector.Truncator).Truncated() {
		t.Error("MaxRows did not report truncation")
	}
	if cols := rs.Columns(); len(cols) != 2 || cols[0].Type != quarry.TypeInt {
		t.Errorf("columns = %v", cols)
	}
	if calls != 1 {
		t.Errorf("calls = %d", calls)
	}
}

func TestQueryErrors(t *testing.T) {
	cases := []struct {
		name, body, want string
		status           int
		kind             quarry.Kind
	}{
		{"json error", `{"error":"no such table: x\nLINE 1"}`, "the service reported an error: no such table: x LINE 1", 200, quarry.KindQuery},
		{"json error non-2xx", `{"error":{"message":"relation \"x\" does not exist"}}`, `HTTP 400: relation "x" does not exist`, 400, quarry.KindQuery},
		{"html", "<html><body>oops</body></html>", "not a result table", 200, quarry.KindQuery},
		{"text error", "syntax error at or near \"FORM\"", `HTTP 500: syntax error at or near "FORM"`, 500, quarry.KindQuery},
		{"mcp isError", `{"content":[{"type":"text","text":"Error: permission denied"}],"isError":true}`, "permission denied", 200, quarry.KindQuery},
		{"garbage", "\x00\x01 not a table", "binary data", 200, quarry.KindQuery},
		{"non-utf8", "a,b\n\xff\xfe,1\n", "not UTF-8", 200, quarry.KindQuery},
		{"long", `{"error":"` + strings.Repeat("é", 1000) + `"}`, "…", 200, quarry.KindQuery},
		{"empty 204", "", "empty body", 204, quarry.KindQuery},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			_, err := open(t, s.URL, nil).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if quarry.KindOf(err) != tc.kind || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "s3cret") || len(msg) > 500 {
				t.Errorf("err = %v (%s), want %s containing %q on one short line", msg, quarry.KindOf(err), tc.kind, tc.want)
			}
		})
	}
}

func TestQueryCapsTheResponse(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "n\n")
		for range 10000 {
			io.WriteString(w, "123456789\n")
		}
	})
	_, err := open(t, s.URL, func(o *Options) { o.MaxBytes = 1000 }).Query(context.Background(), "SELECT n", connector.QueryOptions{})
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Fatalf("err = %v, want the cap", err)
	}
}

func TestQueryTimeout(t *testing.T) {
	release := make(chan struct{})
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	start := time.Now()
	_, err := open(t, s.URL, nil).Query(context.Background(), "SELECT 1", connector.QueryOptions{Timeout: 100 * time.Millisecond})
	if quarry.KindOf(err) != quarry.KindTimeout || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v, want a timeout", err)
	}
}

func TestUnreachableHidesTheURL(t *testing.T) {
	c := open(t, "http://user:pa55word@127.0.0.1:1/q?key=abc", nil)
	_, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	if quarry.KindOf(err) != quarry.KindConnection || strings.Contains(err.Error(), "pa55word") || strings.Contains(err.Error(), "key=abc") {
		t.Fatalf("err = %v", err)
	}
	if id := c.Identity(); id.Target != "http://127.0.0.1:1" {
		t.Errorf("identity %v shows the password", id)
	}
}

func TestOpenRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "not a url", "http://"} {
		if _, err := Open(context.Background(), Options{Name: "svc", URL: u}); quarry.KindOf(err) != quarry.KindConfig {
			t.Errorf("Open(%q) = %v, want a config error", u, err)
		}
	}
}

func TestCatalogThroughQueries(t *testing.T) {
	var seen string
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		var body struct{ SQL string }
		json.NewDecoder(r.Body).Decode(&body)
		seen = body.SQL
		io.WriteString(w, `{"columns":["table_schema","table_name","table_type","column_name","data_type","is_nullable","is_pk"],
"rows":[["public","orders","BASE TABLE","id","integer","NO",0],["public","orders","BASE TABLE","amount","numeric","YES",0],["public","v","VIEW","n","bigint","YES",0]]}`)
	})
	cat, err := open(t, s.URL, func(o *Options) { o.Dialect = quarry.DialectPostgres }).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(seen, "information_schema.columns") {
		t.Errorf("catalog SQL = %s", seen)
	}
	if len(cat.Tables) != 2 || cat.Tables[0].Name != "orders" || len(cat.Tables[0].Columns) != 2 || cat.Tables[0].Columns[1].Type != quarry.TypeDecimal || cat.Tables[0].Columns[0].Nullable || !cat.Tables[1].View {
		t.Errorf("catalog = %+v", cat)
	}
	if !strings.Contains(connector.CatalogSQL(quarry.DialectSQLite), "pragma_table_info") {
		t.Error("sqlite catalog query does not use pragma_table_info")
	}
}

func TestCatalogFromSchemaEndpoint(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/schema" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `{"tables":[{"name":"orders","row_count":-1,"columns":[{"name":"id","decl_type":"INTEGER"}]}]}`)
	})
	cat, err := open(t, s.URL+"/sql", func(o *Options) { o.SchemaURL = s.URL + "/schema"; o.Dialect = quarry.DialectSQLite }).Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cat.Dialect != quarry.DialectSQLite || len(cat.Tables) != 1 || cat.Tables[0].Columns[0].Type != quarry.TypeInt {
		t.Errorf("catalog = %+v", cat)
	}
}

func TestQuerySizeLimits(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"columns":["n","big"],"rows":[`)
		for i := range 10 {
			if i > 0 {
				io.WriteString(w, ",")
			}
			io.WriteString(w, `[`+strconv.Itoa(i)+`,"`+strings.Repeat("x", 5000)+`"]`)
		}
		io.WriteString(w, `]}`)
	})
	c := open(t, s.URL, nil)
	rs, err := c.Query(context.Background(), "SELECT n, big", connector.QueryOptions{MaxValueBytes: 5000, MaxResultBytes: 60000})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, rs); len(got) != 10 {
		t.Errorf("%d rows", len(got))
	}
	_, err = c.Query(context.Background(), "SELECT n, big", connector.QueryOptions{MaxValueBytes: 4999})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(err.Error(), `column "big" holds a value of 5000 bytes, over limits.max_value_bytes (4999)`) {
		t.Errorf("value over: %v", err)
	}
	_, err = c.Query(context.Background(), "SELECT n, big", connector.QueryOptions{MaxResultBytes: 20000})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(err.Error(), "limits.max_result_bytes (20000 bytes)") {
		t.Errorf("result over: %v", err)
	}
}
