package mysql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/quarrydata/quarry/internal/connector"
	sqlmysql "github.com/quarrydata/quarry/internal/dialect/mysql"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ProbeReadOnly checks the layers that keep this connection from writing.
//
// First the account's grants (SHOW GRANTS, following granted roles one
// level at a time): one result each for write privileges (INSERT, UPDATE,
// DELETE, …), schema-change privileges (CREATE, DROP, ALTER, …, which the
// read-only transaction cannot stop, because MySQL commits DDL implicitly),
// FILE (SELECT … INTO OUTFILE), SUPER, PROCESS and any other administrative
// privilege. ALL PRIVILEGES counts in every group. Each is refused when the
// account does not hold it.
//
// Then writes that are tried, never DDL on a real table and never anything
// that could leave a file: in START TRANSACTION READ ONLY (Query's layer),
// CREATE TEMPORARY TABLE and, on the first table of the database, INSERT …
// SELECT … WHERE 1 = 0 (every column that is not generated, so that NOT
// NULL columns do not fail it), UPDATE … WHERE 1 = 0 and DELETE … WHERE
// 1 = 0, each
// under a savepoint; then the same writes in an ordinary transaction, to
// test the account alone. The WHERE 1 = 0 writes change no row even when
// they are accepted, every transaction is rolled back, and each probe
// session is discarded afterwards. A write counts as refused only when the
// server refuses it for read-only mode or a missing privilege.
func (c *Conn) ProbeReadOnly(ctx context.Context) ([]connector.ProbeResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err, 0)
	}
	out, err := c.probeGrants(ctx)
	if err != nil {
		return nil, err
	}
	target, err := c.probeTarget(ctx)
	if err != nil {
		return nil, err
	}
	for _, readOnly := range []bool{true, false} {
		rs, err := c.probeWrites(ctx, target, readOnly)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// probeTable is the table and column the write probes aim at.
type probeTable struct {
	table   string   // quoted; "" when the database has no table
	columns []string // quoted, those that are not generated
}

// probeTarget picks the first base table of the database (or of any
// non-system schema) and its columns that are not generated.
func (c *Conn) probeTarget(ctx context.Context) (probeTable, error) {
	where := "c.TABLE_SCHEMA = DATABASE()"
	if c.database == "" {
		where = "c.TABLE_SCHEMA NOT IN " + systemSchemas
	}
	rs, err := c.db.QueryContext(ctx, `SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME
		FROM information_schema.COLUMNS c
		JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
		WHERE `+where+` AND t.TABLE_TYPE = 'BASE TABLE' AND c.EXTRA NOT LIKE '%GENERATED%'
		ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`)
	if err != nil {
		return probeTable{}, c.catalogError(ctx, err)
	}
	defer rs.Close()
	var first [2]string
	var pt probeTable
	for rs.Next() {
		var schema, table, column string
		if err := rs.Scan(&schema, &table, &column); err != nil {
			return probeTable{}, c.catalogError(ctx, err)
		}
		if pt.table == "" {
			first = [2]string{schema, table}
			pt.table = quoteIdent(schema) + "." + quoteIdent(table)
		} else if first != [2]string{schema, table} {
			break
		}
		pt.columns = append(pt.columns, quoteIdent(column))
	}
	if err := rs.Err(); err != nil {
		return probeTable{}, c.catalogError(ctx, err)
	}
	return pt, nil
}

// probeWrites tries the write probes in one session, in a READ ONLY
// transaction or an ordinary one, and always rolls back and discards the
// session.
func (c *Conn) probeWrites(ctx context.Context, t probeTable, readOnly bool) (out []connector.ProbeResult, err error) {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, err, 0)
		}
		return nil, c.connectError(ctx, err)
	}
	defer func() {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = conn.Close()
	}()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: readOnly})
	if err != nil {
		return nil, c.queryError(err)
	}
	defer tx.Rollback()

	where := " in the read-only transaction"
	if !readOnly {
		where = " by the account (ordinary transaction)"
	}
	try := func(name, stmt string) error {
		r := connector.ProbeResult{Name: name + where, SQL: stmt}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT quarry_probe"); err != nil {
			return c.probeError(ctx, err)
		}
		_, werr := tx.ExecContext(ctx, stmt)
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT quarry_probe"); err != nil {
			return c.probeError(ctx, err)
		}
		if ctx.Err() != nil {
			return ctxError(ctx, ctx.Err(), 0)
		}
		r.Refused, r.Detail = c.judge(werr, name)
		out = append(out, r)
		return nil
	}
	if err := try("CREATE TEMPORARY TABLE", "CREATE TEMPORARY TABLE quarry_probe (x INT)"); err != nil {
		return nil, err
	}
	if t.table != "" {
		cols := strings.Join(t.columns, ", ")
		if err := try("INSERT", "INSERT INTO "+t.table+" ("+cols+") SELECT "+cols+" FROM "+t.table+" WHERE 1 = 0"); err != nil {
			return nil, err
		}
		if err := try("UPDATE", "UPDATE "+t.table+" SET "+t.columns[0]+" = "+t.columns[0]+" WHERE 1 = 0"); err != nil {
			return nil, err
		}
		if err := try("DELETE", "DELETE FROM "+t.table+" WHERE 1 = 0"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// judge says whether a probe write was refused for the right reason.
func (c *Conn) judge(err error, name string) (bool, string) {
	if err == nil {
		what := "it changed no row by construction and was rolled back"
		if name == "CREATE TEMPORARY TABLE" {
			what = "the table vanished with the discarded session"
		}
		return false, "the server accepted the write (" + what + "); give quarry an account that holds SELECT only"
	}
	var me *gomysql.MySQLError
	if errors.As(err, &me) {
		msg := c.serverName() + " " + itoa(int64(me.Number)) + ": " + oneLine(me.Message)
		switch me.Number {
		case 1792, 1290, 1836, 1142, 1143, 1044, 1227, 1370:
			return true, "refused: " + msg
		}
		return false, "failed for another reason, so the probe cannot tell whether a write would be refused: " + msg
	}
	return false, "failed for another reason: " + oneLine(err.Error())
}

func (c *Conn) probeError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx, err, 0)
	}
	e := c.queryError(err)
	if qe, ok := e.(*quarry.Error); ok {
		qe.Msg = "the read-only probe failed: " + qe.Msg
	}
	return e
}

// ReadOnlyRoleSQL returns the statements that create an account for quarry
// that can only read the connected database: SELECT and SHOW VIEW, nothing
// else. Replace the password before running them as an administrator.
func (c *Conn) ReadOnlyRoleSQL() string {
	db := "`your_database`"
	if c.database != "" {
		db = quoteIdent(c.database)
	}
	limits := "WITH MAX_USER_CONNECTIONS 10"
	if c.flavor == FlavorMariaDB {
		limits += " MAX_STATEMENT_TIME 300"
	}
	return strings.Join([]string{
		"-- A " + c.serverName() + " account for quarry that can only read " + db + ".",
		"-- MySQL commits DDL implicitly, even inside a READ ONLY transaction, so only the",
		"-- account's privileges stop it: grant nothing beyond SELECT and SHOW VIEW (no INSERT,",
		"-- UPDATE, DELETE, CREATE, DROP, ALTER, CREATE TEMPORARY TABLES, LOCK TABLES, EXECUTE,",
		"-- FILE, PROCESS or SUPER).",
		"CREATE USER 'quarry_reader'@'%' IDENTIFIED BY 'choose-a-password' " + limits + ";",
		"GRANT SELECT, SHOW VIEW ON " + db + ".* TO 'quarry_reader'@'%';",
	}, "\n") + "\n"
}

// quoteIdent quotes a MySQL identifier with backticks.
func quoteIdent(s string) string { return sqlmysql.Dialect{}.QuoteIdent(s) }
