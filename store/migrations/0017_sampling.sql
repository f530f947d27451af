-- An approval is of a tool call (kind 'tool', one per call) or of a
-- server's sampling request during a call (kind 'sampling', any number per
-- call; its arguments are the request as shown, its result the model's
-- reply). A chat-wide grant with tool '' is the server's sampling.
CREATE TABLE approvals_new (
    id           TEXT PRIMARY KEY,
    chat_id      TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    kind         TEXT NOT NULL DEFAULT 'tool' CHECK (kind IN ('tool', 'sampling')),
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
    result       TEXT NOT NULL DEFAULT ''
);
INSERT INTO approvals_new (id, chat_id, run_id, tool_call_id, name, server, tool, title, description, arguments,
    annotations, state, scope, created_at, decided_at)
SELECT id, chat_id, run_id, tool_call_id, name, server, tool, title, description, arguments,
    annotations, state, scope, created_at, decided_at FROM approvals;
DROP TABLE approvals;
ALTER TABLE approvals_new RENAME TO approvals;
CREATE UNIQUE INDEX approvals_call ON approvals (run_id, tool_call_id) WHERE kind = 'tool';
CREATE INDEX approvals_run ON approvals (run_id, created_at);
CREATE INDEX approvals_pending ON approvals (chat_id, created_at) WHERE state = 'pending';
CREATE INDEX approvals_pending_all ON approvals (created_at) WHERE state = 'pending';
