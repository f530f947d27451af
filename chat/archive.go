package chat

import (
	"context"

	"followup/store"
)

// Archive archives a chat: it stays readable, keeps its place in the list,
// refuses model operations (CHAT_ARCHIVED) and its questions are left out
// of the pending list across chats and of what waits elsewhere. A running
// task of this process stops making model calls; the questions an open
// serve session waits on there expire (chat_archived), so its agent is told.
func (s *Service) Archive(ctx context.Context, chatID, commandID string) (ChatView, error) {
	return s.setArchived(ctx, chatID, commandID, true)
}

// Unarchive makes an archived chat active again, where it was in the list:
// its open questions wait again and its runs can be resumed. Like Archive
// it is a command with a receipt; unarchiving an active chat changes
// nothing.
func (s *Service) Unarchive(ctx context.Context, chatID, commandID string) (ChatView, error) {
	return s.setArchived(ctx, chatID, commandID, false)
}

func (s *Service) setArchived(ctx context.Context, chatID, commandID string, archived bool) (ChatView, error) {
	kind, state := "unarchive", store.ChatActive
	if archived {
		kind, state = "archive", store.ChatArchived
	}
	_, err := s.command(ctx, commandID, kind, &chatID, map[string]any{"chatId": chatID}, func(tx *txn) (any, error) {
		if _, err := s.store.GetChat(ctx, tx, chatID); err != nil {
			return nil, notFound(err, "chat", chatID)
		}
		if run, err := s.store.LatestRun(ctx, tx, chatID); err == nil && archived {
			tx.onCommit(func() { s.cancelDrive(run.ID) }) // an archived chat makes no model call
		}
		if archived {
			if err := s.expireArchivedAsks(ctx, tx, chatID); err != nil { // sessions.go
				return nil, err
			}
		}
		tx.emit(Event{Kind: EvChat, ChatID: chatID})
		return map[string]any{"archived": archived}, s.store.SetChatState(ctx, tx, chatID, state)
	})
	if err != nil {
		return ChatView{}, err
	}
	return s.Chat(ctx, chatID)
}
