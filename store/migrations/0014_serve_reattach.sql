-- Serve sessions (docs/mcp-serve.md#sessions): client_key tells which
-- client may take a question of an ended session back (a digest of the
-- HTTP bearer token; '' over stdio), and active_at is when its client last
-- called a tool, so a question whose client went quiet is shown so.
ALTER TABLE serve_sessions ADD COLUMN client_key TEXT NOT NULL DEFAULT '';
ALTER TABLE serve_sessions ADD COLUMN active_at INTEGER NOT NULL DEFAULT 0;
