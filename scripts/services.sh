#!/usr/bin/env bash
# Starts (and stops) the database servers the tests run against: PostgreSQL
# and MariaDB from Debian's packages, on loopback, with throwaway data
# directories. Installs them when they are missing (as root, with apt-get).
#
#   source scripts/services.sh start   # exports QUARRY_TEST_POSTGRES_URL, QUARRY_TEST_MYSQL_DSN,
#                                      # QUARRY_TEST_POSTGRES_WRAPPED_URL (a second PostgreSQL whose
#                                      # transaction ids have wrapped around)
#                                      # and QUARRY_SERVICES_DIR
#   scripts/services.sh stop           # stops the servers of $QUARRY_SERVICES_DIR, and only those
#
# Each start makes a fresh directory (mktemp) and picks free loopback ports,
# so that several runs at once never share or stop each other's servers.
# The directory is exported as QUARRY_SERVICES_DIR; stop stops exactly the
# servers whose data lives there and removes it. Overrides: QUARRY_PG_PORT,
# QUARRY_MYSQL_PORT (fixed ports) and QUARRY_SERVICES_DIR (a directory of
# your choosing; start then stops whatever an earlier start left in it).

qs_dir=${QUARRY_SERVICES_DIR:-}
qs_pg_port=${QUARRY_PG_PORT:-}
qs_my_port=${QUARRY_MYSQL_PORT:-}

qs_say() { printf '==> %s\n' "$*" >&2; }

qs_pg_bin() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && { echo "$d"; return 0; }
	done
	return 1
}

# qs_free_port prints a loopback TCP port nothing listens on, avoiding the
# ones given as arguments.
qs_free_port() {
	local p i taken
	for i in $(seq 200); do
		p=$((20000 + RANDOM % 40000))
		taken=0
		for q in "$@"; do [ "$p" = "$q" ] && taken=1; done
		[ $taken = 1 ] && continue
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	qs_say "no free port found"
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
	# From /, which the postgres user can enter (the caller's folder may be
	# a private temporary one).
	(cd / && runuser -u postgres -- "$bin/initdb" -D "$data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null) || return 1
	(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$data" -l "$qs_dir/pg/run/server.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -p $qs_pg_port -k $qs_dir/pg/run -c fsync=off -c full_page_writes=off" start >/dev/null) || return 1
	"$bin/psql" -h 127.0.0.1 -p "$qs_pg_port" -U postgres -d postgres -qc 'CREATE DATABASE quarry_test' >/dev/null
	export QUARRY_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$qs_pg_port/quarry_test?sslmode=disable"
	qs_say "PostgreSQL on 127.0.0.1:$qs_pg_port"
}

# qs_start_pg_wrapped starts a second, small PostgreSQL whose transaction
# ids have wrapped around 2^32, as a busy server's do: initdb, every
# database frozen, the next id set just below 2^32 (pg_resetwal, with the
# commit log segment it needs), a table made then, and 1,500 transactions
# run past the wrap. The catalog version test changes the catalog there
# (a change under a small id, beside rows of ids near 2^32).
qs_start_pg_wrapped() {
	local bin
	bin=$(qs_pg_bin) || return 1
	local data=$qs_dir/pgwrap/data run=$qs_dir/pgwrap/run
	mkdir -p "$data" "$run"
	chown -R postgres:postgres "$qs_dir/pgwrap"
	chmod 700 "$data"
	local pg="runuser -u postgres -- $bin/pg_ctl -D $data -l $run/server.log -w -t 60"
	local opts="-c listen_addresses=127.0.0.1 -p $qs_pgwrap_port -k $run -c fsync=off -c full_page_writes=off -c autovacuum=off"
	(cd / && runuser -u postgres -- "$bin/initdb" -D "$data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null) || return 1
	(cd / && $pg -o "$opts" start >/dev/null) || return 1
	local psql="$bin/psql -h 127.0.0.1 -p $qs_pgwrap_port -U postgres -qAt"
	$psql -d postgres -c "UPDATE pg_database SET datallowconn = true WHERE datname = 'template0'" >/dev/null || return 1
	local db
	for db in template0 template1 postgres; do
		$psql -d "$db" -c 'VACUUM FREEZE' >/dev/null || return 1
	done
	(cd / && $pg stop >/dev/null) || return 1
	(cd / && runuser -u postgres -- "$bin/pg_resetwal" -x 4294966000 -D "$data" >/dev/null) || return 1
	# The commit log segment of ids 4293918720 … 4294967295 (1,048,576 a
	# segment, 0FFF in hexadecimal), which nothing wrote yet.
	head -c 262144 /dev/zero > "$data/pg_xact/0FFF" && chown postgres:postgres "$data/pg_xact/0FFF" || return 1
	(cd / && $pg -o "$opts" start >/dev/null) || return 1
	$psql -d postgres -c 'CREATE DATABASE quarry_test' >/dev/null || return 1
	$psql -d quarry_test -c 'CREATE TABLE before_wrap (id int PRIMARY KEY, note text)' >/dev/null || return 1
	local i
	for i in $(seq 1500); do echo 'SELECT txid_current();'; done | $psql -d quarry_test >/dev/null || return 1
	export QUARRY_TEST_POSTGRES_WRAPPED_URL="postgres://postgres@127.0.0.1:$qs_pgwrap_port/quarry_test?sslmode=disable"
	qs_say "PostgreSQL past transaction id wraparound on 127.0.0.1:$qs_pgwrap_port"
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
	if [ -z "$qs_dir" ]; then
		qs_say "QUARRY_SERVICES_DIR is not set: nothing to stop (stop the servers of one start by exporting the directory it printed)"
		return 0
	fi
	case "$qs_dir" in
	/ | /tmp | /tmp/) qs_say "refusing to remove $qs_dir"; return 1 ;;
	esac
	local bin
	local d
	for d in pg pgwrap; do
		if bin=$(qs_pg_bin) && [ -d "$qs_dir/$d/data" ]; then
			(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$qs_dir/$d/data" -m immediate stop >/dev/null 2>&1) || true
		fi
	done
	if [ -S "$qs_dir/my/run/mysql.sock" ]; then
		mariadb-admin --socket="$qs_dir/my/run/mysql.sock" -uroot shutdown >/dev/null 2>&1 || true
	fi
	if [ -f "$qs_dir/my/run/mysql.pid" ]; then
		kill "$(cat "$qs_dir/my/run/mysql.pid")" >/dev/null 2>&1 || true
	fi
	rm -rf "$qs_dir"
	qs_say "stopped the servers of $qs_dir"
	unset QUARRY_SERVICES_DIR
	qs_dir=
}

qs_start() {
	if [ -n "$qs_dir" ]; then
		# The directory asked for: its servers stopped, then used again
		# (qs_stop forgets it).
		local dir=$qs_dir
		qs_stop
		qs_dir=$dir
		mkdir -p "$qs_dir" || return 1
	else
		qs_dir=$(mktemp -d /tmp/quarry-services.XXXXXX) || return 1
	fi
	export QUARRY_SERVICES_DIR=$qs_dir
	chmod 755 "$qs_dir"
	[ -n "$qs_pg_port" ] || qs_pg_port=$(qs_free_port) || return 1
	[ -n "$qs_my_port" ] || qs_my_port=$(qs_free_port "$qs_pg_port") || return 1
	qs_pgwrap_port=$(qs_free_port "$qs_pg_port" "$qs_my_port") || return 1
	qs_install || return 1
	qs_start_pg || { qs_say "PostgreSQL did not start; see $qs_dir/pg/run/server.log"; return 1; }
	qs_start_pg_wrapped || { qs_say "the PostgreSQL past wraparound did not start; see $qs_dir/pgwrap/run/server.log"; return 1; }
	qs_start_mysql || { qs_say "MariaDB did not start; see $qs_dir/my/run/server.log"; return 1; }
	qs_say "servers of this run: QUARRY_SERVICES_DIR=$qs_dir (scripts/services.sh stop stops them)"
}

case "${1:-}" in
start) qs_start ;;
stop) qs_stop ;;
*) echo "usage: scripts/services.sh start|stop (source it to keep the exported URLs)" >&2 ;;
esac
