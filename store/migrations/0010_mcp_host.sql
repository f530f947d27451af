-- followup as an MCP host (docs/mcp.md).
--
-- A call of an MCP server's tool is a durable step, recorded before the
-- call is made (started) and after (done), so a crash in between is seen
-- on resume. A call the server answered with input_required (2026-07-28)
-- or -32042 waits in state input_required with what the server sent
-- (request_state) until the questions it asked are closed, in any process.
CREATE TABLE tool_steps (
    run_id        TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tool_call_id  TEXT NOT NULL,
    chat_id       TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    server        TEXT NOT NULL,
    tool          TEXT NOT NULL,
    arguments     TEXT NOT NULL,
    read_only     INTEGER NOT NULL DEFAULT 0,
    idempotent    INTEGER NOT NULL DEFAULT 0,
    state         TEXT NOT NULL CHECK (state IN ('started', 'input_required', 'done')),
    request_state TEXT,
    attempts      INTEGER NOT NULL DEFAULT 0,
    outcome       TEXT NOT NULL DEFAULT '',
    result        TEXT,
    duration_ms   INTEGER NOT NULL DEFAULT 0,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    PRIMARY KEY (run_id, tool_call_id)
);
CREATE INDEX tool_steps_chat ON tool_steps (chat_id, started_at);

-- The user's permission for one call. A pending approval keeps its run
-- waiting_input; Stop expires it.
CREATE TABLE approvals (
    id           TEXT PRIMARY KEY,
    chat_id      TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    name         TEXT NOT NULL,
    server       TEXT NOT NULL,
    tool         TEXT NOT NULL,
    title        TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL DEFAULT '',
    arguments    TEXT NOT NULL,
    annotations  TEXT NOT NULL DEFAULT '{}',
    state        TEXT NOT NULL CHECK (state IN ('pending', 'allowed', 'denied', 'expired')),
    scope        TEXT NOT NULL DEFAULT '' CHECK (scope IN ('', 'once', 'chat')),
    created_at   INTEGER NOT NULL,
    decided_at   INTEGER,
    UNIQUE (run_id, tool_call_id)
);
CREATE INDEX approvals_pending ON approvals (chat_id, created_at) WHERE state = 'pending';
CREATE INDEX approvals_pending_all ON approvals (created_at) WHERE state = 'pending';

-- "Allow for this chat": the tool runs without asking again in the chat.
CREATE TABLE chat_tool_grants (
    chat_id    TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    server     TEXT NOT NULL,
    tool       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (chat_id, server, tool)
);

-- The input requests an MCP server asked during a tool call. A classic
-- elicitation/create lives with the connection of the process driving its
-- run (its lease byte): open and classic, it is expired disconnected as
-- soon as no live process holds that byte. A durable one (input_required,
-- -32042) names the server's id of the question (input_key) and waits for
-- any process.
CREATE TABLE mcp_requests (
    request_id     TEXT PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
    run_id         TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tool_call_id   TEXT NOT NULL,
    server         TEXT NOT NULL,
    mode           TEXT NOT NULL CHECK (mode IN ('form', 'url')),
    classic        INTEGER NOT NULL,
    input_key      TEXT NOT NULL DEFAULT '',
    elicitation_id TEXT NOT NULL DEFAULT '',
    open           INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX mcp_requests_step ON mcp_requests (run_id, tool_call_id);
CREATE INDEX mcp_requests_classic_open ON mcp_requests (request_id) WHERE classic = 1 AND open = 1;

-- Where a delivery goes: the model of the run (agent) or the MCP server
-- that asked (mcp_server; such a delivery has no run_id, so the model's
-- history never receives it).
ALTER TABLE deliveries ADD COLUMN target TEXT NOT NULL DEFAULT 'agent'
    CHECK (target IN ('agent', 'mcp_server'));
