#!/usr/bin/env bash
# Measures the docs/performance.md budgets on the time until a question
# pending at start-up takes keys, whole process, through a pty
# (bench/ptyrun: it plays an xterm of 120×40, types a key once the program
# reads keys for its screen, and times the key shown in the form's field):
# `followup` on the large database (its 7-field travel form, draft
# "Lisbon"), on the same with the open chat at 100,000 messages and on
# 10,000 chats, beside bench/floor (a default Bubble Tea program with the
# same 7 fields in a huh form), interleaved, each run on a fresh copy of
# its database; medians, ranges and ratios, the CPU used by then, and the
# peak memory. Budgets: big ×floor ≤ 1.1; history and chats ×big ≤ 1.05.
# Usage: [DB_BIG=…] [DB_HISTORY=…] [DB_CHATS=…] bench/run.sh [RUNS]   (default 31 runs of each)
# DB_* name databases to copy instead of seeding them (bench/seed).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-31}
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

echo "== build"
go build -o "$WORK/followup" .
go build -o "$WORK/floor" ./bench/floor
go build -o "$WORK/ptyrun" ./bench/ptyrun

seed() { # NAME FROM FLAGS…
	local name=$1 from=$2; shift 2
	if [ -n "$from" ]; then cp "$from" "$WORK/$name.db"; else seed_large "$WORK/$name.db" "$@"; fi
	warm "$WORK/followup" "$WORK/$name.db"
}
echo "== seed"
seed big "${DB_BIG:-}"                                           # 1,000 chats, 100,000 messages, 10,000 requests
seed history "${DB_HISTORY:-}" -messages 200000 -big-chat 100000 # the open chat at 100,000 messages
seed chats "${DB_CHATS:-}" -chats 10000                          # 10,000 chats

echo "== start until the pending form takes keys ($RUNS runs each, interleaved, 120x40)"
load_note
FORM="┃ > \S*Z=$WORK/followup --db @copy:$WORK"
"$WORK/ptyrun" -runs "$RUNS" -ref big "floor=┃ > Z=$WORK/floor" \
	"big=$FORM/big.db" "history=$FORM/history.db" "chats=$FORM/chats.db"
echo "budgets: big ×floor ≤ 1.1; history and chats ×big ≤ 1.05"
load_note
