-- The screen opens on the chat the user typed in last (TypedChat): a draft
-- newer than every chat is found here, not by reading every open request's.
CREATE INDEX drafts_updated ON drafts (updated_at);
