-- The proposals waiting for the user's decision, by request: the pending
-- list finds the few that wait on its entries here, instead of probing
-- every entry against the index of every proposal ever made.
CREATE INDEX proposals_waiting ON proposals (request_id) WHERE state = 'pending';
