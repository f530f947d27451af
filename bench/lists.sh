#!/usr/bin/env bash
# Measures the docs/performance.md budget "followup chats --json (all chats)
# and opening the chat list: at 10,000 chats ≤ 1.1× at 1,000 chats", whole
# process:
#   - `followup chats --json` listing every chat a page of 1,000 at a
#     time (1 page, then 10), RUNS rounds, the databases in turn: median
#     wall time per page (per 1,000 chats listed) and the ratio;
#   - opening the chat list in the chat screen (tmux, 120×40): ctrl+o, the
#     list drawn, esc, the chat drawn again, OPENS times a round in one
#     process per database, the databases in turn each round; CPU per
#     open is the process's utime+stime over the opens less its idle CPU
#     over the same wall time, over the opens.
# The databases are the large one (1,000 chats, 100,000 messages, 10,000
# requests) and the same messages and requests in 10,000 chats, both built
# by bench/seed (or DB1K and DB10K name copies to use).
# Usage: [RUNS=21] [OPENS=20] bench/lists.sh [ROUNDS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
RUNS=${RUNS:-21}
OPENS=${OPENS:-20}
WORK=$(mktemp -d)
. bench/lib.sh
trap 't kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT

go build -o "$WORK/followup" .
if [ -n "${DB1K:-}" ]; then cp "$DB1K" "$WORK/1k.db"; else seed_large "$WORK/1k.db"; fi
if [ -n "${DB10K:-}" ]; then cp "$DB10K" "$WORK/10k.db"; else seed_large "$WORK/10k.db" -chats 10000; fi
load_note
for db in 1k 10k; do "$WORK/followup" --db "$WORK/$db.db" chats --json >/dev/null; done # migrated, warm

# Every chat, a page of 1,000 at a time (--limit 1000, each next page from
# the one before's "next"): 1 page on 1,000 chats, 10 on 10,000, so the
# output grows with the chats; the cost per 1,000 chats listed must not.
pages() { # DB → the cursors of its pages, one a line ("" for the first)
	local next="" more=true
	while [ "$more" = true ]; do
		echo "$next"
		read -r more next < <("$WORK/followup" --db "$1" chats --json --limit 1000 ${next:+--cursor "$next"} |
			python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["more"]).lower(), d.get("next", ""))')
	done
}
echo "== followup chats --json, every chat a page of 1,000 at a time ($RUNS rounds, interleaved)"
for db in 1k 10k; do pages "$WORK/$db.db" >"$WORK/pages-$db"; done
for _ in $(seq "$RUNS"); do
	for db in 1k 10k; do
		s=${EPOCHREALTIME//[!0-9]/}; n=0; bytes=0
		while read -r c; do
			b=$("$WORK/followup" --db "$WORK/$db.db" chats --json --limit 1000 ${c:+--cursor "$c"} | wc -c)
			n=$((n + 1)); bytes=$((bytes + b))
			if [ "$n" = 1 ]; then echo "$(( ${EPOCHREALTIME//[!0-9]/} - s ))" >>"$WORK/first-$db"; fi
		done <"$WORK/pages-$db"
		echo "$(( (${EPOCHREALTIME//[!0-9]/} - s) / n ))" >>"$WORK/page-$db"
		echo "$n $bytes" >"$WORK/size-$db"
	done
done
for db in 1k 10k; do
	read -r n bytes <"$WORK/size-$db"
	echo "  $db chats: $n pages, $bytes bytes; per page (1,000 chats) median $(awk '{print $1/1000}' "$WORK/page-$db" | median) ms ($(awk '{print $1/1000}' "$WORK/page-$db" | range)); the first page $(awk '{print $1/1000}' "$WORK/first-$db" | median) ms"
done
echo "  ratio 10k/1k per 1,000 chats listed: $(ratio "$(median <"$WORK/page-10k")" "$(median <"$WORK/page-1k")") (budget 1.1)"

echo "== opening the chat list ($OPENS opens × $ROUNDS rounds each)"
for round in $(seq "$ROUNDS"); do
	for db in 1k 10k; do
		pid=$(start_screen "l$db" "$WORK/followup" --db "$WORK/$db.db")
		wait_screen_re "l$db" " help *$" 60
		wait_still "l$db"
		i0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}; sleep 2
		idle=$(awk -v a="$i0" -v b="$(cpu_ms "$pid")" -v us=$(( ${EPOCHREALTIME//[!0-9]/} - s )) 'BEGIN {print (b - a) * 1000 / us}')
		c0=$(cpu_ms "$pid"); s=${EPOCHREALTIME//[!0-9]/}
		for _ in $(seq "$OPENS"); do
			o=${EPOCHREALTIME//[!0-9]/}
			t send-keys -t "l$db" C-o
			wait_screen_re "l$db" 'Chats \([0-9]+\+? chats?\)'
			echo "$(( ${EPOCHREALTIME//[!0-9]/} - o ))" >>"$WORK/shown-$db"
			t send-keys -t "l$db" Escape
			wait_screen_re "l$db" " help *$"
		done
		wait_still "l$db"
		c1=$(cpu_ms "$pid"); us=$(( ${EPOCHREALTIME//[!0-9]/} - s ))
		stop_screen "l$db" "$pid"
		awk -v a="$c0" -v b="$c1" -v us="$us" -v idle="$idle" -v n="$OPENS" \
			'BEGIN {printf "%.2f\n", (b - a - idle * us / 1000) / n}' >>"$WORK/open-$db"
	done
done
for db in 1k 10k; do
	echo "  $db chats: CPU per open $(median <"$WORK/open-$db") ms ($(range <"$WORK/open-$db")), shown after $(awk '{print $1/1000}' "$WORK/shown-$db" | median) ms (polled every 20 ms)"
done
echo "  ratio 10k/1k (CPU per open): $(ratio "$(median <"$WORK/open-10k")" "$(median <"$WORK/open-1k")") (budget 1.1)"
load_note
