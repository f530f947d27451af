-- Serve sessions (docs/mcp.md): each MCP client connected through
-- `followup mcp serve` asks in its own chat. seq names the session's byte
-- in <db>-lease (store/sessions.go), held by the serving process while the
-- session is open, so a serve process that dies is noticed at once; it
-- never repeats, so a new session cannot take the byte of one whose chat
-- was deleted while its process still runs.
CREATE TABLE serve_sessions (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    id             TEXT NOT NULL UNIQUE,
    chat_id        TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    client_name    TEXT NOT NULL DEFAULT '',
    client_version TEXT NOT NULL DEFAULT '',
    transport      TEXT NOT NULL DEFAULT '',
    state          TEXT NOT NULL CHECK (state IN ('open', 'ended')),
    end_reason     TEXT NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    ended_at       INTEGER
);
CREATE INDEX serve_sessions_open ON serve_sessions (seq) WHERE state = 'open';
CREATE INDEX serve_sessions_chat ON serve_sessions (chat_id, seq);

-- Who asks each request (docs/behaviour.md): followup's own agent (every request
-- so far), an MCP server's elicitation, or an external agent through a
-- serve session. A serve session's requests have no run; their
-- requestKeys are unique within the session as a run's are within the run.
ALTER TABLE requests ADD COLUMN owner_kind TEXT NOT NULL DEFAULT 'agent'
    CHECK (owner_kind IN ('agent', 'mcp_server', 'mcp_client'));
ALTER TABLE requests ADD COLUMN owner_name TEXT NOT NULL DEFAULT '';
ALTER TABLE requests ADD COLUMN session_id TEXT REFERENCES serve_sessions (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX requests_session_key ON requests (session_id, request_key) WHERE session_id IS NOT NULL;
CREATE INDEX requests_session ON requests (session_id, seq) WHERE session_id IS NOT NULL;

-- The open requests stay covered with the new columns (0003).
DROP INDEX requests_open;
CREATE INDEX requests_open ON requests (
    seq, id, chat_id, run_id, request_key, args_hash, tool_call_id, state, closed_reason, revision, digest,
    reason, title, template, context, partial, expires_at, created_at, updated_at, closed_at,
    owner_kind, owner_name, session_id
) WHERE state = 'pending';

-- Every pending-list entry now names its owner: the next chat.Open
-- rebuilds them (0005).
INSERT OR IGNORE INTO pending_items_stale (one) VALUES (1);
