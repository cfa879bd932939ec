//go:build duckdb

package duckdb

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ProbeReadOnly checks that the database handle refuses writes and cannot
// reach outside the file. It sends each probe straight to DuckDB, past
// Query's own checks, so that the layers beneath (the READ_ONLY open, the
// closed external access, the locked configuration) are what refuse it:
// CREATE TABLE, INSERT into an existing table, COPY … TO a fresh
// temporary path, ATTACH of a temporary file, INSTALL of an extension,
// reading a file outside the database with read_blob, and SET of access_mode,
// enable_external_access and lock_configuration. The temporary paths are
// removed afterwards. Each result says whether the write was refused and
// DuckDB's message.
func (c *Conn) ProbeReadOnly(ctx context.Context) ([]connector.ProbeResult, error) {
	if err := c.acquire(); err != nil {
		return nil, err
	}
	defer c.release()
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	dir, err := os.MkdirTemp("", "quarry-probe-")
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot create a temporary directory for the read-only probe; check the temporary directory")
	}
	defer os.RemoveAll(dir)

	// A file outside the database that DuckDB must not be able to read.
	outside := filepath.Join(dir, "outside.txt")
	if err := os.WriteFile(outside, []byte("outside\n"), 0o600); err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot write a temporary file for the read-only probe; check the temporary directory")
	}
	var mode string
	table := ""
	err = c.internal(ctx, `SELECT current_setting('access_mode'),
		coalesce((SELECT '"' || replace(schema_name, '"', '""') || '"."' || replace(table_name, '"', '""') || '"'
		  FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary AND NOT internal
		  ORDER BY schema_name, table_name LIMIT 1), '')`, func(row []driver.Value) error {
		mode, table = strings.ToLower(str(row[0])), str(row[1])
		return nil
	})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	var out []connector.ProbeResult
	handle := connector.ProbeResult{Name: "read-only handle", SQL: "SELECT current_setting('access_mode')", Refused: mode == "read_only",
		Detail: "the database file is open with access_mode=" + mode}
	out = append(out, handle)

	out = append(out, c.probe(ctx, "CREATE TABLE", `CREATE TABLE quarry_probe (x INTEGER)`))
	if table == "" {
		out = append(out, connector.ProbeResult{Name: "INSERT", Refused: true, Detail: "skipped: the database has no table"})
	} else {
		out = append(out, c.probe(ctx, "INSERT", "INSERT INTO "+table+" SELECT * FROM "+table+" LIMIT 1"))
	}

	copyTo := filepath.Join(dir, "copy.csv")
	r := c.probe(ctx, "COPY TO a file", "COPY (SELECT 1 AS x) TO "+quoteLiteral(copyTo))
	out = append(out, leftBehind(r, copyTo))

	attach := filepath.Join(dir, "attach.duckdb")
	r = c.probe(ctx, "ATTACH", "ATTACH "+quoteLiteral(attach)+" AS quarry_probe")
	if !r.Refused {
		c.probe(ctx, "DETACH", "DETACH quarry_probe")
	}
	out = append(out, leftBehind(r, attach))

	out = append(out,
		c.probe(ctx, "INSTALL extension", "INSTALL httpfs"),
		c.probe(ctx, "read a file", "SELECT size FROM read_blob("+quoteLiteral(outside)+")"),
		c.probe(ctx, "SET access_mode", "SET access_mode = 'READ_WRITE'"),
		c.probe(ctx, "SET enable_external_access", "SET enable_external_access = true"),
		c.probe(ctx, "SET lock_configuration", "SET lock_configuration = false"),
	)
	return out, nil
}

// leftBehind marks a probe as not refused when its target file appeared.
func leftBehind(r connector.ProbeResult, path string) connector.ProbeResult {
	if fi, err := os.Stat(path); err == nil {
		r.Refused = false
		r.Detail += fmt.Sprintf(" (a %d-byte file was left at the target and removed)", fi.Size())
	}
	return r
}

// probe tries one statement on the raw handle, reading any result to the
// end, and reports whether DuckDB refused it.
func (c *Conn) probe(ctx context.Context, name, sql string) connector.ProbeResult {
	r := connector.ProbeResult{Name: name, SQL: sql}
	err := c.run(ctx, sql)
	if err != nil {
		r.Refused, r.Detail = true, "refused: "+duckMessage(err)
		return r
	}
	r.Detail = "DuckDB accepted the statement"
	return r
}

func (c *Conn) run(ctx context.Context, sql string) error {
	st, err := c.prepare(sql)
	if err != nil {
		return err
	}
	defer st.Close()
	dr, err := st.QueryContext(ctx, nil)
	if err != nil {
		return err
	}
	defer dr.Close()
	row := make([]driver.Value, len(dr.Columns()))
	for {
		if err := dr.Next(row); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// ReadOnlyRoleSQL returns guidance for making the database file read-only
// for quarry. DuckDB has no roles or grants: quarry's protection is the
// READ_ONLY open with locked settings, and the operating system's file
// permissions are the layer beneath it.
func (c *Conn) ReadOnlyRoleSQL() string {
	p := shellQuote(c.path)
	var b strings.Builder
	b.WriteString("-- DuckDB has no roles or GRANT: a process that can write the file can change it.\n")
	b.WriteString("-- quarry opens it with access_mode=READ_ONLY and locked settings; for a layer beneath\n")
	b.WriteString("-- that, let quarry's user only read the file (shell commands, not SQL):\n")
	fmt.Fprintf(&b, "--   chmod a-w %s\n", p)
	b.WriteString("-- or give quarry a copy that no writer touches:\n")
	fmt.Fprintf(&b, "--   cp %s /srv/quarry/snapshot.duckdb && chmod 0444 /srv/quarry/snapshot.duckdb\n", p)
	b.WriteString("-- and run quarry as a user that owns neither the file nor its directory.\n")
	b.WriteString("-- A DuckDB file open for writing in another process cannot be read meanwhile.\n")
	return b.String()
}

func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
