package ui

import "followup/chat"

// chatList is the chat switcher's state: the chats listed, the one under
// the cursor, and the chat a first d asked to delete.
type chatList struct {
	chats      []chat.ChatView
	sel        int
	confirmDel string // the chat d was pressed on once; d again deletes it
	placed     bool   // the cursor started on the chat on screen, or moved
}

// adopt takes a fresh list; until the cursor is placed, it starts on the
// chat on screen.
func (l *chatList) adopt(chats []chat.ChatView, onScreen string) {
	first := !l.placed
	l.chats = chats
	if first && l.found(onScreen) {
		l.placed = true
		for i, c := range chats {
			if c.ID == onScreen {
				l.sel = i
			}
		}
	}
	if l.sel >= len(l.chats) {
		l.sel = max(0, len(l.chats)-1)
	}
}

// move moves the cursor by n rows, staying on the list.
func (l *chatList) move(n int) {
	l.sel = max(0, min(len(l.chats)-1, l.sel+n))
	l.placed = true
}

// selected is the chat under the cursor.
func (l *chatList) selected() (chat.ChatView, bool) {
	if l.sel >= 0 && l.sel < len(l.chats) {
		return l.chats[l.sel], true
	}
	return chat.ChatView{}, false
}

// armDelete reports whether the chat may be deleted now: the first d on
// a chat only asks to press it again.
func (l *chatList) armDelete(id string) bool {
	if l.confirmDel != id {
		l.confirmDel = id
		return false
	}
	l.confirmDel = ""
	return true
}

// found reports whether the list holds the chat id.
func (l *chatList) found(id string) bool {
	for _, c := range l.chats {
		if c.ID == id {
			return true
		}
	}
	return false
}
