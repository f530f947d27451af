# Shared helpers of the bench/ scripts (sourced, not run). They need
# $WORK (a scratch directory the script removes) and drive programs in a
# private tmux server ($WORK/tmux.sock), never the user's.

# median reads numbers, one a line, and prints their median.
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) {print "nan"; exit}; m = NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.6g\n", m}'; }

# range reads numbers, one a line, and prints "min–max".
range() { sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%s–%s\n", lo, hi}'; }

# ratio A B prints A/B.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", (b > 0 ? a/b : 0)}'; }

# cpu_ms PID prints the process's user+system CPU time so far, in ms.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1000 / hz}' "/proc/$1/stat"; }

# rss_kb PID prints VmRSS; smaps PID prints Rss, Pss, anonymous and
# file-backed resident memory from smaps_rollup (kB).
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
smaps() {
	awk '/^Rss:/ {r=$2} /^Pss:/ {p=$2} /^Pss_Anon:/ {a=$2} /^Pss_File:/ {f=$2} /^Anonymous:/ {an=$2}
		END {printf "rss=%d pss=%d pss_anon=%d pss_file=%d anon=%d\n", r, p, a, f, an}' "/proc/$1/smaps_rollup"
}

t() { tmux -S "$WORK/tmux.sock" "$@"; }

# start_screen NAME CMD… runs CMD in a new 120×40 tmux session NAME and
# prints its pid (CMD is exec'd: the pane's process is the program).
start_screen() {
	local name=$1; shift
	t new-session -d -s "$name" -x 120 -y 40 "exec $*"
	t display-message -p -t "$name" '#{pane_pid}'
}

# wait_screen NAME TEXT [SECONDS] waits until the screen shows TEXT.
wait_screen() {
	local deadline=$(( $(date +%s) + ${3:-20} ))
	until t capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2"; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			echo "timed out waiting for \"$2\" on $1; the screen:" >&2
			t capture-pane -p -t "$1" >&2 || true
			return 1
		fi
		sleep 0.05
	done
}

# stop_screen NAME PID quits the program with ctrl+c and waits for it.
stop_screen() {
	t send-keys -t "$1" C-c 2>/dev/null || true
	for _ in $(seq 100); do kill -0 "$2" 2>/dev/null || break; sleep 0.05; done
	kill "$2" 2>/dev/null || true
	t kill-session -t "$1" 2>/dev/null || true
}

# load_note prints the load average, so a reader can judge the figures.
load_note() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }

# wait_screen_re NAME REGEX [SECONDS] waits until the screen matches REGEX
# (grep -E).
wait_screen_re() {
	local deadline=$(( $(date +%s) + ${3:-20} ))
	until t capture-pane -p -t "$1" 2>/dev/null | grep -qE -- "$2"; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			echo "timed out waiting for /$2/ on $1; the screen:" >&2
			t capture-pane -p -t "$1" >&2 || true
			return 1
		fi
		sleep 0.02
	done
}

# wait_still NAME waits until the screen stays the same for 100 ms.
wait_still() {
	local a b
	a=$(t capture-pane -p -t "$1")
	for _ in $(seq 200); do
		sleep 0.1
		b=$(t capture-pane -p -t "$1")
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

# seed_large DB builds the large database (docs/performance.md) at DB, once per
# script run; extra flags go to bench/seed.
seed_large() { local db=$1; shift; go run ./bench/seed -db "$db" "$@" >/dev/null; }

# warm BIN DB leaves DB as a database followup has been used on: migrated,
# and its skills' forms registered as templates (a first start registers
# them; every later one finds them). A stdio `mcp serve` with no client
# does exactly that and ends.
warm() { "$1" --db "$2" mcp serve </dev/null >/dev/null; }
