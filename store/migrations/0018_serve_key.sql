-- A client that comes back takes its question again by requestKey and
-- arguments (EndedSessionRequest): the newest such request is found here,
-- not by reading every session ever opened on every input_request.
CREATE INDEX requests_serve_key ON requests (request_key, args_hash, seq) WHERE session_id IS NOT NULL;
