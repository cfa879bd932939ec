package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ProbeReadOnly checks that the handle refuses writes. It sends each probe
// straight to SQLite, past Query's own checks, so that the layers beneath
// (read-only open, query_only, authorizer, limits) are what refuse it:
// CREATE TABLE, INSERT into an existing table, VACUUM INTO a fresh
// temporary path, ATTACH of a temporary file, and PRAGMA query_only=0
// followed by an INSERT. The temporary paths are removed afterwards and
// query_only is set again, so the probe cannot leave anything behind. Each
// result says whether the write was refused and SQLite's message.
func (c *Conn) ProbeReadOnly(ctx context.Context) (results []connector.ProbeResult, err error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	defer c.release()
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	c.db.SetInterrupt(ctx)
	defer c.db.SetInterrupt(context.Background())

	dir, err := os.MkdirTemp("", "quarry-probe-")
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot create a temporary directory for the read-only probe; check the temporary directory")
	}
	defer os.RemoveAll(dir)
	defer func() {
		if rerr := c.restoreQueryOnly(); rerr != nil && err == nil {
			results, err = nil, rerr
		}
	}()

	table := "sqlite_schema"
	c.auth.internal = true
	err = c.internal(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name LIMIT 1`, nil, func(s *sqlite3.Stmt) {
		table = s.ColumnText(0)
	})
	c.auth.internal = false
	if err != nil {
		return nil, err
	}

	var out []connector.ProbeResult
	ro, unknown := c.db.ReadOnly("main")
	handle := connector.ProbeResult{Name: "read-only handle", Refused: ro && !unknown, Detail: "the database file is open read-only"}
	if !handle.Refused {
		handle.Detail = "the database file is open for writing"
	}
	out = append(out, handle)

	insert := `INSERT INTO "` + strings.ReplaceAll(table, `"`, `""`) + `" DEFAULT VALUES`
	out = append(out, c.probe("CREATE TABLE", `CREATE TABLE quarry_probe (x INTEGER)`))
	out = append(out, c.probe("INSERT", insert))

	vacuum := filepath.Join(dir, "vacuum.db")
	r := c.probe("VACUUM INTO", `VACUUM INTO `+quoteLiteral(vacuum))
	if fi, err := os.Stat(vacuum); err == nil {
		if fi.Size() > 0 {
			r.Refused = false
		}
		r.Detail += fmt.Sprintf(" (a %d-byte file was left at the target and removed)", fi.Size())
	}
	out = append(out, r)

	out = append(out, c.probe("ATTACH", `ATTACH DATABASE `+quoteLiteral(filepath.Join(dir, "attach.db"))+` AS quarry_probe`))

	pragma := c.probe("PRAGMA query_only=0", `PRAGMA query_only=0`)
	write := c.probe("INSERT after PRAGMA query_only=0", insert)
	write.Name = "PRAGMA query_only=0 then INSERT"
	write.SQL = "PRAGMA query_only=0; " + insert
	write.Detail = "PRAGMA: " + pragma.Detail + "; INSERT: " + write.Detail
	out = append(out, write)
	return out, nil
}

// probe tries one write on the raw handle and reports whether SQLite
// refused it.
func (c *Conn) probe(name, sql string) connector.ProbeResult {
	r := connector.ProbeResult{Name: name, SQL: sql}
	stmt, _, err := c.db.Prepare(sql)
	if err != nil {
		r.Refused, r.Detail = true, "refused: "+sqliteMessage(err)
		return r
	}
	defer stmt.Close()
	if stmt.Step() || stmt.Err() == nil {
		r.Detail = "SQLite accepted the statement"
		return r
	}
	r.Refused, r.Detail = true, "refused: "+sqliteMessage(stmt.Err())
	return r
}

// restoreQueryOnly sets query_only again in case a probe turned it off. If
// that fails the handle is closed: it must not serve queries half-secured.
func (c *Conn) restoreQueryOnly() error {
	c.db.SetInterrupt(context.Background())
	err := c.db.SetAuthorizer(nil)
	if err == nil {
		err = c.db.Exec("PRAGMA query_only=1")
	}
	if err2 := c.db.SetAuthorizer(c.auth.authorize); err == nil {
		err = err2
	}
	if err != nil {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.db.Close()
		return quarry.Wrap(quarry.KindInternal, err, "the read-only probe could not restore the connection's protections; the connection was closed")
	}
	return nil
}

func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
