package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/chatlist"
)

// chatsDialog is the chat switcher: open, start, archive or delete a chat.
// It draws only the rows in view, keeps its cursor in view, and reads the
// next page of the chat list as the cursor nears the end of those read,
// so every chat can be reached.
type chatsDialog struct {
	keys     chatKeys
	scrollK  scrollKeys
	list     chatlist.List
	onScreen string // the chat the screen shows: the cursor starts on its row
	next     string // the cursor of the page after those read
	complete bool   // no page follows
	loading  bool
	toEnd    bool // End was pressed: the cursor follows the pages still to read to the last chat
	top      int  // the first row in view
	height   int
	note     string // what the list just did, until the next key
	noteErr  bool
	unread   unreadMsg // how many unread answers the chat a first d is on holds
	// The new chat — the screen on one, or text saved in one — is the
	// list's top row (ID ""), so its draft can be found and opened.
	newChat bool   // the screen is on the new chat
	newText string // the text typed in it (the composer's, when on screen)
	listErr error  // why the list could not be read, until it is read
}

func newChats(keys keyMap, onScreen string) chatsDialog {
	return chatsDialog{keys: keys.ChatList, scrollK: keys.Scroll, onScreen: onScreen, loading: true}
}

// chatPage is how many chats one read of the list takes on a screen of
// height lines: two screenfuls, so the first read fills the screen and the
// next one starts while the cursor is still a screen from the end. A
// switch reads the list each time: a page of 200 cost it a millisecond of
// CPU it never showed.
func chatPage(height int) int { return min(max(2*height, 20), chat.MaxChatPage) }

// refreshLimit is how many chats a fresh read of the list takes: as many
// as are shown, within a page's bounds.
func (d chatsDialog) refreshLimit() int {
	return min(max(len(d.list.Chats()), chatPage(d.height)), chat.MaxChatPage)
}

func (d chatsDialog) about() string    { return "" }
func (d chatsDialog) fullScreen() bool { return true }

// rows is how many chats fit on screen under the header.
func (d chatsDialog) rows() int { return max(1, d.height-3) }

func (d chatsDialog) update(msg tea.Msg) (dialog, action) {
	var act action
	switch msg := msg.(type) {
	case sizeMsg:
		d.height = msg.height
	case chatsMsg:
		d, act = d.adopt(msg)
	case unreadMsg:
		d.unread = msg
	case tea.KeyMsg:
		d, act = d.key(msg)
	}
	d.top = d.window(d.rows())
	return d, act
}

// adopt takes a page of the list (or the list read again from the top).
func (d chatsDialog) adopt(msg chatsMsg) (chatsDialog, action) {
	d.loading = false
	if msg.done != nil {
		d.note, d.noteErr = msg.done.note(msg.err, d.keys.Archive.Help().Key), msg.err != nil
	}
	switch {
	case msg.err != nil:
		d.toEnd = false
		if msg.done == nil {
			// The list says why it shows nothing, in words, the code after.
			d.listErr = msg.err
		}
		return d, nil
	case msg.after == "":
		d.listErr = nil
		if !d.newChat {
			d.newText = msg.newDraft
		}
		if msg.draftErr != nil {
			d.note, d.noteErr = "Could not read the text typed in the new chat: "+errText(msg.draftErr), true
		}
		d.list.Adopt(append(d.newRow(), msg.page.Chats...), d.onScreen) // a fresh read from the top
	case msg.after == d.next:
		d.list.Adopt(append(slices.Clip(d.list.Chats()), msg.page.Chats...), d.onScreen)
	default:
		return d, nil // a page of a list read again since
	}
	d.next, d.complete = msg.page.Next, !msg.page.More
	if d.toEnd {
		d.list.Last()
		d.toEnd = !d.complete
	}
	if !d.complete && (d.toEnd || !d.list.Found(d.onScreen)) {
		return d.more() // read on to the last chat, or to the older one on screen
	}
	return d, nil
}

// newRow is the new chat's row, when it has one: the screen is on it, or
// text typed in it waits.
func (d chatsDialog) newRow() []chat.ChatView {
	if !d.newChat && strings.TrimSpace(d.newText) == "" {
		return nil
	}
	return []chat.ChatView{{ID: "", Title: d.newText, State: "new"}}
}

// key acts on a key; moving near the end of the chats read reads on.
func (d chatsDialog) key(msg tea.KeyMsg) (chatsDialog, action) {
	k := d.keys
	d.note, d.noteErr = "", false // it spoke of the moment before this key
	if key.Matches(msg, k.Up, k.Down, d.scrollK.PageUp, d.scrollK.PageDown, d.scrollK.Top, d.scrollK.Bottom) {
		d.toEnd = false // the latest move wins
	}
	switch {
	case key.Matches(msg, k.Close):
		return d, closeAct{}
	case key.Matches(msg, k.Up):
		d.list.Move(-1)
	case key.Matches(msg, k.Down):
		d.list.Move(1)
	case key.Matches(msg, d.scrollK.PageUp):
		d.list.Move(-d.rows())
	case key.Matches(msg, d.scrollK.PageDown):
		d.list.Move(d.rows())
	case key.Matches(msg, d.scrollK.Top):
		d.list.Move(-len(d.list.Chats()))
	case key.Matches(msg, d.scrollK.Bottom):
		d.list.Move(len(d.list.Chats()))
		d.toEnd = !d.complete // the last chat read is not the last chat
	case key.Matches(msg, k.New):
		return d, newChatAct{}
	case key.Matches(msg, k.Open):
		c, ok := d.list.Selected()
		switch {
		case ok && chatlist.IsNew(c) && d.newChat:
			return d, closeAct{} // it is on screen
		case ok && chatlist.IsNew(c):
			return d, newChatAct{}
		case ok:
			return d, openChatAct{chatID: c.ID}
		}
	case (key.Matches(msg, k.Archive) || key.Matches(msg, k.Delete)) && d.onNew():
		d.note = "The new chat is not started yet: its first message starts it (" + k.Open.Help().Key + " opens it)."
	case key.Matches(msg, k.Archive):
		if c, ok := d.list.Selected(); ok {
			return d, archiveAct{chatID: c.ID, title: c.Title, unarchive: c.State.Archived(), limit: d.refreshLimit()}
		}
	case key.Matches(msg, k.Delete):
		if c, ok := d.list.Selected(); ok && d.list.ArmDelete(c.ID) {
			if c.ID == d.onScreen {
				d.onScreen, d.newChat = "", true // the screen goes to a new chat
			}
			return d, deleteAct{chatID: c.ID, title: c.Title, limit: d.refreshLimit()}
		} else if ok {
			return d, deleteAct{chatID: c.ID, ask: true}
		}
	}
	if d.toEnd || d.list.Cursor() >= len(d.list.Chats())-d.rows() {
		return d.more()
	}
	return d, nil
}

// onNew reports the cursor on the new chat's row.
func (d chatsDialog) onNew() bool {
	c, ok := d.list.Selected()
	return ok && chatlist.IsNew(c)
}

// window is the first row in view when rows fit: the last one kept
// unless the cursor left it.
func (d chatsDialog) window(rows int) int {
	top := clampTop(d.top, len(d.list.Chats()), rows)
	if d.list.Cursor() < top {
		top = d.list.Cursor()
	}
	if d.list.Cursor() >= top+rows {
		top = d.list.Cursor() - rows + 1
	}
	return max(0, top)
}

// more reads the next page of chats, unless all are read or being read.
func (d chatsDialog) more() (chatsDialog, action) {
	if d.complete || d.loading {
		return d, nil
	}
	d.loading = true
	return d, moreChatsAct{after: d.next, limit: chatPage(d.height)}
}
