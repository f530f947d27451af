#!/usr/bin/env bash
# Measures the docs/performance.md budgets "CPU per key, typing at 20
# keys/s into a 32-field form over a 2,000-message transcript ≤ the
# floor's with 32 fields" and "idle with a form open ≤ the floor's",
# whole process, through a pty (bench/ptyrun, 120×40): once the form has
# taken its first key, the idle CPU over IDLE (3 s), then KEYS keys (200)
# typed at RATE a second (20) into its first field, a letter and a
# backspace in turn; CPU per key is the CPU over the keys less the idle
# rate over the same time, over KEYS (the raw figure too), and the run
# fails unless the letters show in the form's field. followup runs on the
# large database with its newest chat's 32-field form shown first
# (bench/seed -big-first), bench/floor with the same 32 fields in a huh
# form (FLOOR_FORM=big); interleaved, each run on a fresh copy.
# Usage: [IDLE=3s] [KEYS=200] [RATE=20] [DB=…] bench/keys.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

go build -o "$WORK/followup" .
go build -o "$WORK/floor" ./bench/floor
go build -o "$WORK/ptyrun" ./bench/ptyrun
if [ -n "${DB:-}" ]; then cp "$DB" "$WORK/big.db"; else seed_large "$WORK/big.db" -big-first; fi
warm "$WORK/followup" "$WORK/big.db"
load_note
"$WORK/ptyrun" -runs "$RUNS" -warmup 1 -keys "${KEYS:-200}" -rate "${RATE:-20}" -idle "${IDLE:-3s}" \
	"floor=┃ > Z=env FLOOR_FORM=big $WORK/floor" "followup=┃ > \S*Z=$WORK/followup --db @copy:$WORK/big.db"
echo "budgets: followup ×floor ≤ 1 for the CPU per key and for idle"
load_note
