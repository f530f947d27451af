package dialog

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/chatlist"
)

// Chats is the chat switcher: open, start, archive or delete a chat.
// It draws only the rows in view, keeps its cursor in view, and reads the
// next page of the chat list as the cursor nears the end of those read,
// so every chat can be reached.
type Chats struct {
	keys     ChatKeys
	scrollK  ScrollKeys
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
	unread   Unread // how many unread answers the chat a first d is on holds
	// The new chat — the screen on one, or text saved in one — is the
	// list's top row (ID ""), so its draft can be found and opened.
	newChat bool   // the screen is on the new chat
	newText string // the text typed in it (the composer's, when on screen)
	listErr error  // why the list could not be read, until it is read
}

// NewChats is the list opened on the chat on screen (onNew: the new
// chat, typed its text).
func NewChats(keys Keys, onScreen string, onNew bool, typed string) Chats {
	d := Chats{keys: keys.ChatList, scrollK: keys.Scroll, onScreen: onScreen, loading: true, newChat: onNew}
	if onNew {
		d.newText = typed
	}
	return d
}

// ChatPage is how many chats one read of the list takes on a screen of
// height lines: two screenfuls, so the first read fills the screen and the
// next one starts while the cursor is still a screen from the end. A
// switch reads the list each time: a page of 200 cost it a millisecond of
// CPU it never showed.
func ChatPage(height int) int { return min(max(2*height, 20), chat.MaxChatPage) }

// RefreshLimit is how many chats a fresh read of the list takes: as many
// as are shown, within a page's bounds.
func (d Chats) RefreshLimit() int {
	return min(max(len(d.list.Chats()), ChatPage(d.height)), chat.MaxChatPage)
}

func (d Chats) About() string    { return "" }
func (d Chats) FullScreen() bool { return true }

// rows is how many chats fit on screen under the header.
func (d Chats) rows() int { return max(1, d.height-3) }

func (d Chats) Update(msg tea.Msg) (Dialog, Action) {
	var act Action
	switch msg := msg.(type) {
	case Size:
		d.height = msg.Height
	case ChatsRead:
		d, act = d.adopt(msg)
	case Unread:
		d.unread = msg
	case tea.KeyMsg:
		d, act = d.key(msg)
	}
	d.top = d.window(d.rows())
	return d, act
}

// adopt takes a page of the list (or the list read again from the top).
func (d Chats) adopt(msg ChatsRead) (Chats, Action) {
	d.loading = false
	if msg.Done != nil {
		d.note, d.noteErr = msg.Done.note(msg.Err, d.keys.Archive.Help().Key), msg.Err != nil
	}
	switch {
	case msg.Err != nil:
		d.toEnd = false
		if msg.Done == nil {
			// The list says why it shows nothing, in words, the code after.
			d.listErr = msg.Err
		}
		return d, nil
	case msg.After == "":
		d.listErr = nil
		if !d.newChat {
			d.newText = msg.NewDraft
		}
		if msg.DraftErr != nil {
			d.note, d.noteErr = "Could not read the text typed in the new chat: "+chat.AsError(msg.DraftErr).Message, true
		}
		d.list.Adopt(append(d.newRow(), msg.Page.Chats...), d.onScreen) // a fresh read from the top
	case msg.After == d.next:
		d.list.Adopt(append(slices.Clip(d.list.Chats()), msg.Page.Chats...), d.onScreen)
	default:
		return d, nil // a page of a list read again since
	}
	d.next, d.complete = msg.Page.Next, !msg.Page.More
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
func (d Chats) newRow() []chat.ChatView {
	if !d.newChat && strings.TrimSpace(d.newText) == "" {
		return nil
	}
	return []chat.ChatView{{ID: "", Title: d.newText, State: "new"}}
}

// key acts on a key; moving near the end of the chats read reads on.
func (d Chats) key(msg tea.KeyMsg) (Chats, Action) {
	k := d.keys
	d.note, d.noteErr = "", false // it spoke of the moment before this key
	by, move := d.scrollK.moveBy(msg, k.Up, k.Down, d.rows(), len(d.list.Chats()))
	switch {
	case key.Matches(msg, k.Close):
		return d, Close{}
	case move:
		d.list.Move(by)
		// The latest move wins; the last chat read is not the last chat.
		d.toEnd = key.Matches(msg, d.scrollK.Bottom) && !d.complete
	case key.Matches(msg, k.New):
		return d, NewChat{}
	case key.Matches(msg, k.Open):
		c, ok := d.list.Selected()
		switch {
		case ok && chatlist.IsNew(c) && d.newChat:
			return d, Close{} // it is on screen
		case ok && chatlist.IsNew(c):
			return d, NewChat{}
		case ok:
			return d, OpenChat{ChatID: c.ID}
		}
	case (key.Matches(msg, k.Archive) || key.Matches(msg, k.Delete)) && d.onNew():
		d.note = "The new chat is not started yet: its first message starts it (" + k.Open.Help().Key + " opens it)."
	case key.Matches(msg, k.Archive):
		if c, ok := d.list.Selected(); ok {
			return d, Lifecycle{Op: archiveOp(c), ChatID: c.ID, Title: c.Title, Limit: d.RefreshLimit()}
		}
	case key.Matches(msg, k.Delete):
		if c, ok := d.list.Selected(); ok && d.list.ArmDelete(c.ID) {
			if c.ID == d.onScreen {
				d.onScreen, d.newChat = "", true // the screen goes to a new chat
			}
			return d, Lifecycle{Op: OpDelete, ChatID: c.ID, Title: c.Title, Limit: d.RefreshLimit()}
		} else if ok {
			return d, AskUnread{c.ID}
		}
	}
	if d.toEnd || d.list.Cursor() >= len(d.list.Chats())-d.rows() {
		return d.more()
	}
	return d, nil
}

// archiveOp archives c, or unarchives it when it is archived.
func archiveOp(c chat.ChatView) LifecycleOp {
	if c.State.Archived() {
		return OpUnarchive
	}
	return OpArchive
}

// onNew reports the cursor on the new chat's row.
func (d Chats) onNew() bool {
	c, ok := d.list.Selected()
	return ok && chatlist.IsNew(c)
}

// window is the first row in view when rows fit: the last one kept
// unless the cursor left it.
func (d Chats) window(rows int) int {
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
func (d Chats) more() (Chats, Action) {
	if d.complete || d.loading {
		return d, nil
	}
	d.loading = true
	return d, MoreChats{After: d.next, Limit: ChatPage(d.height)}
}

// List is the chats read so far, with the cursor.
func (d Chats) List() *chatlist.List { return &d.list }
