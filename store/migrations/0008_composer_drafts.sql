-- The composer's unsent text, one per chat (docs/behaviour.md), and one for the
-- chat not created yet (chat_id ''). A trigger, not a foreign key, takes a
-- chat's draft away with the chat, since '' names no chat.
CREATE TABLE composer_drafts (
    chat_id    TEXT PRIMARY KEY,
    text       TEXT NOT NULL,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER composer_drafts_chat_deleted AFTER DELETE ON chats
BEGIN
    DELETE FROM composer_drafts WHERE chat_id = OLD.id;
END;
