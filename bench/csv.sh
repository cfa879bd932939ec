#!/usr/bin/env bash
# Times exporting 1,000,000 rows to CSV: the sqlite3 shell against quarry's
# connector + csv writer (bench/csvexport), on the same query and database.
# Prints wall time and peak RSS of each run. Needs sqlite3 and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${ROWS:-1000000}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tool in sqlite3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "csv.sh: $tool is missing (apt-get install -y sqlite3 time)" >&2; exit 2; }
done

db=$work/bench.db
sqlite3 "$db" <<SQL
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount REAL, ordered_at TIMESTAMP, status TEXT, quantity INTEGER);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < $rows)
INSERT INTO orders SELECT x, 'customer ' || (x % 5000), round((x * 37 % 100000) / 100.0, 2),
	datetime(1700000000 + x * 61, 'unixepoch'), CASE x % 4 WHEN 0 THEN 'refunded' ELSE 'completed' END, x % 7 + 1 FROM s;
SQL
query="SELECT id, customer, amount, ordered_at, status, quantity FROM orders"
go build -o "$work/csvexport" ./bench/csvexport

echo "exporting $rows rows to CSV, $runs runs each (wall time, peak RSS)"
for i in $(seq "$runs"); do
	printf 'sqlite3 shell:  '
	/usr/bin/time -f '%e s %M KB' sqlite3 -csv -header "$db" "$query" > "$work/shell.csv"
	printf 'quarry:         '
	/usr/bin/time -f '%e s %M KB' "$work/csvexport" -db "$db" -sql "$query" > "$work/quarry.csv"
done 2>&1
# The shell quotes every text field and writes reals as 12.0; compare the
# row counts and show the first rows of each.
echo "lines: shell $(wc -l < "$work/shell.csv"), quarry $(wc -l < "$work/quarry.csv")"
echo "shell:  $(sed -n 2p "$work/shell.csv")"
echo "quarry: $(sed -n 2p "$work/quarry.csv")"

echo "one row, whole process, $runs runs each (wall time, peak RSS)"
for i in $(seq "$runs"); do
	printf 'sqlite3 shell:  '
	/usr/bin/time -f '%e s %M KB' sqlite3 -csv -header "$db" "SELECT * FROM orders WHERE id = 42" > /dev/null
	printf 'quarry:         '
	/usr/bin/time -f '%e s %M KB' "$work/csvexport" -db "$db" -sql "SELECT * FROM orders WHERE id = 42" > /dev/null
done 2>&1
