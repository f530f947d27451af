-- The pending list, materialised: one row per pending request holding the
-- finished JSON object that `followup pending --json` prints, written in the
-- same transaction as every change to the request (chat/pending.go). Rows
-- are clustered by the request's seq, so the whole list is a few adjacent
-- pages read in order, not one revision page per request scattered through
-- the file, and nothing is decoded or encoded to print it.
CREATE TABLE pending_items (
    seq        INTEGER PRIMARY KEY, -- the request's seq: creation order
    request_id TEXT NOT NULL UNIQUE REFERENCES requests (id) ON DELETE CASCADE,
    chat_id    TEXT NOT NULL,
    item       TEXT NOT NULL
);
CREATE INDEX pending_items_chat ON pending_items (chat_id, seq);

-- The list of every chat leaves out archived chats: it walks the items in
-- order and skips the few archived ones, found through the chats' state
-- index (0006), instead of reading every chat to learn which are active.

-- The items derive from the view code in chat/ (SQL cannot compute which
-- required fields are missing), so the requests already pending are filled
-- in by the next chat.Open, which deletes this row when it has.
CREATE TABLE pending_items_stale (
    one INTEGER PRIMARY KEY CHECK (one = 1)
);
INSERT INTO pending_items_stale (one) VALUES (1);

-- A request that leaves pending takes its entry with it even when the
-- change comes from a process that predates the table (one still running
-- through an upgrade); chat/ deletes it in the same transaction anyway.
CREATE TRIGGER pending_items_close AFTER UPDATE OF state ON requests
WHEN NEW.state <> 'pending'
BEGIN
    DELETE FROM pending_items WHERE request_id = NEW.id;
END;
