-- The skills a run activated and the candidates it chose from (JSON,
-- chat/skills.go), and a request's origin: the skill active when it was
-- asked (JSON), both NULL where there is none (docs/skills.md).
ALTER TABLE runs ADD COLUMN skills TEXT;
ALTER TABLE requests ADD COLUMN origin TEXT;
