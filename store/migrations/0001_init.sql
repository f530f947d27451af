-- Chats, runs and messages.
CREATE TABLE chats (
    id         TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'archived')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX chats_updated ON chats (updated_at DESC, id);

CREATE TABLE runs (
    id          TEXT PRIMARY KEY,
    seq         INTEGER NOT NULL UNIQUE,
    chat_id     TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    state       TEXT NOT NULL CHECK (state IN ('running', 'waiting_input', 'succeeded', 'failed', 'stopped')),
    step        INTEGER NOT NULL DEFAULT 0,
    questions   INTEGER NOT NULL DEFAULT 0,
    model_calls INTEGER NOT NULL DEFAULT 0,
    reply       TEXT NOT NULL DEFAULT '',
    result      TEXT,
    error       TEXT NOT NULL DEFAULT '',
    provider    TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX runs_chat ON runs (chat_id, seq);
CREATE INDEX runs_state ON runs (state, seq);

-- Messages are the transcript (what the user sees) and, for a run, the model
-- history (what the model sees). kind separates the two.
CREATE TABLE messages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    run_id       TEXT REFERENCES runs (id) ON DELETE CASCADE,
    role         TEXT NOT NULL,
    content      TEXT NOT NULL DEFAULT '',
    tool_calls   TEXT,
    tool_call_id TEXT NOT NULL DEFAULT '',
    tool_name    TEXT NOT NULL DEFAULT '',
    request_id   TEXT,
    delivery_id  INTEGER UNIQUE,
    visible      INTEGER NOT NULL DEFAULT 1,
    for_model    INTEGER NOT NULL DEFAULT 1,
    created_at   INTEGER NOT NULL
);
CREATE INDEX messages_chat ON messages (chat_id, id);
CREATE INDEX messages_run ON messages (run_id, id);

-- Input requests and their revisions.
CREATE TABLE requests (
    id            TEXT PRIMARY KEY,
    seq           INTEGER NOT NULL UNIQUE,
    chat_id       TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    run_id        TEXT REFERENCES runs (id) ON DELETE CASCADE,
    request_key   TEXT NOT NULL,
    args_hash     TEXT NOT NULL,
    tool_call_id  TEXT NOT NULL DEFAULT '',
    state         TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'cancelled', 'expired')),
    closed_reason TEXT NOT NULL DEFAULT '',
    revision      INTEGER NOT NULL DEFAULT 1,
    digest        TEXT NOT NULL,
    reason        TEXT NOT NULL DEFAULT '',
    title         TEXT NOT NULL DEFAULT '',
    template      TEXT NOT NULL DEFAULT '',
    context       TEXT,
    partial       TEXT,
    expires_at    INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    closed_at     INTEGER,
    UNIQUE (run_id, request_key)
);
CREATE INDEX requests_state ON requests (state, seq);
CREATE INDEX requests_chat ON requests (chat_id, seq);
CREATE INDEX requests_run ON requests (run_id, seq);
CREATE INDEX requests_template ON requests (template, state) WHERE template <> '';
CREATE INDEX requests_expiry ON requests (expires_at) WHERE state = 'pending' AND expires_at IS NOT NULL;

CREATE TABLE revisions (
    request_id TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL,
    digest     TEXT NOT NULL,
    definition TEXT NOT NULL,
    prefill    TEXT,
    supplied   TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (request_id, revision)
);

CREATE TABLE drafts (
    request_id TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL,
    vals       TEXT NOT NULL,
    edited     INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (request_id, revision)
);

CREATE TABLE answers (
    request_id TEXT PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
    revision   INTEGER NOT NULL,
    digest     TEXT NOT NULL,
    vals       TEXT NOT NULL,
    origins    TEXT NOT NULL,
    command_id TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE proposals (
    id          TEXT PRIMARY KEY,
    request_id  TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('resolve', 'replace')),
    state       TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected', 'superseded')),
    base_digest TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    decided_at  INTEGER
);
CREATE INDEX proposals_request ON proposals (request_id, state);

-- Deliveries record handing an answer or cancellation to the agent.
CREATE TABLE deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
    run_id     TEXT REFERENCES runs (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('answer', 'cancel', 'expire')),
    state      TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'unknown', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX deliveries_request ON deliveries (request_id, id);
CREATE INDEX deliveries_run_state ON deliveries (run_id, state);

-- Receipts: the first result of every mutating command, by command id.
CREATE TABLE receipts (
    command_id TEXT PRIMARY KEY,
    chat_id    TEXT REFERENCES chats (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    args_hash  TEXT NOT NULL,
    result     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX receipts_chat ON receipts (chat_id);

-- Templates registered by the host.
CREATE TABLE templates (
    name       TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'invalidated')),
    updated_at INTEGER NOT NULL
);
