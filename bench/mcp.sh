#!/usr/bin/env bash
# Measures the docs/performance.md budget "three MCP servers configured
# (server-everything over stdio, twice, and a streamable HTTP entry) ≤
# 1.05× none, in wall time and CPU", whole process, through a pty
# (bench/ptyrun): the time until the pending form on the large database
# takes keys, and the CPU over a window of WINDOW (3 s) from the start, in
# which the servers start: followup's and its reaped children's (the
# servers'), with the processes running at its end (followup and the
# stdio servers' processes: more than 1 says they started). bench/floor
# runs beside them; interleaved, each run on a fresh copy of the database.
# Usage: [DB_BIG=…] [WINDOW=3s] bench/mcp.sh [RUNS]   (default 21 runs of each)
# Needs go and node_modules from `npm ci` at the repository root (or FOLLOWUP_NODE_MODULES naming one).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
WINDOW=${WINDOW:-3s}
WORK=$(mktemp -d)
. bench/lib.sh
trap 'rm -rf "$WORK"' EXIT

EVERYTHING=${FOLLOWUP_NODE_MODULES:-$PWD/node_modules}/@modelcontextprotocol/server-everything/dist/index.js
[ -f "$EVERYTHING" ] || { echo "server-everything is not installed: run npm ci at the repository root" >&2; exit 1; }

echo "== build and seed"
go build -o "$WORK/followup" .
go build -o "$WORK/floor" ./bench/floor
go build -o "$WORK/ptyrun" ./bench/ptyrun
if [ -n "${DB_BIG:-}" ]; then cp "$DB_BIG" "$WORK/big.db"; else seed_large "$WORK/big.db"; fi
warm "$WORK/followup" "$WORK/big.db"
cat >"$WORK/three.json" <<JSON
{ "mcpServers": {
    "everything": { "command": "node", "args": ["$EVERYTHING", "stdio"], "autoApprove": ["echo"] },
    "second": { "command": "node", "args": ["$EVERYTHING", "stdio"], "env": { "KEY": "\${KEY:-none}" } },
    "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer \${TOKEN:-}" } } } }
JSON
echo '{ "mcpServers": {} }' >"$WORK/none.json"

echo "== the pending form taking keys, and the CPU over $WINDOW, three MCP servers against none ($RUNS runs each, interleaved, 120x40)"
load_note
FORM="┃ > \S*Z=env XDG_STATE_HOME=$WORK/state $WORK/followup --db @copy:$WORK/big.db --mcp-config"
"$WORK/ptyrun" -runs "$RUNS" -ref none -window "$WINDOW" "floor=┃ > Z=$WORK/floor" \
	"none=$FORM $WORK/none.json" "three=$FORM $WORK/three.json"
echo "budget: three ×none ≤ 1.05 (the time and the CPU over the window); the processes counted at the window's end show the servers started"
load_note
