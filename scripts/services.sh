#!/usr/bin/env bash
# Starts (and stops) the database servers the tests run against: PostgreSQL
# and MariaDB from Debian's packages, on loopback, with throwaway data
# directories. Installs them when they are missing (as root, with apt-get).
#
#   source scripts/services.sh start   # exports QUARRY_TEST_POSTGRES_URL and QUARRY_TEST_MYSQL_DSN
#   scripts/services.sh stop
#
# The servers listen on 127.0.0.1 only, on the ports below (override with
# QUARRY_PG_PORT / QUARRY_MYSQL_PORT). Their data lives under
# ${QUARRY_SERVICES_DIR:-/tmp/quarry-services} and is removed by stop.

qs_dir=${QUARRY_SERVICES_DIR:-/tmp/quarry-services}
qs_pg_port=${QUARRY_PG_PORT:-54329}
qs_my_port=${QUARRY_MYSQL_PORT:-33069}

qs_say() { printf '==> %s\n' "$*" >&2; }

qs_pg_bin() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && { echo "$d"; return 0; }
	done
	return 1
}

qs_install() {
	local need=()
	qs_pg_bin >/dev/null || need+=(postgresql)
	command -v mariadbd >/dev/null 2>&1 || command -v mysqld >/dev/null 2>&1 || need+=(mariadb-server)
	[ ${#need[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		qs_say "cannot install ${need[*]}: run as root on Debian, or install them yourself"
		return 1
	fi
	qs_say "installing ${need[*]}"
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
	# Debian's packages start their own system services; the tests use
	# private servers, so stop those to free the default ports and memory.
	service postgresql stop >/dev/null 2>&1 || true
	service mariadb stop >/dev/null 2>&1 || true
}

qs_start_pg() {
	local bin
	bin=$(qs_pg_bin) || return 1
	local data=$qs_dir/pg/data
	mkdir -p "$data" "$qs_dir/pg/run"
	chown -R postgres:postgres "$qs_dir/pg"
	chmod 700 "$data"
	runuser -u postgres -- "$bin/initdb" -D "$data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
	runuser -u postgres -- "$bin/pg_ctl" -D "$data" -l "$qs_dir/pg/run/server.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -p $qs_pg_port -k $qs_dir/pg/run -c fsync=off -c full_page_writes=off" start >/dev/null
	"$bin/psql" -h 127.0.0.1 -p "$qs_pg_port" -U postgres -d postgres -qc 'CREATE DATABASE quarry_test' >/dev/null
	export QUARRY_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$qs_pg_port/quarry_test?sslmode=disable"
	qs_say "PostgreSQL on 127.0.0.1:$qs_pg_port"
}

qs_start_mysql() {
	local server
	server=$(command -v mariadbd || command -v mysqld) || return 1
	local data=$qs_dir/my/data run=$qs_dir/my/run
	mkdir -p "$data" "$run" "$qs_dir/my/files"
	id mysql >/dev/null 2>&1 || useradd --system --no-create-home mysql
	chown -R mysql:mysql "$qs_dir/my"
	mariadb-install-db --datadir="$data" --user=mysql --auth-root-authentication-method=normal \
		--skip-test-db >/dev/null 2>&1
	"$server" --no-defaults --datadir="$data" --user=mysql --bind-address=127.0.0.1 --port="$qs_my_port" \
		--socket="$run/mysql.sock" --pid-file="$run/mysql.pid" --log-error="$run/server.log" \
		--secure-file-priv="$qs_dir/my/files" --innodb-flush-log-at-trx-commit=0 --skip-name-resolve >/dev/null 2>&1 &
	local i
	for i in $(seq 120); do
		mariadb-admin --socket="$run/mysql.sock" -uroot ping >/dev/null 2>&1 && break
		sleep 0.5
	done
	mariadb --socket="$run/mysql.sock" -uroot <<SQL || return 1
CREATE DATABASE IF NOT EXISTS quarry_test;
CREATE USER IF NOT EXISTS 'quarry'@'127.0.0.1' IDENTIFIED BY 'quarry';
GRANT ALL PRIVILEGES ON *.* TO 'quarry'@'127.0.0.1' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
	export QUARRY_TEST_MYSQL_DSN="quarry:quarry@tcp(127.0.0.1:$qs_my_port)/quarry_test"
	export QUARRY_TEST_MYSQL_FILES="$qs_dir/my/files"
	qs_say "MariaDB on 127.0.0.1:$qs_my_port"
}

qs_stop() {
	local bin
	if bin=$(qs_pg_bin) && [ -d "$qs_dir/pg/data" ]; then
		runuser -u postgres -- "$bin/pg_ctl" -D "$qs_dir/pg/data" -m immediate stop >/dev/null 2>&1 || true
	fi
	if [ -S "$qs_dir/my/run/mysql.sock" ]; then
		mariadb-admin --socket="$qs_dir/my/run/mysql.sock" -uroot shutdown >/dev/null 2>&1 || true
	fi
	if [ -f "$qs_dir/my/run/mysql.pid" ]; then
		kill "$(cat "$qs_dir/my/run/mysql.pid")" >/dev/null 2>&1 || true
	fi
	rm -rf "$qs_dir"
}

qs_start() {
	qs_stop
	mkdir -p "$qs_dir"
	chmod 755 "$qs_dir"
	qs_install || return 1
	qs_start_pg || { qs_say "PostgreSQL did not start; see $qs_dir/pg/run/server.log"; return 1; }
	qs_start_mysql || { qs_say "MariaDB did not start; see $qs_dir/my/run/server.log"; return 1; }
}

case "${1:-}" in
start) qs_start ;;
stop) qs_stop ;;
*) echo "usage: scripts/services.sh start|stop (source it to keep the exported URLs)" >&2 ;;
esac
