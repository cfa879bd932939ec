#!/usr/bin/env bash
# Rebuilds third_party/go-sqlite3-wasm from the upstream module, applies
# sqlite-hash-rehash.patch to it and points go.mod's replace at it for that
# version. Run it after changing the version of github.com/ncruces/go-sqlite3
# (which pins the module's version), with the version go.mod then requires:
#
#   third_party/update.sh v6.7.35401
#
# It fails, leaving the old copy in place, when the patch no longer applies.
set -euo pipefail
cd "$(dirname "$0")"
version=${1:?usage: third_party/update.sh VERSION (of github.com/ncruces/go-sqlite3-wasm/v6)}
src=$(go mod download -json "github.com/ncruces/go-sqlite3-wasm/v6@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "update: cannot download github.com/ncruces/go-sqlite3-wasm/v6@$version" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src" "$tmp/mod"
chmod -R u+w "$tmp/mod"
rm -rf "$tmp/mod/.github"
patch -d "$tmp/mod" -p1 --forward --no-backup-if-mismatch < sqlite-hash-rehash.patch
rm -rf go-sqlite3-wasm
mv "$tmp/mod" go-sqlite3-wasm
# The replace names the version it patches: a driver that needs another
# version of the engine gets upstream's until this script is run for it.
sed -i '/^replace github.com\/ncruces\/go-sqlite3-wasm\/v6 /d' ../go.mod
(cd .. && go mod edit -replace "github.com/ncruces/go-sqlite3-wasm/v6@$version=./third_party/go-sqlite3-wasm")
echo "third_party/go-sqlite3-wasm is $version with sqlite-hash-rehash.patch; go.mod replaces that version with it"
