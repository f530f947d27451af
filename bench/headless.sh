#!/usr/bin/env bash
# Measures the docs/performance.md budget "a headless command on a terminal that
# never answers queries ≤ 1.1× the same command with TERM=dumb".
# Each command runs on a pseudo-terminal (script(1)) that answers nothing,
# with TERM=xterm-256color, interleaved with the same command under
# TERM=dumb (where no library would query); medians of wall time and the
# ratio are printed.
# Usage: bench/headless.sh [RUNS]   (default 21 runs of each)
# Needs go and script (util-linux).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

go build -o "$WORK/followup" .
DB="$WORK/h.db"
FOLLOWUP_PROVIDER=offline "$WORK/followup" --db "$DB" ask "Check deployment" >/dev/null

# median reads microseconds, one a line, and prints milliseconds.
median() { sort -n | awk '{a[NR]=$1} END {m = NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.2f", m/1000}'; }

# once TERM CMD… runs CMD on a fresh pseudo-terminal and prints its wall
# time in microseconds.
once() {
	local term=$1; shift
	local s e
	s=$(date +%s%N)
	TERM=$term FOLLOWUP_PROVIDER=offline script -qec "$*" /dev/null </dev/null >/dev/null
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}

printf "%-28s %12s %12s %8s\n" command "pty (ms)" "dumb (ms)" ratio
for cmd in "--help" "--version" "pending --json" "chats"; do
	: >"$WORK/pty" ; : >"$WORK/dumb"
	for _ in $(seq "$RUNS"); do
		once xterm-256color "$WORK/followup" --db "$DB" $cmd >>"$WORK/pty"
		once dumb "$WORK/followup" --db "$DB" $cmd >>"$WORK/dumb"
	done
	p=$(median <"$WORK/pty"); d=$(median <"$WORK/dumb")
	printf "%-28s %12s %12s %8s\n" "followup $cmd" "$p" "$d" "$(awk -v p="$p" -v d="$d" 'BEGIN {printf "%.2f", p/d}')"
done
