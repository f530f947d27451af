-- Indexes for the lists that grow with the database (checked with EXPLAIN
-- QUERY PLAN in store/bench_test.go).

-- Due requests (pending, deadline passed) are found by a range on the
-- deadline. The partial index of 0001 lost to requests_state, which walks
-- every pending request to read its deadline.
DROP INDEX IF EXISTS requests_expiry;
CREATE INDEX requests_pending_expiry ON requests (state, expires_at) WHERE expires_at IS NOT NULL;

-- Runs with an answer or cancellation not yet delivered are found from the
-- few pending or unknown deliveries, not by probing every waiting run.
CREATE INDEX deliveries_state ON deliveries (state, run_id);
