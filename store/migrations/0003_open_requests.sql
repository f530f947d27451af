-- The open requests, kept together: a covering partial index, so listing
-- what waits for an answer reads a few adjacent pages instead of one table
-- page per request scattered through the whole history.
CREATE INDEX requests_open ON requests (
    seq, id, chat_id, run_id, request_key, args_hash, tool_call_id, state, closed_reason, revision, digest,
    reason, title, template, context, partial, expires_at, created_at, updated_at, closed_at
) WHERE state = 'pending';
