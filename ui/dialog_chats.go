package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
)

// chatsDialog is the chat switcher: open, start, archive or delete a chat.
type chatsDialog struct {
	keys     chatKeys
	list     chatList
	onScreen string // the chat the screen shows
}

func newChats(keys chatKeys, onScreen string) chatsDialog {
	return chatsDialog{keys: keys, onScreen: onScreen}
}

func (d chatsDialog) about() string    { return "" }
func (d chatsDialog) fullScreen() bool { return true }

func (d chatsDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case chatsMsg:
		if msg.err == nil {
			d.list.adopt(msg.chats, d.onScreen)
		}
	case tea.KeyMsg:
		k := d.keys
		switch {
		case key.Matches(msg, k.Close):
			return d, closeAct{}
		case key.Matches(msg, k.Up):
			d.list.move(-1)
		case key.Matches(msg, k.Down):
			d.list.move(1)
		case key.Matches(msg, k.New):
			return d, newChatAct{}
		case key.Matches(msg, k.Open):
			if c, ok := d.list.selected(); ok {
				return d, openChatAct{chatID: c.ID}
			}
		case key.Matches(msg, k.Archive):
			if c, ok := d.list.selected(); ok {
				return d, archiveAct{chatID: c.ID}
			}
		case key.Matches(msg, k.Delete):
			if c, ok := d.list.selected(); ok && d.list.armDelete(c.ID) {
				if c.ID == d.onScreen {
					d.onScreen = ""
				}
				return d, deleteAct{chatID: c.ID}
			}
		}
	}
	return d, nil
}

func (d chatsDialog) view(width, height int, focused bool) string {
	k := d.keys
	var b strings.Builder
	b.WriteString(stBold.Render(" Chats") + "  " + stDim.Render(hints(k.Open, relabel(k.New, "new"), relabel(k.Archive, "archive"),
		relabel(k.Delete, "delete (twice)"), relabel(k.Close, "close"))) + "\n\n")
	for i, c := range d.list.chats {
		cursor := "  "
		if i == d.list.sel {
			cursor = "› "
		}
		state := ""
		if c.State == "archived" {
			state = stDim.Render(" [archived]")
		}
		if c.Pending > 0 {
			state += stateStyles["pending"].Render(fmt.Sprintf(" · %d question(s) waiting", c.Pending))
		}
		if c.ID == d.onScreen {
			state += stDim.Render(" · on screen")
		}
		when := c.UpdatedAt.Local().Format("Jan 2 15:04")
		line := cursor + stDim.Render(when) + "  " + truncate(forms.SanitizeLine(c.Title), max(10, width-50)) + state
		if c.ID == d.list.confirmDel {
			line += stError.Render("  press " + k.Delete.Help().Key + " again to delete everything in this chat")
		}
		b.WriteString(line + "\n")
	}
	if len(d.list.chats) == 0 {
		b.WriteString(stDim.Render("  no chats yet — "+k.New.Help().Key+" starts one") + "\n")
	}
	return b.String()
}
