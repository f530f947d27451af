#!/usr/bin/env bash
# Measures the docs/performance.md budgets "resident memory after 100 chat switches
# ≤ 80 MB" and "a chat switch ≤ 10 ms of CPU", whole process: the chat
# screen runs in tmux and switches chats the way a user does (ctrl+o,
# down, enter), 100 times, each switch waited for until the screen is
# still. After opening, after 50 and after 100 switches it reads VmRSS and
# smaps_rollup (Pss split into anonymous and file-backed pages: the
# database pages a reader maps count there). CPU per switch is the
# process's utime+stime over the 100 switches, less its idle CPU over the
# same wall time (measured for 3 s before), over 100.
# Usage: bench/switch.sh [DB…]   (default: the large database, built by
# bench/seed; give a 500 MB one too, e.g. one built with
#   go run ./bench/seed -db /tmp/db500.db -chats 2000 -messages 750000 -requests 50000)
# Each database is copied first (opening may migrate it). FOLLOWUP_BIN
# names a followup binary to measure instead of building this tree.
# Needs go, tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
. bench/lib.sh
trap 't kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
SWITCHES=${SWITCHES:-100}

if [ -n "${FOLLOWUP_BIN:-}" ]; then cp "$FOLLOWUP_BIN" "$WORK/followup"; else go build -o "$WORK/followup" .; fi
DBS=("$@")
if [ ${#DBS[@]} -eq 0 ]; then
	seed_large "$WORK/large.db"
	DBS=("$WORK/large.db")
fi
load_note

mem() { echo "VmRSS $(( $(rss_kb "$1") / 1024 )) MB; $(smaps "$1" | awk '{for (i=1;i<=NF;i++) {split($i,kv,"="); printf "%s %d MB  ", kv[1], kv[2]/1024}}')"; }

for src in "${DBS[@]}"; do
	db="$WORK/copy.db"
	rm -f "$db" "$db-wal" "$db-shm"
	cp "$src" "$db"
	echo "== $(basename "$src") ($(( $(stat -c %s "$src") / 1048576 )) MB)"
	pid=$(start_screen sw "$WORK/followup" --db "$db")
	wait_screen_re sw " help *$" 60
	wait_still sw
	echo "  opened:            $(mem "$pid")"
	i0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}; sleep 3
	idle=$(awk -v a="$i0" -v b="$(cpu_ms "$pid")" -v us=$(( ${EPOCHREALTIME//[!0-9]/} - s )) 'BEGIN {print (b - a) * 1000 / us}') # ms per ms
	c0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}
	for n in $(seq "$SWITCHES"); do
		t send-keys -t sw C-o
		wait_screen_re sw 'Chats \([0-9]+\+? chats?\)'
		t send-keys -t sw Down
		t send-keys -t sw Enter
		wait_screen_re sw " help *$"
		wait_still sw
		if [ "$n" -eq $(( SWITCHES / 2 )) ]; then echo "  after $n switches: $(mem "$pid")"; fi
	done
	c1=$(cpu_ms "$pid"); wall=$(( ${EPOCHREALTIME//[!0-9]/} - s ))
	echo "  after $SWITCHES switches: $(mem "$pid")"
	awk -v c0="$c0" -v c1="$c1" -v wall="$wall" -v idle="$idle" -v n="$SWITCHES" 'BEGIN {
		printf "  CPU: %.0f ms over %d switches in %.1f s; idle %.2f%% of a core; per switch %.1f ms, less idle %.1f ms\n",
			c1 - c0, n, wall / 1e6, idle * 100, (c1 - c0) / n, (c1 - c0 - idle * wall / 1000) / n }'
	stop_screen sw "$pid"
done
load_note
