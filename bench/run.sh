#!/usr/bin/env bash
# quarry's benchmarks, each against the obvious baseline on the same machine
# in the same run. Prints its figures; asserts nothing (targets live here,
# not in timed tests). Needs sqlite3 and GNU time (apt-get install sqlite3 time).
#
#   0. start-up: quarry --version vs a trivial Go binary and true
#   1. quarry run exporting 1,000,000 rows to CSV vs the sqlite3 shell
#   2. a one-row quarry run, whole process, vs the sqlite3 shell
#   3. on the demo, the SQL of "revenue by month last year": quarry run and
#      a whole quarry ask vs the sqlite3 shell running the same SQL
#  3b. the SQLite engines a Go program can embed, in one process, on the
#      SQL of seven demo questions, vs the sqlite3 shell's own timer
#  3c. a condition on related rows whose key has no index: quarry ask vs
#      the shell running quarry's SQL and a correlated EXISTS
#   4. Go benchmarks: the guard, the compiler, the planner
#   5. quarry serve under 200 concurrent chat streams; 5b. the same across
#      two replicas on a PostgreSQL state (when QUARRY_TEST_POSTGRES_URL is set)
#   6. through MCP: driver: mcp starting `quarry connector sqlite` vs
#      driver: sqlite, one row and 100,000 rows, whole process
#   7. the state store: appends on the SQLite file vs PostgreSQL (the
#      latter when QUARRY_TEST_POSTGRES_URL is set: source scripts/services.sh start)
#   8. schema retrieval: recall of the gold tables, what is shown against the
#      whole schema, and search latency, on pooled Spider (SPIDER, default
#      ../shared/data/spider, when present) and a synthetic 10,000-table catalog
#   9. workflows: a 50-node workflow vs its questions asked one by one
#  10. monitors on the job queue (River): 1,000 due at once on one worker,
#      on the SQLite state and on PostgreSQL
#  11. a wide schema (10,000 tables, go run ./bench/wide): learn and ask on
#      a SQLite file and on PostgreSQL (the latter when
#      QUARRY_TEST_POSTGRES_URL is set), vs the database's own shell
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${ROWS:-1000000}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tool in sqlite3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install -y sqlite3 time)" >&2; exit 2; }
done

go build -o "$work/quarry" ./cmd/quarry
q=$work/quarry

# timeit LABEL CMD...: runs CMD $runs times, prints min and median wall
# seconds (bash's microsecond clock: GNU time's 10 ms steps would round the
# shell's few milliseconds to zero) and the peak RSS of the largest run.
timeit() {
	local label=$1
	shift
	local times=() rss=0 t0 t1 m
	for _ in $(seq "$runs"); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%M' -o "$work/t" "$@" > "$work/out" 2>/dev/null
		t1=$EPOCHREALTIME
		read -r m < "$work/t"
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
		(( m > rss )) && rss=$m
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	min=$(echo "$sorted" | head -1)
	med=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
	awk -v l="$label" -v a="$min" -v b="$med" -v r="$rss" 'BEGIN { printf "  %-34s min %7.4f s  median %7.4f s  peak RSS %6.1f MB\n", l, a, b, r / 1024 }'
	echo "$med" > "$work/median.$label"
}
ratio() { awk -v a="$(cat "$work/median.$1")" -v b="$(cat "$work/median.$2")" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "0. start-up, whole process ($runs runs each)"
mkdir -p "$work/hello"
printf 'package main\n\nfunc main() { println("hello") }\n' > "$work/hello/main.go"
(cd "$work/hello" && printf 'module hello\n\ngo 1.26\n' > go.mod && go build -o "$work/hello/hello" .)
timeit true true
timeit go-hello "$work/hello/hello"
timeit quarry-version "$q" --version
echo "  quarry --version: $(awk -v a="$(cat "$work/median.quarry-version")" 'BEGIN { printf "%.1f", a * 1000 }') ms, $(ratio quarry-version go-hello)× a trivial Go binary   (target < 15 ms)"

mkdir -p "$work/big"
db=$work/big/bench.db
sqlite3 "$db" <<SQL
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount REAL, ordered_at TIMESTAMP, status TEXT, quantity INTEGER);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < $rows)
INSERT INTO orders SELECT x, 'customer ' || (x % 5000), round((x * 37 % 100000) / 100.0, 2),
	datetime(1700000000 + x * 61, 'unixepoch'), CASE x % 4 WHEN 0 THEN 'refunded' ELSE 'completed' END, x % 7 + 1 FROM s;
SQL
cat > "$work/big/quarry.yaml" <<YAML
version: 1
connections:
  bench:
    driver: sqlite
    path: bench.db
limits:
  statement_timeout: 10m
YAML
export_sql="SELECT id, customer, amount, ordered_at, status, quantity FROM orders"

echo "1. export $rows rows to CSV ($runs runs each)"
timeit shell-export sqlite3 -csv -header "$db" "$export_sql"
timeit quarry-export "$q" -C "$work/big" run --format csv "$export_sql"
echo "  quarry / shell (median): $(ratio quarry-export shell-export)×   (target ≤ 1.5×, peak RSS < 100 MB)"

echo "2. one-row query, whole process ($runs runs each)"
one="SELECT * FROM orders WHERE id = 42"
timeit shell-one sqlite3 -csv -header "$db" "$one"
timeit quarry-one "$q" -C "$work/big" run --format csv "$one"
echo "  quarry / shell (median): $(ratio quarry-one shell-one)×   (target ≤ 2×)"

echo "3. quarry ask on the demo vs the shell running the same SQL ($runs runs each)"
"$q" init --demo --anchor 2026-06-30 "$work/demo" > /dev/null 2>&1
question="revenue by month last year"
"$q" -C "$work/demo" ask --as-of 2026-06-30 --json "$question" > "$work/ask.json"
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sql"])' "$work/ask.json" > "$work/ask.sql"
timeit shell-ask sqlite3 "$work/demo/demo.db" ".read $work/ask.sql"
timeit quarry-run-ask "$q" -C "$work/demo" run --format csv -f "$work/ask.sql"
timeit quarry-ask "$q" -C "$work/demo" ask --as-of 2026-06-30 "$question"
echo "  quarry run / shell (median): $(ratio quarry-run-ask shell-ask)×   (target ≤ 1.2×)"
echo "  quarry ask / shell (median): $(ratio quarry-ask shell-ask)×   (target ≤ 1.5×; ask also runs its control queries)"

echo "3b. the SQLite engine alone, in one process: the SQL quarry compiles for demo questions, warm, on the engine quarry uses (ncruces: SQLite as WebAssembly translated to Go) vs mattn/go-sqlite3 (SQLite's C through cgo), modernc.org/sqlite (its C translated to Go) and the sqlite3 shell's own timer (bench/engines, a module of its own; the first build compiles SQLite's C, about 90 s)"
mkdir -p "$work/engines"
n=0
for question in "revenue by month last year" "top 5 products by revenue in 2025" "top 10 customers by revenue" "orders by channel last year" "revenue by category last quarter" "average order value by month in 2025" "customers by country"; do
	n=$((n + 1))
	"$q" -C "$work/demo" ask --as-of 2026-06-30 --json "$question" > "$work/engines/q.json"
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sql"])' "$work/engines/q.json" > "$work/engines/$n-$(echo "$question" | tr ' ' '_').sql"
done
(cd bench/engines && go build -o "$work/engines/engines" .)
"$work/engines/engines" -db "$work/demo/demo.db" -n "$(( runs * 4 ))" "$work"/engines/*.sql
echo "  target: the engine within 1.2× the shell (the ncruces/shell column)"

echo "3c. a condition on related rows whose key has no index (orders and their lines, no index on order_lines.order_id): quarry ask vs the shell running quarry's SQL, and the shell running the same question as a correlated EXISTS ($runs runs each; the EXISTS once)"
mkdir -p "$work/semi"
sqlite3 "$work/semi/semi.db" <<'SQL'
CREATE TABLE menu_items(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO menu_items(name) VALUES ('Ribeye Steak'), ('Caesar Salad'), ('Margherita Pizza'), ('Fish Tacos'), ('Burger'), ('Pad Thai'), ('Tiramisu'), ('Lemonade'), ('Espresso'), ('Chicken Wings'), ('Mushroom Risotto'), ('Salmon Bowl');
CREATE TABLE orders(id INTEGER PRIMARY KEY, ordered_at TEXT NOT NULL, status TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
INSERT INTO orders SELECT i, date('2025-01-01', '+' || (i * 37 % 546) || ' days') || ' 12:00:00', CASE WHEN i % 10 = 0 THEN 'cancelled' ELSE 'completed' END FROM n;
CREATE TABLE order_lines(id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), menu_item_id INTEGER NOT NULL REFERENCES menu_items(id), quantity INTEGER NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 90000)
INSERT INTO order_lines SELECT i, 1 + (i * 7919) % 30000, 1 + (i * 31) % 12, 1 + i % 3 FROM n;
SQL
"$q" init --url "$work/semi/semi.db" "$work/semi/p" > /dev/null 2>&1
"$q" -C "$work/semi/p" learn > /dev/null 2>&1
question="how many orders had a Ribeye Steak last month"
"$q" -C "$work/semi/p" ask --as-of 2026-06-30 --json "$question" > "$work/semi/ask.json"
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sql"])' "$work/semi/ask.json" > "$work/semi/ask.sql"
cat > "$work/semi/exists.sql" <<'SQL'
SELECT COUNT(*) FROM orders o WHERE o.ordered_at >= '2026-05-01' AND o.ordered_at < '2026-06-01'
AND EXISTS (SELECT 1 FROM order_lines l JOIN menu_items m ON m.id = l.menu_item_id WHERE l.order_id = o.id AND m.name = 'Ribeye Steak');
SQL
timeit semi-shell sqlite3 "$work/semi/semi.db" ".read $work/semi/ask.sql"
timeit semi-ask "$q" -C "$work/semi/p" ask --as-of 2026-06-30 "$question"
runs_was=$runs; runs=1
timeit semi-exists sqlite3 "$work/semi/semi.db" ".read $work/semi/exists.sql"
runs=$runs_was
echo "  quarry's answer: $(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(a.get("rows"))' "$work/semi/ask.json"); the EXISTS: $(sqlite3 "$work/semi/semi.db" ".read $work/semi/exists.sql")"
echo "  quarry ask / shell on quarry's SQL (median): $(ratio semi-ask semi-shell)×; the correlated EXISTS / quarry ask: $(ratio semi-exists semi-ask)×"

echo "4. Go benchmarks (one core)"
go test -run '^$' -bench 'BenchmarkCheck$|BenchmarkCompile$|BenchmarkPlan$|BenchmarkPlanWide$' -benchmem -cpu 1 \
	./internal/sqlguard/ ./internal/semantic/ ./internal/planner/ | grep -E '^Benchmark|^ok' | sed 's/^/  /'
echo "  planner + compiler per question: BenchmarkPlan (the demo-like model) and BenchmarkPlanWide (1,000 tables), ms-p95; target < 5 ms"
go test -run '^$' -bench 'BenchmarkLookup$' -cpu 1 ./internal/valueindex/ | grep -E '^Benchmark' | sed 's/^/  /'
echo "  value index lookup per question (100,000 values); target well under 1 ms"
go test -run '^$' -bench 'BenchmarkPathological' -benchtime 3x -cpu 1 ./internal/mdhtml/ | grep -E '^Benchmark' | sed 's/^/  /'
echo "  answer Markdown to HTML: an answer of the usual size, and 50,000 delimiters of each kind made to make a renderer rescan the text (bounded: none quadratic)"
echo "  column policy: PostgreSQL lineage (check vs its parse alone) and SQLite's engine check (with vs without restricted columns); target < 1 ms"
go test -run '^$' -bench 'BenchmarkCheck$|BenchmarkPolicyCheck$' -benchmem -cpu 1 \
	./internal/policy/ ./internal/connector/sqlite/ | grep -E '^Benchmark|^ok' | sed 's/^/  /'

echo "5. quarry serve: 200 concurrent chat streams on the demo (targets: 0 errors, p99 first event < 100 ms)"; go run ./bench/serve -streams 200 | sed "s/^/  /"

echo "5b. two quarry serve replicas on one PostgreSQL state: 200 concurrent chat streams split between them, on kept-alive connections (p50/p99-ttfe) and on connections opened for the burst (p99-cold-ttfe) (target: 0 errors, p99 first event < 150 ms)"
if [ -n "${QUARRY_TEST_POSTGRES_URL:-}" ]; then
	go test -run '^$' -bench 'BenchmarkReplicas$' -benchtime 3x ./cmd/quarry/ | grep -E '^Benchmark' | sed 's/^/  /'
else
	echo "  skipped: QUARRY_TEST_POSTGRES_URL is not set (source scripts/services.sh start)"
fi

echo "6. through MCP: driver: mcp starting \`quarry connector sqlite\` (stdio) vs driver: sqlite, whole process ($runs runs each)"
mkdir -p "$work/mcp"
cat > "$work/mcp/quarry.yaml" <<YAML
version: 1
connections:
  bench:
    driver: mcp
    command: quarry
    args: [connector, sqlite, ../big/bench.db, --max-rows, "100000"]
    dialect: sqlite
limits:
  statement_timeout: 10m
YAML
timeit quarry-mcp-one "$q" -C "$work/mcp" run --format csv "$one"
echo "  one row: mcp / sqlite (median): $(ratio quarry-mcp-one quarry-one)×"
export100k="$export_sql LIMIT 100000"
timeit quarry-100k "$q" -C "$work/big" run --format csv "$export100k"
timeit quarry-mcp-100k "$q" -C "$work/mcp" run --format csv "$export100k"
cmp -s <("$q" -C "$work/big" run --format csv "$export100k") <("$q" -C "$work/mcp" run --format csv "$export100k") && echo "  the two CSV exports are identical" || echo "  the two CSV exports DIFFER"
echo "  100,000 rows: mcp / sqlite (median): $(ratio quarry-mcp-100k quarry-100k)×   (target ≤ 2×)"

echo "7. state store appends, one core: SQLite file vs PostgreSQL (target: 10,000 events/s)"
go test -run '^$' -bench 'BenchmarkState$' -benchtime 3000x -cpu 1 ./internal/store/sqlite/ | grep -E '^Benchmark' | sed 's/^/  sqlite    /'
if [ -n "${QUARRY_TEST_POSTGRES_URL:-}" ]; then
	go test -run '^$' -bench 'BenchmarkState$' -benchtime 3000x -cpu 1 ./internal/store/postgres/ | grep -E '^Benchmark' | sed 's/^/  postgres  /'
else
	echo "  postgres  skipped: QUARRY_TEST_POSTGRES_URL is not set (source scripts/services.sh start)"
fi

spider=${SPIDER:-../shared/data/spider}
echo "8. schema retrieval, one core (targets: recall@5 ≥ 0.97, shown ≤ 3% of the schema, p50 < 20 ms, p99 < 100 ms on 10,000 tables)"
echo "  baseline: sending the whole schema shows 100% of it (its size in tokens is the 'full schema' figure)"
if [ -f "$spider/dev.json" ]; then
	taskset -c 0 "$q" eval --retrieval --spider "$spider" --tables 10000 | sed 's/^/  /'
else
	echo "  pooled Spider skipped: no $spider/dev.json (set SPIDER=DIR)"
	taskset -c 0 "$q" eval --retrieval --tables 10000 | sed 's/^/  /'
fi
go test -run '^$' -bench 'BenchmarkRetrieval' -benchmem -cpu 1 ./internal/eval/ | grep -E '^Benchmark' | sed 's/^/  /'
echo "  one search of the 10,000-table catalog, and building its index (the agent builds one per run)"

echo "9. workflows: a 50-node workflow on the demo (10 questions, 40 computations, branches and notifications) vs the same 10 questions as 10 quarry ask commands, in process (target: < 10 ms of the workflow's own overhead per node)"
go test -run '^$' -bench 'BenchmarkWorkflow50' -benchtime 5x ./cmd/quarry/ | grep -E '^Benchmark' | sed 's/^/  /'

echo "10. monitors on the job queue: 1,000 monitors due at once on one worker, a run costing nothing (the queue alone), one at a time as quarry watch serve runs them and 20 at a time (target: all within 60 s, the shortest period a schedule has; the SQLite state vs PostgreSQL)"
go test -run '^$' -bench 'BenchmarkThousandMonitors/sqlite' -benchtime 1x ./internal/watch/watchqueue/ | grep -E '^Benchmark' | sed 's/^/  /'
if [ -n "${QUARRY_TEST_POSTGRES_URL:-}" ]; then
	go test -run '^$' -bench 'BenchmarkThousandMonitors/postgres' -benchtime 1x ./internal/watch/watchqueue/ | grep -E '^Benchmark' | sed 's/^/  /'
else
	echo "  postgres  skipped: QUARRY_TEST_POSTGRES_URL is not set (source scripts/services.sh start)"
fi

echo "11. a wide schema: the synthetic 10,000-table catalog (go run ./bench/wide) as a SQLite file and, with QUARRY_TEST_POSTGRES_URL, a PostgreSQL database; quarry learn once, then quarry ask whole process ($runs runs) vs the database's own shell running one query on it (targets: learn < 60 s and < 500 MB; ask < 200 ms)"
go build -o "$work/wide-gen" ./bench/wide
mkdir -p "$work/wide"
"$work/wide-gen" -tables 10000 -dialect sqlite | sqlite3 "$work/wide/wide.db"
wideq="how many nordics travel passengers"
(cd "$work/wide" && "$q" init >/dev/null && runs=1 timeit wide-learn-sqlite "$q" learn --url "sqlite://$work/wide/wide.db")
(cd "$work/wide" && timeit wide-ask-sqlite "$q" ask "$wideq")
timeit wide-shell-sqlite sqlite3 "$work/wide/wide.db" 'SELECT count(*) FROM "nordics_travel__passengers"'
(cd "$work/wide" && timeit wide-run-sqlite "$q" run --format csv 'SELECT count(*) FROM "nordics_travel__passengers"')
echo "  run / sqlite3 shell (median): $(ratio wide-run-sqlite wide-shell-sqlite)×  (both read the whole schema of 10,000 tables; see third_party/README.md)"
echo "  ask / sqlite3 shell (median): $(ratio wide-ask-sqlite wide-shell-sqlite)×  (the shell's first query parses the whole schema too)"
if [ -n "${QUARRY_TEST_POSTGRES_URL:-}" ] && command -v psql >/dev/null; then
	wdb=qwide_$$
	admin=${QUARRY_TEST_POSTGRES_URL/\/quarry_test//postgres}
	psql -q "$admin" -c "CREATE DATABASE $wdb" -c "DROP ROLE IF EXISTS ${wdb}_reader" -c "CREATE ROLE ${wdb}_reader LOGIN"
	wurl=${QUARRY_TEST_POSTGRES_URL/\/quarry_test//$wdb}
	"$work/wide-gen" -tables 10000 -dialect postgres | psql -q "$wurl"
	psql -q "$wurl" -c "DO \$\$ DECLARE s text; BEGIN FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' AND nspname <> 'information_schema' LOOP EXECUTE format('GRANT USAGE ON SCHEMA %I TO ${wdb}_reader', s); EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO ${wdb}_reader', s); END LOOP; END \$\$" -c "ANALYZE"
	rurl=$(echo "$wurl" | sed "s#://[^@]*@#://${wdb}_reader@#")
	mkdir -p "$work/widepg"
	(cd "$work/widepg" && "$q" init >/dev/null && runs=1 timeit wide-learn-postgres "$q" learn --url "$rurl")
	(cd "$work/widepg" && timeit wide-ask-postgres "$q" ask "$wideq")
	timeit wide-psql psql -qAt "$rurl" -c 'SELECT count(*) FROM nordics_travel.passengers'
	echo "  ask / psql (median): $(ratio wide-ask-postgres wide-psql)×  (the first ask reads the catalog; the others its version)"
	psql -q "$admin" -c "DROP DATABASE $wdb WITH (FORCE)" -c "DROP ROLE ${wdb}_reader"
else
	echo "  postgres  skipped: QUARRY_TEST_POSTGRES_URL is not set (source scripts/services.sh start)"
fi
