#!/usr/bin/env bash
# Measures DESIGN §13's MCP budget: start to first frame of `followup` on
# the large database with three MCP servers configured (server-everything
# over stdio, twice, and a streamable HTTP entry) against none configured,
# interleaved in one private tmux terminal, medians and their ratio
# (budget 1.05: servers start after the first frame). Each run quits right
# after its first frame (FOLLOWUP_EXIT_AFTER_FIRST_FRAME), so start to exit
# includes closing the servers' manager too.
# Usage: [DB_BIG=…] bench/mcp.sh [RUNS]   (default 21 runs of each)
# Needs go, tmux and node_modules from `npm ci` at the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
WORK=$(mktemp -d)
SESSION=followup-mcp-bench-$$
. bench/lib.sh
cleanup() {
	t kill-server 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

EVERYTHING=$PWD/node_modules/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$EVERYTHING" ] || { echo "server-everything is not installed: run npm ci at the repository root" >&2; exit 1; }

echo "== build and seed"
go build -o "$WORK/followup" .
if [ -n "${DB_BIG:-}" ]; then cp "$DB_BIG" "$WORK/big.db"; else seed_large "$WORK/big.db"; fi
cat >"$WORK/three.json" <<EOF
{ "mcpServers": {
    "everything": { "command": "node", "args": ["$EVERYTHING", "stdio"], "autoApprove": ["echo"] },
    "second": { "command": "node", "args": ["$EVERYTHING", "stdio"], "env": { "KEY": "\${KEY:-none}" } },
    "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer \${TOKEN:-}" } } } }
EOF
echo '{ "mcpServers": {} }' >"$WORK/none.json"

cat >"$WORK/frames.sh" <<EOF
#!/usr/bin/env bash
export FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1 XDG_STATE_HOME="$WORK/state"
# ms prints, in microseconds, start to exit and start to the first frame.
ms() {
	local at="$WORK/at.\$\$" s e
	rm -f "\$at"
	s=\${EPOCHREALTIME//[!0-9]/}
	FOLLOWUP_FIRST_FRAME_AT="\$at" "\$@" >/dev/tty 2>>"$WORK/err.txt"
	e=\${EPOCHREALTIME//[!0-9]/}
	echo "\$(( e - s )) \$(( \$(head -1 "\$at") / 1000 - s ))"
}
for i in \$(seq 3); do # warm-up
	for c in none three; do "$WORK/followup" --db "$WORK/big.db" --mcp-config "$WORK/\$c.json" >/dev/tty; done
done
for i in \$(seq $RUNS); do
	for c in none three; do ms "$WORK/followup" --db "$WORK/big.db" --mcp-config "$WORK/\$c.json" >>"$WORK/\$c.ms"; done
done
tmux -S "$WORK/tmux.sock" wait-for -S $SESSION
EOF
chmod +x "$WORK/frames.sh"

echo "== start to first frame, three MCP servers against none ($RUNS runs each, interleaved, tmux 120x40)"
load_note
t new-session -d -s "$SESSION" -x 120 -y 40 "$WORK/frames.sh"
t wait-for "$SESSION"
if [ -s "$WORK/err.txt" ]; then cat "$WORK/err.txt"; fi
col() { cut -d' ' -f"$1" "$2" | awk '{print $1/1000}' | median; }
for k in 2 1; do
	what=$([ "$k" = 2 ] && echo "start to first frame" || echo "start to exit after it")
	N=$(col "$k" "$WORK/none.ms"); T=$(col "$k" "$WORK/three.ms")
	printf "%-24s none %8s ms (%s)   three %8s ms (%s)   ×%s (budget 1.05)\n" "$what:" \
		"$N" "$(cut -d' ' -f"$k" "$WORK/none.ms" | awk '{print $1/1000}' | range)" \
		"$T" "$(cut -d' ' -f"$k" "$WORK/three.ms" | awk '{print $1/1000}' | range)" "$(ratio "$T" "$N")"
done
