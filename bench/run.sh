#!/usr/bin/env bash
# Measures the docs/performance.md budgets at real sizes:
#   - the first frame as the terminal receives it, through a pty, until the
#     active form is drawn (bench/ptyframe: it opens the pty itself, plays
#     an xterm and times the form's text arriving): `followup` on the
#     large database, on the same with the open chat at 100,000 messages
#     and on 10,000 chats, side by side with bench/floor (a minimal Bubble
#     Tea program drawing one huh form, the same text field the open form
#     starts with) and with the floor built -tags deps (linking followup's
#     libraries, calling none), interleaved, many runs, medians and ratios;
#     each program runs as for a user (frames on its renderer's ticks) and
#     is ended once the form arrived; with EXIT=1 each quits by itself
#     right after its first frame instead (flushed at once, off the tick);
#   - `followup pending --json` on the large database, whole process.
# Usage: [PENDING=10] [EXIT=1] [DB_BIG=…] [DB_HISTORY=…] [DB_CHATS=…] bench/run.sh [RUNS]
# (default 31 runs of each)
# Needs go; uses hyperfine too when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-31}
PENDING=${PENDING:-10} # percentage of the 10,000 requests left pending
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

# median reads microseconds, one a line, and prints milliseconds.
median_ms() { sort -n | awk '{a[NR]=$1} END {m = NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }
rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }

echo "== build"
go build -tags benchhooks -o "$WORK/followup" . # the first-frame hook (ui/benchhooks.go)
go build -o "$WORK/floor" ./bench/floor
go build -tags deps -o "$WORK/floordeps" ./bench/floor # the floor linking followup's libraries
go build -o "$WORK/ptyframe" ./bench/ptyframe

# The three databases the first-frame budget names: the large one, the
# same with its newest chat (the one the screen opens) at 100,000
# messages, and the same messages and requests in 10,000 chats. DB_BIG,
# DB_HISTORY and DB_CHATS name databases to copy instead of seeding them.
seed() { # NAME FROM FLAGS…
	local name=$1 from=$2; shift 2
	if [ -n "$from" ]; then cp "$from" "$WORK/$name.db"; return; fi
	/usr/bin/time -f "  seed $name: %e s wall, %M KB max RSS" go run ./bench/seed -db "$WORK/$name.db" -pending "$PENDING" "$@" >/dev/null
}
echo "== seed"
seed big "${DB_BIG:-}"                                           # 1,000 chats, 100,000 messages, 10,000 requests
seed history "${DB_HISTORY:-}" -messages 200000 -big-chat 100000 # the open chat at 100,000 messages
seed chats "${DB_CHATS:-}" -chats 10000                          # 10,000 chats

# The floor's form is one text field; followup's pane ends with its key
# hints, focused or not (the form's text field, or a proposal over it).
FLOOR="enter submit=env FLOOR_FIELD=input"
FORM="ctrl+f to|esc leave=$WORK/followup --db"
echo "== start to the active form received through a pty ($RUNS runs each, interleaved, 120x40)"
load_note
"$WORK/ptyframe" -runs "$RUNS" -ref big ${EXIT:+-exit} \
	"floor=$FLOOR $WORK/floor" "floordeps=$FLOOR $WORK/floordeps" \
	"big=$FORM $WORK/big.db" "history=$FORM $WORK/history.db" "chats=$FORM $WORK/chats.db"
echo "budgets: big ×floor ≤ 1.1; history and chats ×big ≤ 1.05"
load_note

echo "== followup pending --json ($RUNS runs)"
"$WORK/followup" --db "$WORK/big.db" pending --json >"$WORK/pending.json"
echo "output: $(wc -c <"$WORK/pending.json") bytes, $(grep -o '"digest"' "$WORK/pending.json" | wc -l) requests"
for i in $(seq "$RUNS"); do # interleaved with --version, the budget's floor
	s=${EPOCHREALTIME//[!0-9]/}
	"$WORK/followup" --db "$WORK/big.db" pending --json >/dev/null
	echo "$(( ${EPOCHREALTIME//[!0-9]/} - s ))" >>"$WORK/pending.ms"
	s=${EPOCHREALTIME//[!0-9]/}
	"$WORK/followup" --version >/dev/null
	echo "$(( ${EPOCHREALTIME//[!0-9]/} - s ))" >>"$WORK/version.ms"
done
/usr/bin/time -v -o "$WORK/pending.time" "$WORK/followup" --db "$WORK/big.db" pending --json >/dev/null
P=$(median_ms <"$WORK/pending.ms"); V=$(median_ms <"$WORK/version.ms")
echo "pending --json:              median $P ms (budget 50), max RSS $(rss "$WORK/pending.time") KB"
echo "--version:                   median $V ms; pending/version $(awk "BEGIN {printf \"%.2f\", $P/$V}") (budget 2)"
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$RUNS" "$WORK/followup --db $WORK/big.db pending --json" 2>/dev/null | grep -E "Time|Range" || true
fi
