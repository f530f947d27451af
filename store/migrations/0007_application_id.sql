-- followup's mark (store.ApplicationID, the ASCII of "FLUP"): a SQLite file
-- is followup's only when it carries it. A database created before the mark
-- gets it here; a new one has it from its first transaction on.
PRAGMA application_id = 1179407696;
