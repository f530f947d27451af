package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
)

// chatsDialog is the chat switcher: open, start, archive or delete a chat.
// It draws only the rows in view, keeps its cursor in view, and reads the
// next page of the chat list as the cursor nears the end of those read,
// so every chat can be reached.
type chatsDialog struct {
	keys     chatKeys
	scrollK  scrollKeys
	list     chatList
	onScreen string // the chat the screen shows
	startOn  string // the chat the cursor starts on, when not onScreen
	next     string // the cursor of the page after those read
	complete bool   // no page follows
	loading  bool
	toEnd    bool // End was pressed: the cursor follows the pages still to read to the last chat
	top      int  // the first row in view
	height   int
	note     string // what the list just did, until the next key
	noteErr  bool
}

func newChats(keys keyMap, onScreen string) chatsDialog {
	return chatsDialog{keys: keys.ChatList, scrollK: keys.Scroll, onScreen: onScreen, loading: true}
}

// cursorStart is the chat the cursor starts on: the one a question waits
// in when the user came for it, else the chat on screen.
func (d chatsDialog) cursorStart() string {
	if d.startOn != "" {
		return d.startOn
	}
	return d.onScreen
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
	return min(max(len(d.list.chats), chatPage(d.height)), chat.MaxChatPage)
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
		return d, nil
	case msg.after == "":
		d.list.adopt(msg.page.Chats, d.cursorStart()) // a fresh read from the top
	case msg.after == d.next:
		d.list.adopt(append(slices.Clip(d.list.chats), msg.page.Chats...), d.cursorStart())
	default:
		return d, nil // a page of a list read again since
	}
	d.next, d.complete = msg.page.Next, !msg.page.More
	if d.toEnd {
		d.list.sel = len(d.list.chats) - 1
		d.toEnd = !d.complete
	}
	if !d.complete && (d.toEnd || !d.list.found(d.onScreen)) {
		return d.more() // read on to the last chat, or to the older one on screen
	}
	return d, nil
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
		d.list.move(-1)
	case key.Matches(msg, k.Down):
		d.list.move(1)
	case key.Matches(msg, d.scrollK.PageUp):
		d.list.move(-d.rows())
	case key.Matches(msg, d.scrollK.PageDown):
		d.list.move(d.rows())
	case key.Matches(msg, d.scrollK.Top):
		d.list.move(-len(d.list.chats))
	case key.Matches(msg, d.scrollK.Bottom):
		d.list.move(len(d.list.chats))
		d.toEnd = !d.complete // the last chat read is not the last chat
	case key.Matches(msg, k.New):
		return d, newChatAct{}
	case key.Matches(msg, k.Open):
		if c, ok := d.list.selected(); ok {
			return d, openChatAct{chatID: c.ID}
		}
	case key.Matches(msg, k.Archive):
		if c, ok := d.list.selected(); ok {
			return d, archiveAct{chatID: c.ID, title: c.Title, unarchive: c.State == "archived", limit: d.refreshLimit()}
		}
	case key.Matches(msg, k.Delete):
		if c, ok := d.list.selected(); ok && d.list.armDelete(c.ID) {
			if c.ID == d.onScreen {
				d.onScreen = ""
			}
			return d, deleteAct{chatID: c.ID, title: c.Title, limit: d.refreshLimit()}
		}
	}
	if d.toEnd || d.list.sel >= len(d.list.chats)-d.rows() {
		return d.more()
	}
	return d, nil
}

// window is the first row in view when rows fit: the last one kept
// unless the cursor left it.
func (d chatsDialog) window(rows int) int {
	top := clampTop(d.top, len(d.list.chats), rows)
	if d.list.sel < top {
		top = d.list.sel
	}
	if d.list.sel >= top+rows {
		top = d.list.sel - rows + 1
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

func (d chatsDialog) view(width, height int, focused bool) string {
	k := d.keys
	var b strings.Builder
	count := plural(len(d.list.chats), "chat", "chats")
	if !d.complete {
		count = fmt.Sprintf("%d+ chats", len(d.list.chats))
	}
	archive := "archive"
	if c, ok := d.list.selected(); ok && c.State == "archived" {
		archive = "unarchive"
	}
	b.WriteString(truncate(stBold.Render(" Chats")+stDim.Render(" ("+count+")  "+hints(k.Open, relabel(k.New, "new"),
		relabel(k.Archive, archive), relabel(k.Delete, "delete (twice)"), relabel(k.Close, "close"))), width) + "\n")
	rows := max(1, height-3)
	top := d.window(rows)
	end := min(len(d.list.chats), top+rows)
	// The marks are compact in every row when a title in view would not
	// fit beside them in words.
	compact, used := false, chatMarks{}
	for i := top; i < end; i++ {
		mk := marksOf(d.list.chats[i], d.onScreen)
		used = used.union(mk)
		compact = compact || !fitsInWords(d.list.chats[i], mk, width)
	}
	var lines []string
	for i := top; i < end; i++ {
		c := d.list.chats[i]
		lines = append(lines, truncate(chatRow(c, i == d.list.sel, marksOf(c, d.onScreen), compact, width), width))
	}
	switch c, _ := d.list.selected(); {
	case d.list.confirmDel != "" && c.ID == d.list.confirmDel:
		// On the note line, not after the row: a narrow row would cut it.
		b.WriteString(stError.Render(truncate(" press "+k.Delete.Help().Key+" again to delete everything in “"+
			forms.SanitizeLine(c.Title)+"”", width)))
	case d.note != "" && d.noteErr:
		b.WriteString(stError.Render(truncate(" "+d.note, width)))
	case d.note != "":
		b.WriteString(stDim.Render(truncate(" "+d.note, width)))
	case compact:
		b.WriteString(stDim.Render(truncate(" "+compactLegend(used), width)))
	}
	b.WriteString("\n")
	for _, line := range lines {
		b.WriteString(line + "\n")
	}
	switch {
	case len(d.list.chats) == 0 && d.loading:
		b.WriteString(stDim.Render("  reading chats…") + "\n")
	case len(d.list.chats) == 0:
		b.WriteString(stDim.Render("  no chats yet — "+k.New.Help().Key+" starts one") + "\n")
	}
	if len(d.list.chats) > rows || d.loading {
		pos := fmt.Sprintf(" %d–%d of %s", top+1, end, count)
		if d.loading && len(d.list.chats) > 0 {
			pos += " · reading more…"
		}
		b.WriteString(stDim.Render(truncate(pos+" · "+hints(k.Up, d.scrollK.PageUp), width)))
	}
	return b.String()
}
