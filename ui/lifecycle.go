package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// What the chat list does to a chat, and the word it says after.

type lifecycleOp int

const (
	opArchive lifecycleOp = iota
	opUnarchive
	opDelete
)

// lifecycleCmd archives, unarchives or deletes a chat, then reads the
// first limit chats again; the list says what was done (or why not).
func lifecycleCmd(svc *chat.Service, op lifecycleOp, chatID, title string, limit int) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		var err error
		switch op {
		case opArchive:
			_, err = svc.Archive(ctx, chatID, "")
		case opUnarchive:
			_, err = svc.Unarchive(ctx, chatID, "")
		case opDelete:
			err = svc.Delete(ctx, chatID, "")
		}
		done := &lifecycleDone{op: op, title: title}
		if err != nil {
			return chatsMsg{err: err, done: done}
		}
		msg := listChats(svc, "", limit)().(chatsMsg)
		msg.done = done
		return msg
	}
}

// unreadMsg tells how many confirmed answers of a chat their agent has
// not read yet: deleting it would throw them away.
type unreadMsg struct {
	chatID string
	n      int
}

func unreadCmd(svc *chat.Service, chatID string) tea.Cmd {
	return func() tea.Msg {
		n, _, _ := svc.UnreadWarning(context.Background(), chatID)
		return unreadMsg{chatID, n}
	}
}

// lifecycleDone is what the chat list did to a chat.
type lifecycleDone struct {
	op    lifecycleOp
	title string
}

// note is the chat list's line about what it did (err: what it could
// not do, and why); again is the key that undoes an archive.
func (l lifecycleDone) note(err error, again string) string {
	name := "“" + style.Truncate(forms.SanitizeLine(l.title), 40) + "”"
	if err != nil {
		verb := map[lifecycleOp]string{opArchive: "archive", opUnarchive: "unarchive", opDelete: "delete"}[l.op]
		return "Could not " + verb + " " + name + ": " + errText(err)
	}
	switch l.op {
	case opArchive:
		return "Archived " + name + " — read-only; its questions no longer wait. " + again + " unarchives it."
	case opUnarchive:
		return "Unarchived " + name + " — it takes messages again and its questions wait."
	}
	return "Deleted " + name + "."
}
