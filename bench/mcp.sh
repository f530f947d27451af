#!/usr/bin/env bash
# Measures docs/performance.md's MCP budget: the first frame of `followup` on the
# large database as the terminal receives it, through a pty, until the
# active form is drawn (bench/ptyframe), with three MCP servers configured
# (server-everything over stdio, twice, and a streamable HTTP entry)
# against none configured, and bench/floor beside them, interleaved,
# medians and their ratio (budget 1.05: servers start after the first
# frame). Each run is ended once the form arrived; with EXIT=1 each quits
# by itself right after its first frame (FOLLOWUP_EXIT_AFTER_FIRST_FRAME),
# so start to exit includes closing the servers' manager too.
# Usage: [DB_BIG=…] [EXIT=1] bench/mcp.sh [RUNS]   (default 31 runs of each)
# Needs go and node_modules from `npm ci` at the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-31}
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

EVERYTHING=$PWD/node_modules/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$EVERYTHING" ] || { echo "server-everything is not installed: run npm ci at the repository root" >&2; exit 1; }

echo "== build and seed"
go build -tags benchhooks -o "$WORK/followup" . # the first-frame hook (ui/benchhooks.go)
go build -o "$WORK/floor" ./bench/floor
go build -o "$WORK/ptyframe" ./bench/ptyframe
if [ -n "${DB_BIG:-}" ]; then cp "$DB_BIG" "$WORK/big.db"; else seed_large "$WORK/big.db"; fi
cat >"$WORK/three.json" <<EOF
{ "mcpServers": {
    "everything": { "command": "node", "args": ["$EVERYTHING", "stdio"], "autoApprove": ["echo"] },
    "second": { "command": "node", "args": ["$EVERYTHING", "stdio"], "env": { "KEY": "\${KEY:-none}" } },
    "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer \${TOKEN:-}" } } } }
EOF
echo '{ "mcpServers": {} }' >"$WORK/none.json"

echo "== the active form received through a pty, three MCP servers against none ($RUNS runs each, interleaved, 120x40)"
load_note
FORM="ctrl+f to|esc leave=env XDG_STATE_HOME=$WORK/state $WORK/followup --db $WORK/big.db --mcp-config"
"$WORK/ptyframe" -runs "$RUNS" -ref none ${EXIT:+-exit} "floor=enter submit=env FLOOR_FIELD=input $WORK/floor" \
	"none=$FORM $WORK/none.json" "three=$FORM $WORK/three.json"
echo "budget: three ×none ≤ 1.05"
load_note
