-- The newest history message the run's last model turn had read: a message
-- sent while the model was answering comes after it and still needs a turn.
ALTER TABLE runs ADD COLUMN seen INTEGER NOT NULL DEFAULT 0;
