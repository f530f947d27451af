package chat

import (
	"context"
	"strings"
	"unicode/utf8"

	"followup/store"
)

// The composer's unsent text is a draft too (docs/behaviour.md): kept per chat, so
// it is back after a quit, a crash or a reboot. The screen that has no chat
// yet keeps its text as the draft of chat id "".

// SaveComposerDraft saves the composer's text for a chat ("" for the chat
// not created yet). It is one small durable write, meant to be called off
// the UI goroutine (in a tea.Cmd) after the user paused typing and on
// leaving the chat or quitting; saving the same text again changes
// nothing, and empty text deletes the draft. Text longer than a message may
// be is refused (LIMIT_EXCEEDED) — the caller keeps it on screen; text that
// is not UTF-8 is INVALID_ARGUMENT; a chat that does not exist is
// NOT_FOUND.
func (s *Service) SaveComposerDraft(ctx context.Context, chatID, text string) error {
	switch {
	case !utf8.ValidString(text):
		return errorf(CodeInvalidArgument, "the composer's text is not valid UTF-8")
	case len(text) > MaxMessage:
		return errorf(CodeLimitExceeded, "the composer holds %d bytes; a message may have %d", len(text), MaxMessage)
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		if chatID != "" {
			if _, err := s.store.GetChat(ctx, tx, chatID); err != nil {
				return notFound(err, "chat", chatID)
			}
		}
		return s.store.PutComposerDraft(ctx, tx, chatID, text, s.nowMS())
	})
}

// ComposerDraft reads a chat's saved composer text ("" when there is
// none). Screen carries it with the chat's first frame.
func (s *Service) ComposerDraft(ctx context.Context, chatID string) (string, error) {
	return s.store.GetComposerDraft(ctx, s.reader(), chatID)
}

// clearSentDraft deletes the composer draft a message was sent from: the
// draft of its chat ("" for a new chat) when it holds the same text, so a
// crash right after sending cannot bring the sent text back — while text
// typed after it, and saved since, stays.
func (s *Service) clearSentDraft(ctx context.Context, tx store.Handle, chatID, text string) error {
	draft, err := s.store.GetComposerDraft(ctx, tx, chatID)
	if err != nil || draft == "" || strings.TrimSpace(draft) != text {
		return err
	}
	return s.store.PutComposerDraft(ctx, tx, chatID, "", s.nowMS())
}
