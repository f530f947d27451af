-- What the chat screen's first frame asks, answered from a few index pages:
-- the newest active chat, and how many questions wait in the other chats.
CREATE INDEX chats_state_updated ON chats (state, updated_at DESC, id);
CREATE INDEX requests_pending_chat ON requests (chat_id) WHERE state = 'pending';
