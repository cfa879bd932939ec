package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ProbeReadOnly checks that the configured role itself refuses writes,
// whatever the executor's transaction does. It first reports
// transaction_read_only inside the executor's own transaction (a pooler
// can lose it), then runs each probe write in a READ WRITE transaction,
// each under a savepoint that is rolled back, and the whole transaction
// rolled back at the end, so that the probes test the role's privileges,
// not the READ ONLY transaction: CREATE TEMP TABLE; INSERT, UPDATE and
// DELETE of one real row of a visible table; CREATE TABLE in a schema;
// pg_read_file; lo_import; COPY TO a server file (/dev/null); SET ROLE to
// each granted role; dblink_connect when the extension exists. A probe
// counts as refused only when PostgreSQL answers with a privilege or
// read-only error. With a superuser the writes succeed and are rolled
// back: that is what the probe reports. nextval is not called, since no
// ROLLBACK undoes it: the sequence privileges are read instead. The probe
// connection is closed afterwards, so no session state survives.
func (c *Conn) ProbeReadOnly(ctx context.Context) ([]connector.ProbeResult, error) {
	var out []connector.ProbeResult
	ro, err := c.probeExecutorTx(ctx)
	if err != nil {
		return nil, err
	}
	out = append(out, ro)

	pc, err := c.pool.acquire(ctx)
	if err != nil {
		return nil, c.connectError(ctx, err)
	}
	defer c.pool.release(pc, false)
	tx, err := pc.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadWrite})
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
		tx.Rollback(rctx)
		cancel()
	}()
	if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = '10s'; SET LOCAL lock_timeout = '2s'"); err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	p := &prober{ctx: ctx, tx: tx}
	var facts struct {
		table, column, schema, seq string
		dblink                     bool
		roles                      []string
	}
	err = tx.QueryRow(ctx, `SELECT
		coalesce((SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
		    AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.reltuples > 0 DESC, n.nspname, c.relname LIMIT 1), ''),
		coalesce((SELECT format('%I', a.attname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' AND a.attidentity = ''
		  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
		    AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.reltuples > 0 DESC, n.nspname, c.relname, a.attnum LIMIT 1), ''),
		coalesce((SELECT format('%I', nspname) FROM pg_namespace WHERE nspname = 'public'),
		         (SELECT format('%I', nspname) FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\_%' ORDER BY nspname LIMIT 1), 'public'),
		coalesce((SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		  WHERE c.relkind = 'S' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
		  ORDER BY has_sequence_privilege(c.oid, 'USAGE') OR has_sequence_privilege(c.oid, 'UPDATE') DESC, n.nspname, c.relname LIMIT 1), ''),
		EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'dblink'),
		array(SELECT r.rolname::text FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid
		  WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = current_user) ORDER BY r.rolname)`).
		Scan(&facts.table, &facts.column, &facts.schema, &facts.seq, &facts.dblink, &facts.roles)
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}

	out = append(out, p.try("CREATE TEMP TABLE", "CREATE TEMP TABLE quarry_probe_tmp (x integer)"))
	if facts.table == "" {
		for _, verb := range []string{"INSERT", "UPDATE", "DELETE"} {
			out = append(out, connector.ProbeResult{Name: verb, Refused: true, Detail: "skipped: the role can see no table"})
		}
	} else {
		t := facts.table
		out = append(out,
			p.try("INSERT", "INSERT INTO "+t+" OVERRIDING SYSTEM VALUE SELECT * FROM "+t+" LIMIT 1"),
			p.try("DELETE", "DELETE FROM "+t+" WHERE ctid = (SELECT ctid FROM "+t+" LIMIT 1)"))
		if facts.column != "" {
			out = append(out, p.try("UPDATE", "UPDATE "+t+" SET "+facts.column+" = "+facts.column+" WHERE ctid = (SELECT ctid FROM "+t+" LIMIT 1)"))
		}
	}
	out = append(out, p.try("CREATE TABLE", "CREATE TABLE "+facts.schema+".quarry_probe (x integer)"))
	if facts.seq == "" {
		out = append(out, connector.ProbeResult{Name: "nextval", Refused: true, Detail: "skipped: the role can see no sequence"})
	} else {
		sql := "SELECT has_sequence_privilege('" + strings.ReplaceAll(facts.seq, "'", "''") + "', 'USAGE') OR has_sequence_privilege('" + strings.ReplaceAll(facts.seq, "'", "''") + "', 'UPDATE')"
		r := connector.ProbeResult{Name: "nextval", SQL: sql}
		var may bool
		if err := tx.QueryRow(ctx, sql).Scan(&may); err != nil {
			return nil, c.queryError(ctx, err, 0)
		}
		r.Refused = !may
		if may {
			r.Detail = "the role may call nextval on " + facts.seq + " (read from its privileges: no ROLLBACK undoes nextval, so it is not called)"
		} else {
			r.Detail = "refused: the role has neither USAGE nor UPDATE on " + facts.seq
		}
		out = append(out, r)
	}
	out = append(out,
		p.try("pg_read_file", "SELECT pg_read_file('postgresql.conf', 0, 1)"),
		p.try("lo_import", "SELECT lo_import('/dev/null')"),
		p.try("COPY TO a server file", "COPY (SELECT 1) TO '/dev/null'"))
	readOnlyRoles := map[string]bool{"pg_read_all_data": true, "pg_read_all_settings": true, "pg_read_all_stats": true, "pg_stat_scan_tables": true, "pg_monitor": true, "pg_database_owner": true}
	tried := false
	for _, role := range facts.roles {
		if readOnlyRoles[role] {
			continue
		}
		tried = true
		out = append(out, p.try("SET ROLE "+role, "SET ROLE "+pgx.Identifier{role}.Sanitize()))
	}
	if !tried {
		out = append(out, connector.ProbeResult{Name: "SET ROLE", Refused: true, Detail: "skipped: the role is a member of no role that could write"})
	}
	if facts.dblink {
		out = append(out, p.try("dblink_connect", "SELECT dblink_connect('quarry_probe', 'dbname=' || current_database()), dblink_disconnect('quarry_probe')"))
	}
	if p.err != nil {
		return nil, c.queryError(ctx, p.err, 0)
	}
	return out, nil
}

// probeExecutorTx reports transaction_read_only inside the transaction
// Query uses.
func (c *Conn) probeExecutorTx(ctx context.Context) (connector.ProbeResult, error) {
	r := connector.ProbeResult{Name: "READ ONLY transaction", SQL: "SHOW transaction_read_only"}
	t, err := c.begin(ctx, 0, "")
	if err != nil {
		if quarry.KindOf(err) == quarry.KindConnection && strings.Contains(err.Error(), "transaction_read_only") {
			r.Detail = quarry.Message(err)
			return r, nil
		}
		return r, c.queryError(ctx, err, 0)
	}
	var v string
	err = t.tx.QueryRow(ctx, r.SQL).Scan(&v)
	c.end(t, err != nil)
	if err != nil {
		return r, c.queryError(ctx, err, 0)
	}
	r.Refused = v == "on"
	r.Detail = "transaction_read_only is " + v + " in the executor's transaction"
	return r, nil
}

// prober runs probe writes under savepoints of one READ WRITE transaction.
type prober struct {
	ctx context.Context
	tx  pgx.Tx
	err error // a failure of the probe machinery itself
}

// refused reports whether a SQLSTATE means "not allowed": insufficient
// privilege, read-only transaction, and (dblink) a password required.
func refused(code string) bool {
	return code == "42501" || code == "25006" || code == "2F003"
}

func (p *prober) try(name, sql string) connector.ProbeResult {
	r := connector.ProbeResult{Name: name, SQL: sql}
	if p.err != nil {
		r.Detail = "not run"
		return r
	}
	sp, err := p.tx.Begin(p.ctx)
	if err != nil {
		p.err = err
		r.Detail = "not run"
		return r
	}
	_, err = sp.Exec(p.ctx, sql)
	if rerr := sp.Rollback(p.ctx); rerr != nil && p.err == nil {
		p.err = rerr
	}
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		r.Detail = "PostgreSQL allowed it (then rolled back); a read-only role must not be able to"
	case errors.As(err, &pgErr) && refused(pgErr.Code):
		r.Refused = true
		r.Detail = "refused: " + pgErr.Message
	case errors.As(err, &pgErr):
		r.Detail = fmt.Sprintf("not refused for lack of privilege: %s (SQLSTATE %s); the role may be able to do this", pgErr.Message, pgErr.Code)
	default:
		if p.err == nil {
			p.err = err
		}
		r.Detail = "failed: " + err.Error()
	}
	return r
}

// ReadOnlyRoleSQL returns SQL that creates a proper read-only role for
// this database: LOGIN with no other attribute, read-only by default,
// CONNECT, USAGE and SELECT on every user schema seen at Open (and on
// future tables), and no temporary tables.
func (c *Conn) ReadOnlyRoleSQL() string {
	db := pgx.Identifier{c.database}.Sanitize()
	var b strings.Builder
	fmt.Fprintf(&b, "-- A read-only role for quarry on database %s. Run as a superuser or the database owner,\n", db)
	b.WriteString("-- choose a password, then put the role in the connection URL.\n")
	b.WriteString("CREATE ROLE quarry_reader LOGIN PASSWORD 'choose-a-password'\n")
	b.WriteString("  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;\n")
	b.WriteString("ALTER ROLE quarry_reader SET default_transaction_read_only = on;\n")
	fmt.Fprintf(&b, "GRANT CONNECT ON DATABASE %s TO quarry_reader;\n", db)
	b.WriteString("-- Every role may create temporary tables unless this is revoked; grant TEMPORARY\n")
	b.WriteString("-- back to the roles that need it.\n")
	fmt.Fprintf(&b, "REVOKE TEMPORARY ON DATABASE %s FROM PUBLIC;\n", db)
	schemas := c.schemas
	if len(schemas) == 0 {
		schemas = []string{"public"}
	}
	for _, s := range schemas {
		q := pgx.Identifier{s}.Sanitize()
		fmt.Fprintf(&b, "GRANT USAGE ON SCHEMA %s TO quarry_reader;\n", q)
		fmt.Fprintf(&b, "GRANT SELECT ON ALL TABLES IN SCHEMA %s TO quarry_reader;\n", q)
		fmt.Fprintf(&b, "ALTER DEFAULT PRIVILEGES IN SCHEMA %s GRANT SELECT ON TABLES TO quarry_reader; -- for tables the running role creates later\n", q)
	}
	b.WriteString("-- PostgreSQL 14 and earlier let every role create tables in public:\n")
	b.WriteString("REVOKE CREATE ON SCHEMA public FROM PUBLIC;\n")
	return b.String()
}
