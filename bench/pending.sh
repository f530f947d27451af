#!/usr/bin/env bash
# Measures the docs/performance.md budget "followup pending --json at 10,000
# requests: ≤ 50 ms", whole process: the
# large database (bench/seed: 1,000 chats, 100,000 messages, 10,000
# requests, 1,001 of them pending), `pending --json` interleaved with
# `--version` of the same binary (the floor: the same start-up and package
# initialisation, no database), RUNS rounds (bench/interleave): median wall
# and CPU time, ranges, ratios.
# With BASE=REV it builds that revision too and runs its `pending --json`
# in the same rounds (on its own copy of the database), and says whether
# the two documents are byte for byte the same.
# It also checks that the reads left the database file as it was.
# Usage: [DB=big.db] [BASE=REV] bench/pending.sh [RUNS]   (default 61)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-61}
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

echo "== build"
go build -o "$WORK/followup" .
go build -o "$WORK/interleave" ./bench/interleave
if [ -n "${BASE:-}" ]; then
	mkdir "$WORK/base-src"
	git archive "$BASE" | tar -x -C "$WORK/base-src"
	(cd "$WORK/base-src" && go build -o "$WORK/base" .)
	echo "base: $(git rev-parse --short "$BASE")"
fi

echo "== database"
if [ -n "${DB:-}" ]; then cp "$DB" "$WORK/big.db"; else seed_large "$WORK/big.db"; fi
"$WORK/followup" --db "$WORK/big.db" pending --json >"$WORK/pending.json" # migrated, warm
echo "output: $(wc -c <"$WORK/pending.json") bytes, $(grep -o '"digest"' "$WORK/pending.json" | wc -l) requests"
cmds=("--version::$WORK/followup --version" "pending --json::$WORK/followup --db $WORK/big.db pending --json")
if [ -n "${BASE:-}" ]; then
	cp "$WORK/big.db" "$WORK/base.db"
	"$WORK/base" --db "$WORK/base.db" pending --json >"$WORK/base.json"
	if cmp -s "$WORK/pending.json" "$WORK/base.json"; then same=yes; else same=NO; fi
	echo "base's document byte for byte the same: $same"
	cmds+=("base: pending --json::$WORK/base --db $WORK/base.db pending --json")
fi
before=$(stat -c '%s %y' "$WORK/big.db")

echo "== interleaved"
load_note
"$WORK/interleave" -runs "$RUNS" -- "${cmds[@]}"
load_note
echo "budget: pending --json ≤ 50 ms (--version beside it: the same start-up, no database)"
if [ "$(stat -c '%s %y' "$WORK/big.db")" = "$before" ]; then
	echo "the database file: unchanged by the reads"
else
	echo "the database file: CHANGED by the reads"
fi
