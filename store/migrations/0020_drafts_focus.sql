-- The field the user was typing in when a draft was saved: a form built
-- from the draft again (after a quit, a crash or a chat switch) comes back
-- on it. '' is the first field.
ALTER TABLE drafts ADD COLUMN focus TEXT NOT NULL DEFAULT '';
