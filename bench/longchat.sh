#!/usr/bin/env bash
# Measures the docs/performance.md budget "a long chat: twelve 6,000-word
# replies in one chat — the last reply costs ≤ 1.2× the first in CPU;
# resident memory ≤ 80 MB throughout", whole process: the chat screen, in
# tmux (120×40), asks a model server on loopback (bench/streamserver,
# OpenAI wire format) for REPLIES replies of WORDS words in one chat, each
# streamed at RATE deltas a second (0: as fast as the screen reads). For
# each reply it prints the process's CPU (utime+stime) from the message
# sent to the reply stored and drawn, and VmRSS after it; at the end the
# peak (VmHWM), the last reply's CPU over the first's, and whether the
# stored replies are the streamed text (SHA-256).
# FOLLOWUP_BIN names a followup binary to measure instead of building this tree.
# Usage: [REPLIES=12] [WORDS=6000] [RATE=450] bench/longchat.sh [ROUNDS]   (default 1)
# Needs go, tmux and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-1}
REPLIES=${REPLIES:-12}
WORDS=${WORDS:-6000}
RATE=${RATE:-450}
WORK=$(mktemp -d)
SERVER=
. bench/lib.sh
trap 't kill-server 2>/dev/null || true; [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT

if [ -n "${FOLLOWUP_BIN:-}" ]; then cp "$FOLLOWUP_BIN" "$WORK/followup"; else go build -o "$WORK/followup" .; fi
go build -o "$WORK/streamserver" ./bench/streamserver
"$WORK/streamserver" -log "$WORK/server.log" >"$WORK/url" &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/url" ] && break; sleep 0.05; done
URL=$(cat "$WORK/url")
load_note

for round in $(seq "$ROUNDS"); do
	db="$WORK/long$round.db"
	: >"$WORK/server.log"
	pid=$(start_screen long env FOLLOWUP_PROVIDER=openai OPENAI_BASE_URL="$URL" OPENAI_API_KEY=bench \
		"$WORK/followup" --db "$db")
	wait_screen long "Message the agent" 60
	echo "round $round: reply, CPU ms, VmRSS MB after it" >&2
	for k in $(seq "$REPLIES"); do
		c0=$(cpu_ms "$pid")
		t send-keys -t long -l "stream $WORDS $RATE $k"
		t send-keys -t long Enter
		until [ "$(wc -l <"$WORK/server.log")" -ge "$k" ]; do sleep 0.05; done
		wait_screen long "End of the $WORDS-word reply ($k)." 120
		wait_screen_re long 'succeeded|failed' 120
		wait_still long
		c1=$(cpu_ms "$pid")
		echo "$k $(awk -v a="$c0" -v b="$c1" 'BEGIN {print b - a}') $(( $(rss_kb "$pid") / 1024 ))" | tee -a "$WORK/r$round" >&2
	done
	hwm=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$pid/status")
	stop_screen long "$pid"
	stored=$(python3 - "$WORK/followup" "$db" "$WORK/server.log" <<'PY'
import hashlib, json, subprocess, sys
fu, db, log = sys.argv[1:4]
def cli(*a):
    return json.loads(subprocess.run([fu, "--db", db, *a, "--json"], capture_output=True, text=True, check=True).stdout)
chat = cli("chats")["chats"][0]["id"]
got = [hashlib.sha256(m["content"].encode()).hexdigest() for m in cli("inspect", chat)["messages"] if m["role"] == "assistant"]
want = [l.split("sha256=")[1].split()[0] for l in open(log)]
print("ok" if got == want else "BAD (%d stored, %d sent)" % (len(got), len(want)))
PY
)
	first=$(awk 'NR==1 {print $2}' "$WORK/r$round"); last=$(awk 'END {print $2}' "$WORK/r$round")
	echo "round $round: first reply $first ms CPU, last $last ms: last/first $(ratio "$last" "$first") (budget ≤ 1.2);" \
		"VmRSS after the last $(awk 'END {print $3}' "$WORK/r$round") MB, peak $hwm MB (budget ≤ 80); stored = streamed: $stored"
done
load_note
