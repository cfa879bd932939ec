package mysqlparse

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// DefaultSQLMode is MySQL 8's default sql_mode, used by the guard until the
// server's own mode is known.
const DefaultSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// MariaDBDefaultSQLMode is MariaDB 10.2+'s default sql_mode.
const MariaDBDefaultSQLMode = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"

// refusedModes change how the server reads quotes and backslashes, which
// the lexical guard's MySQL rules assume; combination modes are listed with
// the member that makes them refused.
var refusedModes = map[string]string{
	"NO_BACKSLASH_ESCAPES": "NO_BACKSLASH_ESCAPES",
	"ANSI_QUOTES":          "ANSI_QUOTES",
	"ANSI":                 "ANSI_QUOTES",
	"DB2":                  "ANSI_QUOTES",
	"MAXDB":                "ANSI_QUOTES",
	"MSSQL":                "ANSI_QUOTES",
	"ORACLE":               "ANSI_QUOTES",
	"POSTGRESQL":           "ANSI_QUOTES",
}

// ignoredModes are MariaDB modes the parser does not know that change
// neither lexing nor grammar (only how values are computed or stored).
var ignoredModes = map[string]bool{
	"EMPTY_STRING_IS_NULL":    true,
	"SIMULTANEOUS_ASSIGNMENT": true,
	"TIME_ROUND_FRACTIONAL":   true,
}

// parseMode reads a sql_mode value as the server reports it (SELECT
// @@sql_mode): comma-separated names in any case. It returns the mode for
// the parser, or an error saying why the guard cannot read statements the
// way the server does.
func parseMode(s string) (mysql.SQLMode, error) {
	var mode mysql.SQLMode
	for _, f := range strings.Split(s, ",") {
		name := strings.ToUpper(strings.TrimSpace(f))
		if name == "" || ignoredModes[name] {
			continue
		}
		if via, ok := refusedModes[name]; ok {
			if via == name {
				return 0, fmt.Errorf("the server's sql_mode contains %s, which changes how quotes and backslashes are read; the guard refuses every statement under it: remove %s from the sql_mode of quarry's connection", name, name)
			}
			return 0, fmt.Errorf("the server's sql_mode contains %s, which implies %s and changes how quotes are read; the guard refuses every statement under it: remove %s from the sql_mode of quarry's connection", name, via, name)
		}
		m, err := mysql.GetSQLMode(name)
		if err != nil {
			return 0, fmt.Errorf("the server's sql_mode contains %s, which the guard does not know and so cannot read statements the way the server does; remove it from the sql_mode of quarry's connection", name)
		}
		mode |= m
	}
	return mode, nil
}
