#!/usr/bin/env bash
# Measures the DESIGN §13 budgets at real sizes:
#   - start to first frame of `followup` (until the active form is drawn)
#     on the large database, on the same with the open chat at 100,000
#     messages and on 10,000 chats, side by side with bench/floor (a
#     minimal Bubble Tea program drawing one huh form), all in the same
#     tmux terminal (a private tmux server), interleaved, and with the
#     floor built -tags deps (linking followup's libraries, calling none);
#   - `followup pending --json` on the large database, whole process;
#   - maximum resident memory of both.
# Usage: [PENDING=10] [DB_BIG=…] [DB_HISTORY=…] [DB_CHATS=…] bench/run.sh [RUNS]
# (default 21 runs of each)
# Needs go, tmux and /usr/bin/time; uses hyperfine too when it is installed
# (run by hand, outside CI, the script offers to apt-get it).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
PENDING=${PENDING:-10} # percentage of the 10,000 requests left pending
WORK=$(mktemp -d)
SESSION=followup-bench-$$
cleanup() {
	tmux -S "$WORK/tmux.sock" kill-server 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

# median reads microseconds, one a line, and prints milliseconds.
median() { sort -n | awk '{a[NR]=$1} END {m = NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }
rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }

if ! command -v hyperfine >/dev/null && [ -z "${CI:-}" ] && [ -t 0 ]; then
	echo "hyperfine is not installed; installing it with apt-get (Ctrl+C to skip)…"
	if [ "$(id -u)" = 0 ]; then apt-get install -y hyperfine >/dev/null || true
	else sudo apt-get install -y hyperfine >/dev/null || true; fi
fi

echo "== build"
go build -o "$WORK/followup" .
go build -o "$WORK/floor" ./bench/floor
go build -tags deps -o "$WORK/floordeps" ./bench/floor # the floor linking followup's libraries

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
DBS="big history chats"

# One driver inside tmux (a private server) runs every program in turn on
# the same terminal; each quits right after its first frame.
cat >"$WORK/frames.sh" <<EOF
#!/usr/bin/env bash
export FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1
# ms runs a program and prints, in microseconds, start to exit and start to
# its first frame (the time it logs in FOLLOWUP_FIRST_FRAME_AT).
ms() {
	local at="$WORK/at.\$\$" s e
	rm -f "\$at"
	s=\${EPOCHREALTIME//[!0-9]/} # microseconds, read without starting a process
	FOLLOWUP_FIRST_FRAME_AT="\$at" "\$@" >/dev/tty 2>>"$WORK/err.txt"
	e=\${EPOCHREALTIME//[!0-9]/}
	echo "\$(( e - s )) \$(( \$(head -1 "\$at") / 1000 - s ))"
}
for i in \$(seq 3); do # warm-up
	"$WORK/floor" >/dev/tty; "$WORK/floordeps" >/dev/tty
	for db in $DBS; do "$WORK/followup" --db "$WORK/\$db.db" >/dev/tty; done
done
for i in \$(seq $RUNS); do
	ms "$WORK/floor" >>"$WORK/floor.ms"
	for db in $DBS; do ms "$WORK/followup" --db "$WORK/\$db.db" >>"$WORK/followup-\$db.ms"; done
	ms "$WORK/floordeps" >>"$WORK/floordeps.ms"
done
/usr/bin/time -v -o "$WORK/floor.time" "$WORK/floor" >/dev/tty
/usr/bin/time -v -o "$WORK/followup.time" "$WORK/followup" --db "$WORK/big.db" >/dev/tty
if command -v hyperfine >/dev/null; then
	hyperfine -N --output=inherit --warmup 3 --runs $RUNS --export-json "$WORK/frames.json" \
		"$WORK/floor" "$WORK/followup --db $WORK/big.db" >/dev/null 2>&1 || true
fi
tmux -S "$WORK/tmux.sock" wait-for -S $SESSION
EOF
chmod +x "$WORK/frames.sh"

echo "== start to first frame ($RUNS runs each, interleaved, tmux 120x40)"
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
tmux -S "$WORK/tmux.sock" new-session -d -s "$SESSION" -x 120 -y 40 "$WORK/frames.sh"
tmux -S "$WORK/tmux.sock" wait-for "$SESSION"
if [ -s "$WORK/err.txt" ]; then cat "$WORK/err.txt"; fi
col() { cut -d' ' -f"$1" "$2" | median; }
r() { awk "BEGIN {printf \"%.2f\", $1/$2}"; }
FLOOR=$(col 1 "$WORK/floor.ms"); FLOOR1=$(col 2 "$WORK/floor.ms")
BIG=$(col 1 "$WORK/followup-big.ms"); BIG1=$(col 2 "$WORK/followup-big.ms")
echo "start to exit after the first frame (as the terminal receives it), medians:"
echo "  floor (one huh form):            $FLOOR ms, max RSS $(rss "$WORK/floor.time") KB"
for db in $DBS; do
	f=$(col 1 "$WORK/followup-$db.ms")
	printf "  followup, %-10s %8s ms, ×floor %s (budget 1.1), ×big %s (budget 1.05)\n" "$db:" "$f" "$(r "$f" "$FLOOR")" "$(r "$f" "$BIG")"
done
echo "  followup max RSS (large database): $(rss "$WORK/followup.time") KB"
echo "start to the first frame drawn (what each program logs; no exit), medians:"
echo "  floor $FLOOR1 ms"
for db in $DBS; do
	f=$(col 2 "$WORK/followup-$db.ms")
	printf "  followup, %-10s %8s ms, ×floor %s, ×big %s\n" "$db:" "$f" "$(r "$f" "$FLOOR1")" "$(r "$f" "$BIG1")"
done
DEPS1=$(col 2 "$WORK/floordeps.ms")
echo "  the floor linking followup's libraries (SQLite engine, provider SDKs), calling none:"
echo "    $DEPS1 ms, ratio $(r "$DEPS1" "$FLOOR1") — what linking them costs before any work"
if [ -s "$WORK/frames.json" ]; then
	python3 - "$WORK/frames.json" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("hyperfine medians: floor %.1f ms, followup %.1f ms, ratio %.2f" % (
    r[0]["median"] * 1e3, r[1]["median"] * 1e3, r[1]["median"] / r[0]["median"]))
PY
fi

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
P=$(median <"$WORK/pending.ms"); V=$(median <"$WORK/version.ms")
echo "pending --json:              median $P ms (budget 50), max RSS $(rss "$WORK/pending.time") KB"
echo "--version:                   median $V ms; pending/version $(awk "BEGIN {printf \"%.2f\", $P/$V}") (budget 2)"
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$RUNS" "$WORK/followup --db $WORK/big.db pending --json" 2>/dev/null | grep -E "Time|Range" || true
fi
