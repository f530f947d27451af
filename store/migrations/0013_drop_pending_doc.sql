-- The kept `pending --json` document of 0012 goes: the list is read from
-- pending_items (0005) with one query each time.
DROP TRIGGER pending_doc_items_insert;
DROP TRIGGER pending_doc_items_update;
DROP TRIGGER pending_doc_items_delete;
DROP TRIGGER pending_doc_proposals_insert;
DROP TRIGGER pending_doc_proposals_update;
DROP TRIGGER pending_doc_proposals_delete;
DROP TRIGGER pending_doc_approvals_insert;
DROP TRIGGER pending_doc_approvals_update;
DROP TRIGGER pending_doc_approvals_delete;
DROP TRIGGER pending_doc_chat_state;
DROP TRIGGER pending_doc_chat_delete;
DROP TRIGGER pending_doc_request_delete;
DROP TABLE pending_doc;
DROP TABLE pending_doc_gen;
