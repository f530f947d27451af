-- Sub-agents (docs/behaviour.md): a child run names its parent run, its
-- name (unique among its siblings), the parent's agent_delegate call whose
-- result it becomes, and the tools it may use (a JSON list; NULL: its
-- parent's). A run waiting for its children is stored as waiting_input with
-- waits_children = 1, since the state's CHECK (0001) predates that state:
-- store/runs.go reads it back as waiting_children.
ALTER TABLE runs ADD COLUMN parent_run_id TEXT REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN parent_call_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN tools TEXT;
ALTER TABLE runs ADD COLUMN waits_children INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX runs_child_call ON runs (parent_run_id, parent_call_id) WHERE parent_run_id IS NOT NULL;
CREATE UNIQUE INDEX runs_child_name ON runs (parent_run_id, name) WHERE parent_run_id IS NOT NULL;

-- A sub-agent's request names the run its asker was delegated by.
ALTER TABLE requests ADD COLUMN owner_parent TEXT NOT NULL DEFAULT '';
DROP INDEX requests_open;
CREATE INDEX requests_open ON requests (
    seq, id, chat_id, run_id, request_key, args_hash, tool_call_id, state, closed_reason, revision, digest,
    reason, title, template, context, partial, expires_at, created_at, updated_at, closed_at,
    owner_kind, owner_name, session_id, owner_parent
) WHERE state = 'pending';
