package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/dialog"
)

// What the chat list does to a chat, and the word it says after.

// lifecycleCmd archives, unarchives or deletes a chat, then reads the
// first l.Limit chats again; the list says what was done (or why not).
func lifecycleCmd(svc *chat.Service, l dialog.Lifecycle) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		var err error
		switch l.Op {
		case dialog.OpArchive:
			_, err = svc.Archive(ctx, l.ChatID, "")
		case dialog.OpUnarchive:
			_, err = svc.Unarchive(ctx, l.ChatID, "")
		case dialog.OpDelete:
			err = svc.Delete(ctx, l.ChatID, "")
		}
		if err != nil {
			return dialog.ChatsRead{Err: err, Done: &l}
		}
		msg := listChats(svc, "", l.Limit)().(dialog.ChatsRead)
		msg.Done = &l
		return msg
	}
}

func unreadCmd(svc *chat.Service, chatID string) tea.Cmd {
	return func() tea.Msg {
		n, _, _ := svc.UnreadWarning(context.Background(), chatID)
		return dialog.Unread{ChatID: chatID, N: n}
	}
}
