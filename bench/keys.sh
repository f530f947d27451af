#!/usr/bin/env bash
# Measures the docs/performance.md budgets "whole-process CPU per key ≤ the
# floor's" and "idle with a form open ≤ 0.5% of a core", side by side with
# bench/floor (a minimal Bubble Tea program drawing one huh form, here one
# text field: FLOOR_FIELD=input), interleaved, in the same tmux terminal
# size (120×40):
#   - idle: the process's utime+stime from /proc over IDLE seconds (30)
#     with the form drawn and focused (the floor's cursor blinks; followup's
#     is steady, and its screen draws nothing while nothing changes);
#   - keys: KEYS keys (400) held in the form's focused text field, a letter
#     and a backspace in turn, one tmux send-keys each, then the screen
#     waited for until still; CPU per key is the CPU over the keys, less
#     the idle rate over the same wall time, over KEYS.
# followup runs on the large database (bench/seed), its newest chat's
# 7-field travel form open and focused.
# Usage: [IDLE=30] [KEYS=400] bench/keys.sh [ROUNDS]   (default 3)
# Needs go and tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
IDLE=${IDLE:-30}
KEYS=${KEYS:-400}
WORK=$(mktemp -d)
. bench/lib.sh
trap 't kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT

go build -o "$WORK/followup" .
go build -o "$WORK/floor" ./bench/floor
if [ -n "${DB:-}" ]; then cp "$DB" "$WORK/large.db"; else seed_large "$WORK/large.db"; fi
load_note

# measure NAME READY CMD… prints "idle_pct key_us" for one run of CMD.
measure() {
	local name=$1 ready=$2; shift 2
	local pid c0 c1 s us idle i
	pid=$(start_screen "$name" "$@")
	wait_screen "$name" "$ready" 60
	wait_still "$name"
	sleep 1
	c0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}
	sleep "$IDLE"
	c1=$(cpu_ms "$pid"); us=$(( ${EPOCHREALTIME//[!0-9]/} - s ))
	idle=$(awk -v a="$c0" -v b="$c1" -v us="$us" 'BEGIN {print (b - a) * 1000 / us}') # CPU ms per wall ms
	c0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}
	for i in $(seq "$KEYS"); do
		if [ $((i % 2)) = 1 ]; then t send-keys -t "$name" -l a; else t send-keys -t "$name" BSpace; fi
	done
	wait_still "$name"
	c1=$(cpu_ms "$pid"); us=$(( ${EPOCHREALTIME//[!0-9]/} - s ))
	stop_screen "$name" "$pid"
	awk -v a="$c0" -v b="$c1" -v us="$us" -v idle="$idle" -v n="$KEYS" \
		'BEGIN {printf "%.3f %.0f %.0f\n", idle * 100, (b - a - idle * us / 1000) * 1000 / n, (b - a) * 1000 / n}'
}

for round in $(seq "$ROUNDS"); do
	f=$(measure floor "Destination" env FLOOR_FIELD=input "$WORK/floor")
	echo "$f" >>"$WORK/res-floor"
	u=$(measure fu "esc leave" "$WORK/followup" --db "$WORK/large.db")
	echo "$u" >>"$WORK/res-followup"
	echo "  round $round: floor idle %, µs/key, raw µs/key: $f; followup: $u" >&2
done

col() { awk -v c="$1" '{print $c}' "$2"; }
printf "\n%-22s %18s %22s %18s\n" "" "idle (% of a core)" "CPU per key (µs)" "raw per key (µs)"
for p in floor followup; do
	printf "%-22s %18s %22s %18s\n" "$p" "$(col 1 "$WORK/res-$p" | median) ($(col 1 "$WORK/res-$p" | range))" \
		"$(col 2 "$WORK/res-$p" | median) ($(col 2 "$WORK/res-$p" | range))" "$(col 3 "$WORK/res-$p" | median)"
done
echo "followup/floor per key: $(ratio "$(col 2 "$WORK/res-followup" | median)" "$(col 2 "$WORK/res-floor" | median)") (budget ≤ 1); idle budget ≤ 0.5%"
load_note
