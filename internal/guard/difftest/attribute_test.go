package difftest

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

// TestPostgresAttributeNotation shows on the real server that PostgreSQL's
// attribute notation is a function call ((x).f and t.f run f(x) and f(t)),
// with harmless functions, in every spelling the guard must see through,
// and that the guard decides each as the call it is: allowed when the
// function is on the allow-list, rejected otherwise.
func TestPostgresAttributeNotation(t *testing.T) {
	t.Parallel()
	url := serverEnv(t, "QUARRY_TEST_POSTGRES_URL")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	defer conn.Close(ctx)
	g, err := guard.New(sqlguard.Options{Dialect: quarry.DialectPostgres})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// textlen and hash_record are read-only built-ins that are not on the
	// allow-list; length, upper and row_to_json are on it.
	tests := []struct {
		sql, want string
		allowed   bool
	}{
		{"SELECT (' x'::text).length", "2", true},
		{"SELECT ('ab'::text).upper", "AB", true},
		{"SELECT g.upper FROM unnest(ARRAY['a']) g", "A", true},
		{"SELECT t.row_to_json::text FROM (SELECT 1 AS a) t", `{"a":1}`, true},
		{"SELECT ('x'::text).textlen", "1", false},
		{"SELECT ('x'::text).\"textlen\"", "1", false},
		{"SELECT ( 'x'::text ) . textlen", "1", false},
		{"SELECT (('x'::text)).textlen", "1", false},
		{"SELECT (ARRAY['x'::text])[1].textlen", "1", false},
		{"SELECT ('x'::text COLLATE \"C\").textlen", "1", false},
		{"SELECT (v.column1).textlen FROM (VALUES ('x'::text)) v", "1", false},
		{"SELECT (s.p).textlen FROM (SELECT 'x'::text AS p) s", "1", false},
		{"SELECT (p).textlen FROM (SELECT 'x'::text AS p) s", "1", false},
		{"WITH c AS (SELECT 'x'::text AS p) SELECT (c.p).textlen FROM c", "1", false},
		{"SELECT (l.p).textlen FROM (SELECT 1) o, LATERAL (SELECT 'x'::text AS p) l", "1", false},
		{"SELECT ((SELECT 'x'::text)).textlen", "1", false},
		{"SELECT g.textlen FROM unnest(ARRAY['x']) g", "1", false},
		{"SELECT unnest.textlen FROM unnest(ARRAY['x'])", "1", false},
		{"SELECT g.textlen FROM CAST('x' AS text) AS g", "1", false},
		{"SELECT t.hash_record IS NOT NULL FROM (SELECT 1 AS a) t", "true", false},
		{"SELECT c.hash_record IS NOT NULL FROM pg_class c LIMIT 1", "true", false},
		{"SELECT pg_catalog.pg_class.hash_record IS NOT NULL FROM pg_catalog.pg_class LIMIT 1", "true", false},
	}
	for _, tt := range tests {
		got, err := readOnlyValue(ctx, conn, tt.sql)
		if err != nil {
			t.Errorf("%q on the server: %v", tt.sql, err)
		} else if got != tt.want {
			t.Errorf("%q on the server: got %q, want %q", tt.sql, got, tt.want)
		}
		v := g.Check(ctx, tt.sql)
		if v.Allowed != tt.allowed && (pgparse.Available() || v.Allowed) {
			t.Errorf("%q: the guard's allowed=%v, want %v: %v", tt.sql, v.Allowed, tt.allowed, v)
		}
	}
}

// readOnlyValue runs sql in a read-only transaction that it rolls back and
// returns the first column of the first row as text.
func readOnlyValue(ctx context.Context, conn *pgx.Conn, sql string) (string, error) {
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	if !rows.Next() {
		return "", fmt.Errorf("no row: %v", rows.Err())
	}
	vals, err := rows.Values()
	if err != nil {
		return "", err
	}
	return fmt.Sprint(vals[0]), nil
}
