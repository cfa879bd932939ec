package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/connector"
)

var _ connector.RoleChecker = (*Conn)(nil)

// privilegesTimeout bounds the role check's catalog queries.
const privilegesTimeout = 15 * time.Second

// unsafeRoles are the predefined roles a role for quarry must not be a
// member of, directly or through other roles, with why. pg_monitor is
// listed for its own sake; it also makes its members members of
// pg_read_all_stats.
var unsafeRoles = [][2]string{
	{"pg_read_server_files", "reads any file the server can read"},
	{"pg_write_server_files", "writes files on the server"},
	{"pg_execute_server_program", "runs programs on the server"},
	{"pg_write_all_data", "writes every table"},
	{"pg_signal_backend", "cancels and terminates other roles' sessions"},
	{"pg_checkpoint", "forces checkpoints"},
	{"pg_monitor", "reads other sessions' SQL"},
	{"pg_read_all_stats", "reads other sessions' SQL, which can carry data and passwords"},
	{"pg_create_subscription", "creates subscriptions that write"},
	{"pg_maintain", "vacuums, reindexes, refreshes and locks every table"},
	{"pg_signal_autovacuum_worker", "signals autovacuum workers"},
	{"pg_use_reserved_connections", "takes the connections reserved for administrators"},
}

// unsafeFunctions are functions that reach outside the database (other
// servers, the server's files) or administer the server; by default only
// superusers may call them (dblink's, which PUBLIC may call, excepted).
// Functions that PUBLIC may call and that check the caller themselves
// (the replication slot functions need REPLICATION, which is checked as
// an attribute) are left out, so that every role is not reported.
var unsafeFunctions = []string{
	"dblink", "dblink_exec", "dblink_connect", "dblink_connect_u", "dblink_open", "dblink_send_query",
	"lo_import", "lo_export",
	"pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file",
	"pg_file_write", "pg_file_sync", "pg_file_rename", "pg_file_unlink", "pg_logdir_ls",
	"pg_ls_logdir", "pg_ls_waldir", "pg_ls_tmpdir", "pg_ls_archive_statusdir",
	"pg_ls_logicalsnapdir", "pg_ls_logicalmapdir", "pg_ls_replslotdir",
	"pg_reload_conf", "pg_rotate_logfile", "pg_promote", "pg_switch_wal", "pg_create_restore_point",
	"pg_start_backup", "pg_stop_backup", "pg_backup_start", "pg_backup_stop",
	"pg_replication_origin_create", "pg_replication_origin_drop",
	"pg_wal_replay_pause", "pg_wal_replay_resume", "pg_log_backend_memory_contexts",
}

// Privileges reads what the connected role could do beyond reading, in
// the executor's own READ ONLY transaction on one pooled session: the
// role attributes SUPERUSER, CREATEROLE, CREATEDB, BYPASSRLS and
// REPLICATION; membership in the predefined roles of unsafeRoles; INSERT,
// UPDATE (on any column), DELETE, TRUNCATE, TRIGGER (and MAINTAIN on
// PostgreSQL 17 and later) on any table, view, materialized view or
// foreign table, and USAGE or UPDATE on any sequence (nextval); CREATE on
// the database or on any schema; EXECUTE on the functions of
// unsafeFunctions in a schema the role may use; USAGE on a foreign-data
// wrapper or foreign server. Every privilege is read for the session
// user, the current user and every role either is a member of (SET ROLE
// reaches them even without INHERIT). TEMPORARY on the database is a
// note, not a problem: temporary tables are private to the session, and
// PostgreSQL refuses CREATE TEMP TABLE in the READ ONLY transactions every
// quarry statement runs in.
//
// A superuser is reported as such without the rest: it may do anything.
func (c *Conn) Privileges(ctx context.Context) (connector.RoleReport, error) {
	t, err := c.begin(ctx, privilegesTimeout, "")
	if err != nil {
		return connector.RoleReport{}, c.queryError(ctx, err, privilegesTimeout)
	}
	defer func() { c.end(t, false) }()

	var rep connector.RoleReport
	var attrs []string
	var super bool
	var version int
	err = t.tx.QueryRow(ctx, `WITH me AS (
		  SELECT r.* FROM pg_roles r
		  WHERE pg_has_role(session_user, r.oid, 'MEMBER') OR pg_has_role(current_user, r.oid, 'MEMBER'))
		SELECT current_user::text, current_setting('server_version_num')::int,
		  EXISTS (SELECT 1 FROM me WHERE rolsuper),
		  array(SELECT a.attr || CASE WHEN m.rolname IN (current_user, session_user) THEN ''
		                              ELSE ' (through role ' || quote_ident(m.rolname) || ')' END
		        FROM me m, LATERAL (VALUES ('SUPERUSER', m.rolsuper), ('CREATEROLE', m.rolcreaterole), ('CREATEDB', m.rolcreatedb),
		                                   ('BYPASSRLS', m.rolbypassrls), ('REPLICATION', m.rolreplication)) a(attr, has)
		        WHERE a.has ORDER BY m.rolname <> current_user, m.rolname, a.attr)`).
		Scan(&rep.Role, &version, &super, &attrs)
	if err != nil {
		return connector.RoleReport{}, c.queryError(ctx, err, privilegesTimeout)
	}
	rep.FixSQL = c.ReadOnlyRoleSQL()
	if super {
		rep.Problems = append(rep.Problems, "superuser (it may do anything, whatever is granted)")
		return rep, nil
	}
	for _, a := range attrs {
		rep.Problems = append(rep.Problems, a+" attribute")
	}

	roleNames := make([]string, len(unsafeRoles))
	for i, r := range unsafeRoles {
		roleNames[i] = r[0]
	}
	tablePrivs := []string{"INSERT", "UPDATE", "DELETE", "TRUNCATE", "TRIGGER"}
	if version >= 170000 {
		tablePrivs = append(tablePrivs, "MAINTAIN")
	}
	var (
		members                 []string
		tables                  []string
		tableCount              int
		sequences               []string
		sequenceCount           int
		dbCreate, dbTemp        bool
		schemas, funcs, servers []string
	)
	err = t.tx.QueryRow(ctx, `WITH me AS (
		  SELECT r.oid, r.rolname FROM pg_roles r
		  WHERE pg_has_role(session_user, r.oid, 'MEMBER') OR pg_has_role(current_user, r.oid, 'MEMBER')),
		w AS MATERIALIZED (
		  SELECT c.oid, string_agg(DISTINCT p.priv, ', ' ORDER BY p.priv) AS privs
		  FROM pg_class c CROSS JOIN me m CROSS JOIN unnest($2::text[]) p(priv)
		  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.oid <> 'pg_catalog.pg_settings'::regclass
		    AND CASE WHEN p.priv IN ('INSERT', 'UPDATE') THEN has_any_column_privilege(m.oid, c.oid, p.priv)
		             ELSE has_table_privilege(m.oid, c.oid, p.priv) END
		  GROUP BY c.oid),
		s AS MATERIALIZED (
		  SELECT DISTINCT c.oid FROM pg_class c CROSS JOIN me m
		  WHERE c.relkind = 'S' AND (has_sequence_privilege(m.oid, c.oid, 'USAGE') OR has_sequence_privilege(m.oid, c.oid, 'UPDATE')))
		SELECT
		  array(SELECT rolname FROM me WHERE rolname = ANY($1::text[]) ORDER BY array_position($1::text[], rolname::text)),
		  (SELECT count(*) FROM w)::int,
		  array(SELECT w.privs || ' on ' || w.oid::regclass::text FROM w JOIN pg_class c ON c.oid = w.oid
		        ORDER BY c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace), w.oid::regclass::text LIMIT 5),
		  (SELECT count(*) FROM s)::int,
		  array(SELECT s.oid::regclass::text FROM s ORDER BY 1 LIMIT 3),
		  EXISTS (SELECT 1 FROM me m WHERE has_database_privilege(m.oid, current_database(), 'CREATE')),
		  EXISTS (SELECT 1 FROM me m WHERE has_database_privilege(m.oid, current_database(), 'TEMPORARY')),
		  array(SELECT DISTINCT quote_ident(n.nspname) FROM pg_namespace n CROSS JOIN me m
		        WHERE n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%'
		          AND has_schema_privilege(m.oid, n.oid, 'CREATE') ORDER BY 1),
		  array(SELECT DISTINCT p.oid::regprocedure::text FROM pg_proc p CROSS JOIN me m
		        WHERE p.proname = ANY($3::text[]) AND has_function_privilege(m.oid, p.oid, 'EXECUTE')
		          AND has_schema_privilege(m.oid, p.pronamespace, 'USAGE') ORDER BY 1),
		  array(SELECT DISTINCT x FROM (
		          SELECT 'foreign-data wrapper ' || quote_ident(f.fdwname) AS x FROM pg_foreign_data_wrapper f CROSS JOIN me m
		          WHERE has_foreign_data_wrapper_privilege(m.oid, f.oid, 'USAGE')
		          UNION ALL
		          SELECT 'foreign server ' || quote_ident(s.srvname) FROM pg_foreign_server s CROSS JOIN me m
		          WHERE has_server_privilege(m.oid, s.oid, 'USAGE')) u ORDER BY 1)`,
		roleNames, tablePrivs, unsafeFunctions).
		Scan(&members, &tableCount, &tables, &sequenceCount, &sequences, &dbCreate, &dbTemp, &schemas, &funcs, &servers)
	if err != nil {
		return connector.RoleReport{}, c.queryError(ctx, err, privilegesTimeout)
	}
	why := map[string]string{}
	for _, r := range unsafeRoles {
		why[r[0]] = r[1]
	}
	for _, m := range members {
		rep.Problems = append(rep.Problems, "member of "+m+" ("+why[m]+")")
	}
	if tableCount > 0 {
		rep.Problems = append(rep.Problems, "may write tables: "+strings.Join(tables, ", ")+more(tableCount, len(tables)))
	}
	if sequenceCount > 0 {
		rep.Problems = append(rep.Problems, "may call nextval on sequences: "+strings.Join(sequences, ", ")+more(sequenceCount, len(sequences)))
	}
	if dbCreate {
		rep.Problems = append(rep.Problems, "CREATE on database "+quoteIdent(c.database)+" (creates schemas)")
	}
	if len(schemas) > 0 {
		rep.Problems = append(rep.Problems, "CREATE on schema "+strings.Join(schemas, ", "))
	}
	if len(funcs) > 0 {
		rep.Problems = append(rep.Problems, "EXECUTE on "+strings.Join(funcs, ", ")+" (other servers, server files or administration)")
		var b strings.Builder
		b.WriteString(rep.FixSQL)
		b.WriteString("-- Functions that reach other servers or the server's files, which PUBLIC or\n")
		b.WriteString("-- the role may call (grant them back to the roles that need them):\n")
		for _, f := range funcs {
			fmt.Fprintf(&b, "REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC;\n", f)
		}
		rep.FixSQL = b.String()
	}
	if len(servers) > 0 {
		rep.Problems = append(rep.Problems, "USAGE on "+strings.Join(servers, ", ")+" (reaches other databases)")
	}
	if dbTemp {
		rep.Notes = append(rep.Notes, "TEMPORARY on database "+quoteIdent(c.database)+" (allowed: temporary tables are private to the session, and quarry's READ ONLY transactions refuse them; REVOKE TEMPORARY ON DATABASE "+quoteIdent(c.database)+" FROM PUBLIC removes it)")
	}
	return rep, nil
}

// more says how many of total were left out of a list of shown.
func more(total, shown int) string {
	if total <= shown {
		return ""
	}
	return fmt.Sprintf(" and %d more", total-shown)
}

// quoteIdent quotes a PostgreSQL identifier when it needs quoting.
func quoteIdent(s string) string {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
