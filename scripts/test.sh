#!/usr/bin/env bash
# The whole test suite, as README.md gives it and .ci/run calls it.
# It installs what the tests need when it is missing (the sqlite3 shell,
# Chromium, PostgreSQL and MariaDB), starts the database servers, checks
# formatting and that go.mod is tidy, runs go vet, staticcheck and deadcode
# (pinned in go.mod), builds quarry and the demo project once for the tests
# that run or copy them (QUARRY_TEST_BINARY, QUARRY_TEST_DEMO_PROJECT), and
# runs every test once: under the race detector where a race can be
# (scripts/one-goroutine), without it where it cannot or where the test
# skips itself there; then the DuckDB build. Run it from the repository
# root.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts, in seconds since the script began.
say() { printf '==> %s (%ds)\n' "$*" "$SECONDS"; }

need_apt=()
command -v sqlite3 >/dev/null 2>&1 || need_apt+=(sqlite3)
# Headless Chromium for the web UI's browser test (cmd/quarry/browser_test.go).
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
if [ ${#need_apt[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing ${need_apt[*]}"
		apt-get update -qq >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
	else
		say "missing ${need_apt[*]}; the tests that compare against them will say so"
	fi
fi

# Every go command builds with -trimpath: without it the build cache keys
# each of quarry's packages by the checkout's directory, so a fresh clone
# (as CI makes) compiles, vets and analyses all of them again (minutes).
# With it, a clone reuses what an earlier run built from the same sources.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"

# PostgreSQL and MariaDB for the connector and differential tests: private
# servers on loopback with throwaway data, stopped when this script ends.
# shellcheck source=scripts/services.sh
source scripts/services.sh start
trap 'scripts/services.sh stop' EXIT

say "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' ':!third_party' 2>/dev/null || find . -name '*.go' -not -path './.git/*' -not -path './third_party/*'))
if [ -n "$unformatted" ]; then
	echo "not gofmt-formatted (run gofmt -w):" >&2
	echo "$unformatted" >&2
	exit 1
fi

say "go mod tidy"
if ! go mod tidy -diff; then
	echo "go.mod or go.sum is not tidy (run go mod tidy)" >&2
	exit 1
fi

say "go vet"
go vet ./...

say "staticcheck"
go tool staticcheck ./...

# The demo project, built once from this checkout for the tests that would
# otherwise build it under the race detector (minutes each); they copy it.
say "the demo project"
test_tmp=$(mktemp -d)
trap 'scripts/services.sh stop; rm -rf "$test_tmp"' EXIT
go build -o "$test_tmp/quarry" ./cmd/quarry
"$test_tmp/quarry" init --demo --anchor 2026-06-30 "$test_tmp/demo" >/dev/null 2>&1 || {
	echo "quarry init --demo failed:" >&2
	"$test_tmp/quarry" init --demo --anchor 2026-06-30 "$test_tmp/demo2" >&2
	exit 1
}
# The tests that run quarry as a process use this binary (cmd/quarry's
# buildQuarry), and copy the demo project rather than build their own.
export QUARRY_TEST_DEMO_PROJECT="$test_tmp/demo" QUARRY_TEST_BINARY="$test_tmp/quarry"

# Every test runs once. Under the race detector first, wherever a race can
# be: the packages of scripts/one-goroutine start no goroutine outside
# their TestConcurrent… tests (internal/archtest keeps the list true), so
# only those tests of theirs run there. A test that skips itself under the
# detector (building the full demo database, grading the demo golden set,
# a million rows through one goroutine: minutes of CPU there, and nothing
# for it to find), or has a subtest that does, is named in the verbose
# log; the plain pass then runs those tests, and every test of the
# one-goroutine packages, without it.
#
# Beside it, deadcode: no function may be unreachable from the binary and
# its tests. The race pass waits on processes and servers much of the
# time; deadcode uses those cores (about a minute, 5 GB of memory).
say "go test -race, and deadcode beside it"
dead_out="$test_tmp/deadcode.out"
go tool deadcode -test ./... >"$dead_out" 2>&1 &
dead_pid=$!
one=$(sed -n 's|^internal/|github.com/quarrydata/quarry/internal/|p' scripts/one-goroutine)
race_log="$test_tmp/race.log"
# kill_tree PID stops PID and every process under it: go tool runs
# deadcode as a child of its own, which runs go list.
kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill "$1" 2>/dev/null || true
}
if ! go test -race -count=1 -v -timeout 25m $(go list ./... | grep -vxF "$one") >"$race_log" 2>&1; then
	kill_tree "$dead_pid"
	# The log without the lines of tests that passed or skipped.
	grep -vE '^=== (RUN|PAUSE|CONT|NAME)|^ *--- (PASS|SKIP):' "$race_log" >&2
	exit 1
fi
grep -E '^(ok|FAIL|\?) ' "$race_log" || true
dead_rc=0
wait "$dead_pid" || dead_rc=$?
if [ "$dead_rc" -ne 0 ] || [ -s "$dead_out" ]; then
	cat "$dead_out" >&2
	echo "these functions are reachable from neither quarry nor its tests: delete them" >&2
	exit 1
fi
concurrent=$(grep -l '^func TestConcurrent' $(sed 's|$|/*_test.go|' scripts/one-goroutine) | xargs -n1 dirname | sort -u | sed 's|^|./|')
go test -race -count=1 -run '^TestConcurrent' $concurrent

say "go test"
skipped=$(sed -n 's|^ *--- SKIP: \([^/ ]*\).*|\1|p' "$race_log" | sort -u | paste -sd'|' -)
# The two sets side by side: many of these tests wait on processes.
go test -count=1 -timeout 20m $(sed 's|^|./|' scripts/one-goroutine) &
one_pid=$!
plain_rc=0
if [ -n "$skipped" ]; then
	echo "==> tests the race pass skipped, run here: $(echo "$skipped" | tr '|' ' ')"
	go test -count=1 -timeout 20m -run "^($skipped)\$" $(go list ./... | grep -vxF "$one") || plain_rc=$?
fi
wait "$one_pid" || plain_rc=$?
[ "$plain_rc" -eq 0 ] || exit "$plain_rc"

# The DuckDB connector is compiled only with the duckdb build tag (cgo and
# a large static library). On first use this downloads DuckDB's
# linux-amd64 library through the Go module proxy.
say "go test -tags duckdb"
go test -count=1 -tags duckdb ./internal/connector/duckdb/
go test -count=1 -tags duckdb -run 'DuckDB' ./cmd/quarry/
say "done"
