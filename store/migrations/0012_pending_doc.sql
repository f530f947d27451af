-- The `followup pending --json` document of every active chat, kept once a
-- reader has made it, so the next reader copies one row out instead of
-- reading the list, its waiting proposals and the pending approvals again.
-- It is current while pending_doc_gen.n is the generation it was made at:
-- every change to what it is made from (the list's entries, proposals,
-- approvals, a chat's state, a chat or request deleted) moves n, whichever
-- process makes it, through the triggers below. chat/pendingdoc.go makes
-- and keeps it; a document made while n moved is not kept.
CREATE TABLE pending_doc_gen (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    n   INTEGER NOT NULL
);
INSERT INTO pending_doc_gen (one, n) VALUES (1, 0);

CREATE TABLE pending_doc (
    one    INTEGER PRIMARY KEY CHECK (one = 1),
    gen    INTEGER NOT NULL, -- pending_doc_gen.n when it was made
    format TEXT NOT NULL,    -- the build that made it (chat/pendingdoc.go)
    doc    TEXT NOT NULL
);

CREATE TRIGGER pending_doc_items_insert AFTER INSERT ON pending_items
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_items_update AFTER UPDATE ON pending_items
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_items_delete AFTER DELETE ON pending_items
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_proposals_insert AFTER INSERT ON proposals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_proposals_update AFTER UPDATE ON proposals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_proposals_delete AFTER DELETE ON proposals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_approvals_insert AFTER INSERT ON approvals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_approvals_update AFTER UPDATE ON approvals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_approvals_delete AFTER DELETE ON approvals
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_chat_state AFTER UPDATE OF state ON chats
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_chat_delete AFTER DELETE ON chats
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
CREATE TRIGGER pending_doc_request_delete AFTER DELETE ON requests
BEGIN UPDATE pending_doc_gen SET n = n + 1; END;
