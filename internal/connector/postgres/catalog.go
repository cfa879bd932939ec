package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Catalog describes the tables, views, materialized views and foreign
// tables the role can see, outside pg_catalog, information_schema and
// pg_toast: columns with their declared types, quarry types, nullability
// and comments, primary keys, foreign keys, table comments and row
// estimates (pg_class.reltuples; -1 when the table was never analyzed).
// It reads the system catalogs in one READ ONLY transaction.
func (c *Conn) Catalog(ctx context.Context) (*quarry.Catalog, error) {
	t, err := c.begin(ctx, 0, "")
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	cat, err := c.catalog(ctx, t.tx)
	c.end(t, err != nil)
	if err != nil {
		return nil, c.queryError(ctx, err, 0)
	}
	return cat, nil
}

const catalogTables = `
SELECT c.oid, n.nspname, c.relname, c.relkind,
       coalesce(obj_description(c.oid, 'pg_class'), ''),
       CASE WHEN c.relkind IN ('r', 'p', 'm') AND c.reltuples >= 0 THEN c.reltuples::bigint ELSE -1 END,
       CASE WHEN c.relkind IN ('v', 'm') THEN coalesce(pg_get_viewdef(c.oid), '') ELSE '' END,
       NOT pg_table_is_visible(c.oid)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  AND n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%'
  AND has_schema_privilege(n.oid, 'USAGE')
  AND (has_table_privilege(c.oid, 'SELECT') OR has_any_column_privilege(c.oid, 'SELECT'))
ORDER BY n.nspname, c.relname`

const catalogColumns = `
SELECT a.attrelid, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
       coalesce(col_description(a.attrelid, a.attnum), ''),
       coalesce(bt.oid, t.oid)::int8, coalesce(bt.typcategory, t.typcategory)::text,
       coalesce(to_jsonb(a)->>'attgenerated', '') <> '',
       array(SELECT ra.attname::text FROM pg_attrdef ad
             JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
                             AND d.refclassid = 'pg_class'::regclass AND d.refobjid = ad.adrelid
                             AND d.refobjsubid > 0 AND d.refobjsubid <> ad.adnum
             JOIN pg_attribute ra ON ra.attrelid = d.refobjid AND ra.attnum = d.refobjsubid
             WHERE ad.adrelid = a.attrelid AND ad.adnum = a.attnum ORDER BY 1)
FROM pg_attribute a
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
WHERE a.attrelid = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`

const catalogConstraints = `
SELECT con.conrelid, con.contype::text,
       array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i),
       coalesce(rn.nspname::text, ''), coalesce(rc.relname::text, ''),
       array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)
FROM pg_constraint con
LEFT JOIN pg_class rc ON rc.oid = con.confrelid
LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE con.conrelid = ANY($1) AND con.contype IN ('p', 'f')
ORDER BY con.conrelid, con.contype, con.conname`

// catalogViewReads lists, for each view, the columns of other relations
// its rewrite rule depends on: PostgreSQL's own record of what the view
// reads (a column number of 0 is a whole-row reference). pg_depend and
// pg_rewrite are readable by every role.
const catalogViewReads = `
SELECT r.ev_class, n.nspname, t.relname, coalesce(a.attname::text, '')
FROM pg_rewrite r
JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
                 AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> r.ev_class
JOIN pg_class t ON t.oid = d.refobjid
JOIN pg_namespace n ON n.oid = t.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
WHERE r.ev_class = ANY($1)
ORDER BY r.ev_class, n.nspname, t.relname, a.attname`

func (c *Conn) catalog(ctx context.Context, tx pgx.Tx) (*quarry.Catalog, error) {
	cat := &quarry.Catalog{Dialect: quarry.DialectPostgres, Tables: []quarry.TableInfo{}}
	index := map[uint32]int{}
	var oids []uint32
	rows, err := tx.Query(ctx, catalogTables)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var oid uint32
		var kind string
		var t quarry.TableInfo
		if err := rows.Scan(&oid, &t.Schema, &t.Name, &kind, &t.Comment, &t.RowCount, &t.Definition, &t.Hidden); err != nil {
			rows.Close()
			return nil, err
		}
		t.View = kind == "v" || kind == "m"
		index[oid] = len(cat.Tables)
		oids = append(oids, oid)
		cat.Tables = append(cat.Tables, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(oids) == 0 {
		return cat, nil
	}

	rows, err = tx.Query(ctx, catalogColumns, oids)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var rel uint32
		var col quarry.ColumnInfo
		var notNull bool
		var baseOID int64
		var category string
		var from []string
		if err := rows.Scan(&rel, &col.Name, &col.DeclType, &notNull, &col.Comment, &baseOID, &category, &col.Generated, &from); err != nil {
			rows.Close()
			return nil, err
		}
		col.Nullable = !notNull
		col.Type = declaredType(uint32(baseOID), category)
		if col.Generated {
			// The columns the expression reads, as PostgreSQL records
			// the dependencies of the column's default (pg_attrdef).
			col.GeneratedFrom = append([]string{}, from...)
		}
		t := &cat.Tables[index[rel]]
		t.Columns = append(t.Columns, col)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	if err := viewReads(ctx, tx, cat, index, oids); err != nil {
		return nil, err
	}
	if err := parents(ctx, tx, cat, index, oids); err != nil {
		return nil, err
	}

	rows, err = tx.Query(ctx, catalogConstraints, oids)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var rel uint32
		var kind, refSchema, refTable string
		var cols, refCols []string
		if err := rows.Scan(&rel, &kind, &cols, &refSchema, &refTable, &refCols); err != nil {
			rows.Close()
			return nil, err
		}
		t := &cat.Tables[index[rel]]
		if kind == "p" {
			t.PrimaryKey = cols
			continue
		}
		t.ForeignKeys = append(t.ForeignKeys, quarry.ForeignKey{Columns: cols, RefSchema: refSchema, RefTable: refTable, RefColumns: refCols})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// A primary key makes its columns NOT NULL; say so even where
	// attnotnull lags (partitioned tables).
	for i := range cat.Tables {
		t := &cat.Tables[i]
		for _, k := range t.PrimaryKey {
			if col := t.Column(k); col != nil {
				col.Nullable = false
			}
		}
	}
	return cat, nil
}

// declaredType maps a column's type (a domain's base type) to a quarry
// type, by OID for the built-in types and by pg_type.typcategory for the
// rest: A arrays, B booleans, D dates and times, N numbers, S strings.
func declaredType(oid uint32, category string) quarry.Type {
	switch oid {
	case oidInt2, oidInt4, oidInt8, oidOID:
		return quarry.TypeInt
	case oidNumeric:
		return quarry.TypeDecimal
	case oidFloat4, oidFloat8:
		return quarry.TypeFloat
	case oidBool:
		return quarry.TypeBool
	case oidBytea:
		return quarry.TypeBytes
	case oidDate:
		return quarry.TypeDate
	case oidTimestamp, oidTimestamptz:
		return quarry.TypeTimestamp
	case oidTime, 1266:
		return quarry.TypeTime
	case oidInterval:
		return quarry.TypeInterval
	case oidJSON, oidJSONB:
		return quarry.TypeJSON
	}
	switch strings.ToUpper(category) {
	case "A":
		return quarry.TypeArray
	case "B":
		return quarry.TypeBool
	}
	return quarry.TypeText
}

// parents fills each table's Parents from pg_inherits: a child table holds
// rows with its parents' columns, restricted ones included.
func parents(ctx context.Context, tx pgx.Tx, cat *quarry.Catalog, index map[uint32]int, oids []uint32) error {
	rows, err := tx.Query(ctx, `SELECT i.inhrelid, p.relname FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
WHERE i.inhrelid = ANY($1) ORDER BY i.inhrelid, i.inhseqno`, oids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var child uint32
		var parent string
		if err := rows.Scan(&child, &parent); err != nil {
			return err
		}
		t := &cat.Tables[index[child]]
		t.Parents = append(t.Parents, parent)
	}
	return rows.Err()
}

// viewReads fills each view's Reads from pg_depend.
func viewReads(ctx context.Context, tx pgx.Tx, cat *quarry.Catalog, index map[uint32]int, oids []uint32) error {
	var views []uint32
	for _, oid := range oids {
		if t := &cat.Tables[index[oid]]; t.View {
			t.ReadsKnown = true
			views = append(views, oid)
		}
	}
	if len(views) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, catalogViewReads, views)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var view uint32
		var r quarry.ColumnRead
		if err := rows.Scan(&view, &r.Schema, &r.Table, &r.Column); err != nil {
			return err
		}
		t := &cat.Tables[index[view]]
		t.Reads = append(t.Reads, r)
	}
	return rows.Err()
}

// rowVersions is, over a system catalog's rows, the sum of each row
// version's transaction id (xmin) taken from the first normal one (3),
// modulo 2^32 each. An insert or a delete changes the row count beside it;
// an update replaces a row version's id with its own transaction's, which
// changes the sum whatever the ids' order, save an exact coincidence of
// sums. The newest id (max(xmin::text::bigint), as it was) missed changes
// made after the server's transaction ids wrapped around 2^32, as a busy
// server's do: a renamed column's new row version had id 210 where an older
// one had 4294966001, so the version held still (found on a server set past
// the wrap with pg_resetwal). xid has no cast but to text; age(xid), the
// current id less xid as an int4, gives the id by difference from the age
// of id 3, with the same "now" throughout the statement. The bootstrap's
// and frozen ids (age the largest int4) never change, and are left out.
const rowVersions = `coalesce(sum((age(xmin)::bigint - (SELECT age('3'::xid))::bigint) & 4294967295) FILTER (WHERE age(xmin) < 2147483647), 0)`

// catalogVersion reads, in one round trip, what the catalog and the
// role check (Privileges) depend on: who reads them (role, database,
// server, search_path) and, for each system catalog Catalog reads or that
// decides what the role may see or do, its row count and the sum of its
// row versions (xmin, rowVersions); and, by value, the attributes of the
// roles the reader is a member of (pg_authid's row versions are hidden
// from other roles) and the server's version. DDL, COMMENT, GRANT and
// REVOKE (on a table, a column, a schema, the database, a function, a
// foreign server), role membership and CREATE OR REPLACE VIEW each insert
// or update rows there, under a transaction id of their own (pg_depend,
// which records what a view reads, changes only with pg_rewrite, and is
// not read: it is the largest there is after pg_attribute). Row estimates
// (reltuples) are updated in place by ANALYZE and do not change the
// version.
const catalogVersion = `
SELECT current_user || '@' || coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0)
       || '/' || current_database() || '?search_path=' || current_setting('search_path'),
       concat_ws(' ',
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_namespace),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_class),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_attribute),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_attrdef),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_constraint),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_description),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_rewrite),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_type),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_auth_members),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_database),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_proc),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_foreign_data_wrapper),
         (SELECT count(*) || '.' || ` + rowVersions + ` FROM pg_foreign_server),
         current_setting('server_version_num'),
         (SELECT string_agg(quote_ident(rolname) || ':' || rolsuper || rolcreaterole || rolcreatedb || rolbypassrls || rolreplication
                            || rolinherit || rolcanlogin, ',' ORDER BY rolname)
          FROM pg_roles WHERE pg_has_role(session_user, oid, 'MEMBER') OR pg_has_role(current_user, oid, 'MEMBER')))`

// CatalogVersion says who reads the catalog (the role, database, server
// and search_path) and a version of it that changes whenever what Catalog
// or Privileges returns may have, bar row estimates: quarry keeps both
// under it (knowledge.ReadVersioned) instead of reading them again for
// every command on a wide schema.
func (c *Conn) CatalogVersion(ctx context.Context) (reader, version string, err error) {
	t, err := c.begin(ctx, 0, "")
	if err != nil {
		return "", "", c.queryError(ctx, err, 0)
	}
	err = t.tx.QueryRow(ctx, catalogVersion).Scan(&reader, &version)
	c.end(t, err != nil)
	if err != nil {
		return "", "", c.queryError(ctx, err, 0)
	}
	return reader, readsVersion + " " + version, nil
}

// readsVersion names what Catalog and Privileges read and check: a
// change to either bumps it, so that no build serves what another build
// read (a development build has no commit to tell them apart by).
const readsVersion = "r1"
