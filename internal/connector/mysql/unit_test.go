package mysql

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		in                   string
		user, pass, addr, db string
		net                  string
		params               map[string]string
	}{
		{in: "u:p@tcp(db.example:3307)/shop?parseTime=true", user: "u", pass: "p", net: "tcp", addr: "db.example:3307", db: "shop"},
		{in: "u:p@unix(/run/mysqld.sock)/shop", user: "u", pass: "p", net: "unix", addr: "/run/mysqld.sock", db: "shop"},
		{in: "mysql://u:p%40ss%2Fw@db.example/shop", user: "u", pass: "p@ss/w", net: "tcp", addr: "db.example:3306", db: "shop"},
		{in: "mariadb://u@[::1]:3310/", user: "u", net: "tcp", addr: "[::1]:3310"},
		{in: "mysql://u:p@h:1/d?max_recursive_iterations=5&parseTime=true", user: "u", pass: "p", net: "tcp", addr: "h:1", db: "d",
			params: map[string]string{"max_recursive_iterations": "5"}},
	}
	for _, tt := range tests {
		cfg, err := parseDSN(tt.in)
		if err != nil {
			t.Errorf("parseDSN(%q): %v", tt.in, err)
			continue
		}
		got := []any{cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName, cfg.ParseTime, cfg.MultiStatements, cfg.InterpolateParams, cfg.AllowAllFiles}
		want := []any{tt.user, tt.pass, tt.net, tt.addr, tt.db, false, false, false, false}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parseDSN(%q) (-want +got):\n%s", tt.in, diff)
		}
		if tt.params != nil {
			if diff := cmp.Diff(tt.params, cfg.Params); diff != "" {
				t.Errorf("parseDSN(%q) params (-want +got):\n%s", tt.in, diff)
			}
		}
	}
}

func TestParseDSNRefuses(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "no MySQL DSN"},
		{"u:secret@tcp(h:3306)/d?multiStatements=true", "multiStatements"},
		{"mysql://u:secret@h/d?multiStatements=true", "multiStatements"},
		{"u:secret@tcp(h:3306)/d?interpolateParams=true", "interpolateParams"},
		{"u:secret@tcp(h:3306)/d?allowAllFiles=true", "allowAllFiles"},
		{"u:secret@tcp(h:3306)/d?autocommit=1", "autocommit"},
		{"u:secret@tcp(h:3306)/d?multiStatements=maybe", "cannot read the MySQL DSN"},
		{"u:secret@tcp(h:3306", "cannot read the MySQL DSN"},
		{"postgres://u:secret@h/d", "use mysql://"},
		{"mysql://u:secret@h/a/b", "database name"},
		{"mysql://u:secret@h:badport/d", "cannot read the MySQL URL"},
	}
	for _, tt := range tests {
		_, err := parseDSN(tt.in)
		if err == nil {
			t.Errorf("parseDSN(%q) = nil error, want one mentioning %q", tt.in, tt.want)
			continue
		}
		if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseDSN(%q) = %v (%s), want KindConfig mentioning %q", tt.in, err, quarry.KindOf(err), tt.want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("parseDSN(%q) error reveals the password: %v", tt.in, err)
		}
	}
}

func TestOpenRefusesBeforeConnecting(t *testing.T) {
	// Nothing listens on port 1; a refused DSN must fail before dialing.
	_, err := Open(context.Background(), "u:p@tcp(127.0.0.1:1)/d?multiStatements=true", Options{})
	if quarry.KindOf(err) != quarry.KindConfig {
		t.Fatalf("Open = %v, want KindConfig", err)
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in      string
		flavor  Flavor
		version string
	}{
		{"10.11.19-MariaDB-0+deb12u1", FlavorMariaDB, "10.11.19"},
		{"5.5.5-10.6.12-MariaDB-log", FlavorMariaDB, "10.6.12"},
		{"8.0.36", FlavorMySQL, "8.0.36"},
		{"8.4.0-commercial", FlavorMySQL, "8.4.0"},
	}
	for _, tt := range tests {
		f, v := parseVersion(tt.in)
		if f != tt.flavor || v != tt.version {
			t.Errorf("parseVersion(%q) = %s, %s; want %s, %s", tt.in, f, v, tt.flavor, tt.version)
		}
	}
}

func TestCheckSQLMode(t *testing.T) {
	c := &Conn{target: "h/d"}
	for mode, bad := range map[string]bool{
		"STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO": false,
		"":                     false,
		"NO_BACKSLASH_ESCAPES": true,
		"REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI": true,
		"strict_all_tables,ansi_quotes":                               true,
	} {
		err := c.checkSQLMode(mode)
		if (err != nil) != bad || err != nil && quarry.KindOf(err) != quarry.KindConfig {
			t.Errorf("checkSQLMode(%q) = %v, want refused=%v", mode, err, bad)
		}
	}
}

func TestLeadingKeyword(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT 1", "SELECT"},
		{"  \n(( select 1))", "select"},
		{"/* note */ WITH x AS (SELECT 1) SELECT * FROM x", "WITH"},
		{"-- note\nSELECT 1", "SELECT"},
		{"# note\nSELECT 1", "SELECT"},
		{"--1\nSELECT 1", "-"},
		{"/*! DELETE FROM t */ SELECT 1", "/*! "},
		{"/*M!100100 DELETE FROM t */", "/*M!"},
		{"/* unterminated", "/*"},
		{"CREATE TABLE t (a int)", "CREATE"},
		{"", ""},
		{"-- only a comment", ""},
	}
	for _, tt := range tests {
		if got := leadingKeyword(tt.in); got != tt.want {
			t.Errorf("leadingKeyword(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, ok := range []string{"SELECT 1", "values (1)", "TABLE t", "EXPLAIN SELECT 1", "show tables", "desc t"} {
		if err := checkLeadingKeyword(ok); err != nil {
			t.Errorf("checkLeadingKeyword(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"DELETE FROM t", "DROP TABLE t", "/*!50000 DROP TABLE t */", "ANALYZE SELECT 1", "SET @a = 1", "CALL p()", "DO 1", "HANDLER t OPEN"} {
		if err := checkLeadingKeyword(bad); quarry.KindOf(err) != quarry.KindRejected {
			t.Errorf("checkLeadingKeyword(%q) = %v, want KindRejected", bad, err)
		}
	}
}

func TestTypes(t *testing.T) {
	results := map[string]quarry.Type{
		"TINYINT": quarry.TypeInt, "UNSIGNED INT": quarry.TypeInt, "BIGINT": quarry.TypeInt,
		"UNSIGNED BIGINT": quarry.TypeBigInt, "DECIMAL": quarry.TypeDecimal, "FLOAT": quarry.TypeFloat,
		"DATE": quarry.TypeDate, "DATETIME": quarry.TypeTimestamp, "TIMESTAMP": quarry.TypeTimestamp,
		"TIME": quarry.TypeTime, "YEAR": quarry.TypeInt, "VARCHAR": quarry.TypeText, "ENUM": quarry.TypeText,
		"LONGTEXT": quarry.TypeText, "VARBINARY": quarry.TypeBytes, "BLOB": quarry.TypeBytes,
		"JSON": quarry.TypeJSON, "BIT": quarry.TypeInt, "NULL": quarry.TypeUnknown, "GEOMETRY": quarry.TypeBytes,
	}
	for db, want := range results {
		if got := resultType(db, wireField{}, false); got != want {
			t.Errorf("resultType(%q) = %s, want %s", db, got, want)
		}
	}
	declared := []struct {
		data, column string
		want         quarry.Type
	}{
		{"tinyint", "tinyint(1)", quarry.TypeBool},
		{"tinyint", "tinyint(4)", quarry.TypeInt},
		{"tinyint", "tinyint", quarry.TypeInt},
		{"bit", "bit(1)", quarry.TypeBool},
		{"bit", "bit(8)", quarry.TypeInt},
		{"bigint", "bigint(20) unsigned", quarry.TypeBigInt},
		{"bigint", "bigint", quarry.TypeInt},
		{"decimal", "decimal(10,2)", quarry.TypeDecimal},
		{"double", "double", quarry.TypeFloat},
		{"longtext", "longtext", quarry.TypeText},
		{"json", "json", quarry.TypeJSON},
		{"enum", "enum('a','b')", quarry.TypeText},
		{"point", "point", quarry.TypeBytes},
	}
	for _, tt := range declared {
		if got := declaredType(tt.data, tt.column); got != tt.want {
			t.Errorf("declaredType(%q, %q) = %s, want %s", tt.data, tt.column, got, tt.want)
		}
	}
}

func TestConverters(t *testing.T) {
	tests := []struct {
		t    quarry.Type
		in   any
		want any
	}{
		{quarry.TypeInt, int64(-5), int64(-5)},
		{quarry.TypeInt, []byte{0x01, 0x00}, int64(256)},
		{quarry.TypeInt, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "18446744073709551615"},
		{quarry.TypeBigInt, uint64(18446744073709551615), "18446744073709551615"},
		{quarry.TypeFloat, float32(0.1), 0.1},
		{quarry.TypeDate, []byte("0000-00-00"), nil},
		{quarry.TypeTimestamp, []byte("0000-00-00 00:00:00"), nil},
		{quarry.TypeDate, []byte("2026-00-10"), nil},
		{quarry.TypeTimestamp, []byte("2026-06-30 12:00:00.5"), time.Date(2026, 6, 30, 12, 0, 0, 5e8, time.UTC)},
		{quarry.TypeBool, int64(2), true},
		{quarry.TypeBool, []byte{0}, false},
		{quarry.TypeJSON, []byte(`{"a":1}`), json.RawMessage(`{"a":1}`)},
		{quarry.TypeJSON, []byte(`not json`), "not json"},
		{quarry.TypeDecimal, []byte("-1.50"), "-1.50"},
		{quarry.TypeText, nil, nil},
		{quarry.TypeBytes, []byte{0}, []byte{0}},
	}
	for _, tt := range tests {
		if got := converterFor(tt.t)(tt.in); !cmp.Equal(got, tt.want) {
			t.Errorf("convert %s %#v = %#v, want %#v", tt.t, tt.in, got, tt.want)
		}
	}
}

func TestParseGrant(t *testing.T) {
	tests := []struct {
		line   string
		grants []grant
		roles  []string
	}{
		{"GRANT USAGE ON *.* TO `ro`@`%` IDENTIFIED BY PASSWORD '*13536C4F3D01F90F6BDA8E8B44E8C5ACA6C8FD0C'",
			[]grant{{"USAGE", "*.*"}}, nil},
		{"GRANT SELECT, SHOW VIEW ON `shop`.* TO `ro`@`%`", []grant{{"SELECT", "`shop`.*"}, {"SHOW VIEW", "`shop`.*"}}, nil},
		{"GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION",
			[]grant{{"ALL PRIVILEGES", "*.*"}, {"GRANT OPTION", "*.*"}}, nil},
		{"GRANT SELECT (`a`, `b on c`), INSERT (`a`) ON `d`.`t` TO 'u'@'%'", []grant{{"SELECT", "`d`.`t`"}, {"INSERT", "`d`.`t`"}}, nil},
		{"GRANT BACKUP_ADMIN,BINLOG_ADMIN ON *.* TO `u`@`%`", []grant{{"BACKUP_ADMIN", "*.*"}, {"BINLOG_ADMIN", "*.*"}}, nil},
		{"GRANT `analyst`,`writer` TO `u`@`%`", nil, []string{"`analyst`", "`writer`"}},
		{"GRANT PROXY ON ''@'%' TO 'root'@'localhost' WITH GRANT OPTION", []grant{{"PROXY", "''@'%'"}, {"GRANT OPTION", "''@'%'"}}, nil},
	}
	for _, tt := range tests {
		g, r := parseGrant(tt.line)
		if diff := cmp.Diff(tt.grants, g, cmp.AllowUnexported(grant{})); diff != "" {
			t.Errorf("parseGrant(%q) grants (-want +got):\n%s", tt.line, diff)
		}
		if diff := cmp.Diff(tt.roles, r); diff != "" {
			t.Errorf("parseGrant(%q) roles (-want +got):\n%s", tt.line, diff)
		}
	}
}

func TestSmallHelpers(t *testing.T) {
	if got := jsonCheckColumn("json_valid(`do``c`)"); got != "do`c" {
		t.Errorf("jsonCheckColumn = %q", got)
	}
	if got := jsonCheckColumn("json_valid(`a`) and 1"); got != "" {
		t.Errorf("jsonCheckColumn(compound) = %q", got)
	}
	if c, ok := queryCost(`{"query_block": {"select_id": 1, "cost_info": {"query_cost": "1234.50"}}}`); !ok || c != 1234.5 {
		t.Errorf("queryCost = %v, %v", c, ok)
	}
	if _, ok := queryCost(`{"query_block": {"select_id": 1}}`); ok {
		t.Error("queryCost without cost_info = ok")
	}
	if got := human(1234567); got != "1,234,567" {
		t.Errorf("human = %q", got)
	}
	if got := quoteIdent("a`b"); got != "`a``b`" {
		t.Errorf("quoteIdent = %q", got)
	}
}
