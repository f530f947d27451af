#!/usr/bin/env bash
# Measures the DESIGN §13 budgets at real sizes:
#   - start to first frame of `followup` on a large database, side by side
#     with bench/floor (a minimal Bubble Tea program drawing one huh form),
#     both in the same tmux terminal, interleaved, and with the floor built
#     -tags deps (linking followup's libraries, calling none);
#   - `followup pending --json` on the large database, whole process;
#   - maximum resident memory of both.
# Usage: [PENDING=10] bench/run.sh [RUNS]   (default 21 runs of each)
# Needs go, tmux and /usr/bin/time; uses hyperfine too when it is installed
# (run by hand, outside CI, the script offers to apt-get it).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
PENDING=${PENDING:-10} # percentage of the 10,000 requests left pending
WORK=$(mktemp -d)
SESSION=followup-bench-$$
cleanup() {
	tmux kill-session -t "$SESSION" 2>/dev/null || true
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

echo "== seed (1,000 chats, 100,000 messages, 10,000 requests)"
/usr/bin/time -f "seed: %e s wall, %M KB max RSS" go run ./bench/seed -db "$WORK/big.db" -pending "$PENDING"

# One driver inside tmux runs both programs alternately on the same
# terminal; each quits right after its first frame.
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
for i in \$(seq 3); do "$WORK/floor" >/dev/tty; "$WORK/followup" --db "$WORK/big.db" >/dev/tty; "$WORK/floordeps" >/dev/tty; done # warm-up
for i in \$(seq $RUNS); do
	ms "$WORK/floor" >>"$WORK/floor.ms"
	ms "$WORK/followup" --db "$WORK/big.db" >>"$WORK/followup.ms"
	ms "$WORK/floordeps" >>"$WORK/floordeps.ms"
done
/usr/bin/time -v -o "$WORK/floor.time" "$WORK/floor" >/dev/tty
/usr/bin/time -v -o "$WORK/followup.time" "$WORK/followup" --db "$WORK/big.db" >/dev/tty
if command -v hyperfine >/dev/null; then
	hyperfine -N --output=inherit --warmup 3 --runs $RUNS --export-json "$WORK/frames.json" \
		"$WORK/floor" "$WORK/followup --db $WORK/big.db" >/dev/null 2>&1 || true
fi
tmux wait-for -S $SESSION
EOF
chmod +x "$WORK/frames.sh"

echo "== start to first frame ($RUNS runs each, tmux 120x40)"
tmux new-session -d -s "$SESSION" -x 120 -y 40 "$WORK/frames.sh"
tmux wait-for "$SESSION"
if [ -s "$WORK/err.txt" ]; then cat "$WORK/err.txt"; fi
FLOOR=$(cut -d' ' -f1 "$WORK/floor.ms" | median)
FRAME=$(cut -d' ' -f1 "$WORK/followup.ms" | median)
FLOOR1=$(cut -d' ' -f2 "$WORK/floor.ms" | median)
FRAME1=$(cut -d' ' -f2 "$WORK/followup.ms" | median)
echo "start to exit after the first frame:"
echo "  floor (one huh form):      median $FLOOR ms, max RSS $(rss "$WORK/floor.time") KB"
echo "  followup, large database:  median $FRAME ms, max RSS $(rss "$WORK/followup.time") KB"
echo "  ratio followup/floor:      $(awk "BEGIN {printf \"%.2f\", $FRAME/$FLOOR}")  (budget 1.5)"
echo "start to the first frame drawn (what each program logs; no exit):"
echo "  floor $FLOOR1 ms, followup $FRAME1 ms, ratio $(awk "BEGIN {printf \"%.2f\", $FRAME1/$FLOOR1}")"
DEPS1=$(cut -d' ' -f2 "$WORK/floordeps.ms" | median)
echo "  the floor linking followup's libraries (SQLite engine, provider SDKs), calling none:"
echo "    $DEPS1 ms, ratio $(awk "BEGIN {printf \"%.2f\", $DEPS1/$FLOOR1}") — what linking them costs before any work"
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
for i in $(seq "$RUNS"); do
	s=${EPOCHREALTIME//[!0-9]/}
	"$WORK/followup" --db "$WORK/big.db" pending --json >/dev/null
	echo "$(( ${EPOCHREALTIME//[!0-9]/} - s ))"
done >"$WORK/pending.ms"
/usr/bin/time -v -o "$WORK/pending.time" "$WORK/followup" --db "$WORK/big.db" pending --json >/dev/null
echo "pending --json:              median $(median <"$WORK/pending.ms") ms (budget 50), max RSS $(rss "$WORK/pending.time") KB"
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$RUNS" "$WORK/followup --db $WORK/big.db pending --json" 2>/dev/null | grep -E "Time|Range" || true
fi
