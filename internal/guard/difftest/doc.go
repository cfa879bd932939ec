// Package difftest holds quarry's differential tests of the read-only guard.
//
// Every statement that guard.New(...).Check allows — the allow rows of every
// guard corpus under internal/sqlguard, any reject row the guard wrongly
// allows, the fuzz seed corpora, and deterministic mutations of all of them
// — is executed on a raw, writable, superuser connection to a real
// PostgreSQL server, a real MariaDB server and a SQLite file. The
// connections deliberately have none of the executors' protections: the
// PostgreSQL one speaks the simple protocol in autocommit (a stacked
// statement runs), the MariaDB one has multiStatements on, and SQLite runs
// through Exec, which executes a statement's tail. A fingerprint of
// everything a statement could change (table contents, sequences, large
// objects, the catalogs, server settings, locks, listening sessions and the
// directories the server can write to) is taken before and after each
// statement; any difference fails the test and names the statement, the
// dialect and the changed item.
//
// The package has only tests. The servers come from QUARRY_TEST_POSTGRES_URL
// and QUARRY_TEST_MYSQL_DSN (scripts/services.sh starts them); without them
// the server tests are skipped, except in CI, where they fail.
package difftest
