#!/usr/bin/env bash
# Measures the docs/performance.md budget "streaming a reply": the chat screen, in
# tmux, streams markdown replies from a model server on loopback
# (bench/streamserver, OpenAI chat-completions wire format) at several
# sizes and speeds. For each run it reports the whole process's CPU time
# (utime+stime from /proc) per delta, from the message sent to the stored
# reply on screen, and checks what was drawn:
#   - stored: the reply recorded in the database is the text the server
#     streamed (same SHA-256), so no delta was lost;
#   - screen: the words on the final screen, above the composer, are the
#     last words of the stored reply, in order, with nothing after them
#     (no copy of a streamed tail under the reply), and its end mark
#     appears once.
# Sizes run interleaved in each round; medians over the rounds, and the
# ratio of each size's CPU per delta to the 500-word reply's (budget: the
# 6,000-word reply ≤ 1.3×), with the marginal cost of a delta.
# Usage: [SIZES="500 1500 3000 6000"] [RATES="450 0"] bench/stream.sh [ROUNDS]
# (RATE 0 streams as fast as the screen reads; default 3 rounds)
# Needs go, tmux and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SIZES=${SIZES:-500 1500 3000 6000}
RATES=${RATES:-450 0}
WORK=$(mktemp -d)
SERVER=
. bench/lib.sh
cleanup() {
	t kill-server 2>/dev/null || true
	[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

go build -o "$WORK/followup" .
go build -o "$WORK/streamserver" ./bench/streamserver
: >"$WORK/server.log"
"$WORK/streamserver" -log "$WORK/server.log" >"$WORK/url" &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/url" ] && break; sleep 0.05; done
URL=$(cat "$WORK/url")
load_note

# check DB WORDS SHA SCREEN prints "stored=ok|BAD screen=ok|BAD words=N
# marks=N" for a run's database and its captured final screen.
check() {
	python3 - "$@" <<'PY'
import hashlib, json, subprocess, sys
fu, db, words, sha, screen = sys.argv[1:6]
def cli(*a):
    return json.loads(subprocess.run([fu, "--db", db, *a, "--json"], capture_output=True, text=True, check=True).stdout)
chat = cli("chats")["chats"][0]["id"]
msgs = [m for m in cli("inspect", chat)["messages"] if m["role"] == "assistant"]
reply = msgs[-1]["content"] if msgs else ""
stored = hashlib.sha256(reply.encode()).hexdigest() == sha
lines = open(screen).read().split("\n")
end = next(i for i, l in enumerate(lines) if l.startswith("›"))
region = lines[:end]
if "agent" in [l.strip() for l in region]:
    region = region[[l.strip() for l in region].index("agent") + 1:]
shown = " ".join(region).split()
want = reply.replace("**", "").replace("`", "").split()
mark = "End of the %s-word reply (1)." % words
ok = len(shown) > 0 and want[len(want) - len(shown):] == shown
print("stored=%s screen=%s words=%d marks=%d" % ("ok" if stored else "BAD", "ok" if ok else "BAD",
      len(shown), open(screen).read().count(mark)))
PY
}

run_one() { # WORDS RATE → "cpu_ms deltas ms check…"
	local words=$1 rate=$2 name=s$RANDOM db="$WORK/s$RANDOM.db" pid c0 c1 n
	pid=$(start_screen "$name" env FOLLOWUP_PROVIDER=openai OPENAI_BASE_URL="$URL" OPENAI_API_KEY=bench \
		"$WORK/followup" --db "$db")
	wait_screen "$name" "Message the agent"
	n=$(wc -l <"$WORK/server.log" 2>/dev/null || echo 0)
	c0=$(cpu_ms "$pid")
	t send-keys -t "$name" -l "stream $words $rate"
	t send-keys -t "$name" Enter
	until [ "$(wc -l <"$WORK/server.log" 2>/dev/null || echo 0)" -gt "$n" ]; do sleep 0.05; done
	wait_screen "$name" "End of the $words-word reply (1)."
	wait_screen "$name" "succeeded"
	sleep 0.3 # the last load and frame
	c1=$(cpu_ms "$pid")
	t capture-pane -p -t "$name" >"$WORK/screen.txt"
	stop_screen "$name" "$pid"
	local line; line=$(tail -1 "$WORK/server.log")
	local deltas sha ms
	deltas=$(sed 's/.*deltas=\([0-9]*\).*/\1/' <<<"$line")
	sha=$(sed 's/.*sha256=\([0-9a-f]*\).*/\1/' <<<"$line")
	ms=$(sed 's/.*ms=\([0-9]*\).*/\1/' <<<"$line")
	echo "$(awk -v a="$c0" -v b="$c1" 'BEGIN {print b - a}') $deltas $ms $(check "$WORK/followup" "$db" "$words" "$sha" "$WORK/screen.txt")"
}

for rate in $RATES; do
	for round in $(seq "$ROUNDS"); do
		for words in $SIZES; do
			r=$(run_one "$words" "$rate")
			echo "$r" >>"$WORK/r-$rate-$words"
			echo "  rate $rate, $words words, round $round: $r" >&2
		done
	done
done

# CPU per delta is the whole run's CPU over its deltas; "marginal" is
# what the deltas beyond the first size's cost each: (CPU − CPU₀) /
# (deltas − deltas₀), medians — the cost of a delta late in a long reply,
# without the fixed cost of the message, the run and the final load.
printf "\n%-8s %-7s %8s %12s %10s %-26s %7s %14s  %s\n" rate words deltas "stream (ms)" "CPU (ms)" "CPU/delta µs (range)" "ratio" "marginal µs" checks
for rate in $RATES; do
	base= cpu0= d0=
	for words in $SIZES; do
		f="$WORK/r-$rate-$words"
		per=$(awk '{print $1 * 1000 / $2}' "$f" | median)
		cpu=$(awk '{print $1}' "$f" | median)
		deltas=$(awk '{print $2}' "$f" | median)
		marginal=-
		if [ -z "$base" ]; then base=$per cpu0=$cpu d0=$deltas
		else marginal=$(awk -v c="$cpu" -v c0="$cpu0" -v d="$deltas" -v d0="$d0" 'BEGIN {printf "%.0f", (c - c0) * 1000 / (d - d0)}'); fi
		checks=$(awk '{print $4, $5, $7}' "$f" | sort | uniq -c | awk '{$1=$1" ×"; print}' | paste -sd';')
		printf "%-8s %-7s %8s %12s %10s %-26s %7s %14s  %s\n" "$([ "$rate" = 0 ] && echo max || echo "$rate/s")" "$words" \
			"$deltas" "$(awk '{print $3}' "$f" | median)" "$cpu" \
			"$(printf %.0f "$per") ($(awk '{printf "%.0f\n", $1 * 1000 / $2}' "$f" | range))" "$(ratio "$per" "$base")" "$marginal" "$checks"
	done
done
load_note
