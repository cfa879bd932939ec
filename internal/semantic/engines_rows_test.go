package semantic

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// querier runs a statement: a *sql.DB or one of its *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// textRows runs stmt on a server or file engine and returns its rows,
// each value written by text.
func textRows(t *testing.T, db querier, stmt string, text func(any) string) [][]string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%v\n%s", err, stmt)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = text(v)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// plainText writes a value as the driver gives it, NULL as "NULL".
func plainText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

// sqlRows runs stmt and returns its rows as text.
func sqlRows(t *testing.T, db querier, stmt string) [][]string {
	t.Helper()
	return textRows(t, db, stmt, plainText)
}

// collect runs q on one connection and returns its rows as text.
func collect(t *testing.T, conn *sql.Conn, q string) [][]string {
	t.Helper()
	return textRows(t, conn, q, plainText)
}

// engineRows runs stmt and writes its rows as the SQLite fixture test
// does: NULL, integers, numbers rounded to six decimals, and a midnight
// time as its day.
func engineRows(t *testing.T, db querier, stmt string) [][]string {
	t.Helper()
	return textRows(t, db, stmt, engineText)
}
