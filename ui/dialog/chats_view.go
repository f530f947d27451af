package dialog

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"followup/forms"
	"followup/ui/chatlist"
	"followup/ui/status"
	"followup/ui/style"
)

// What the chat switcher draws: its header and hint, a note line, the rows
// in view and where they lie among all.

func (d Chats) View(width, height int, focused bool) string {
	k := d.keys
	var b strings.Builder
	// The count is of the rows listed, the new chat's among them.
	count := style.Plural(len(d.list.Chats()), "chat", "chats")
	if !d.complete {
		count = fmt.Sprintf("%d+ chats", len(d.list.Chats()))
	}
	head := style.Bold.Render(" Chats") + style.Dim.Render(" ("+count+")  ")
	b.WriteString(style.Truncate(head+style.Dim.Render(style.HintsFit(width-lipgloss.Width(head), d.hintKeys()...)), width) + "\n")
	rows := max(1, height-3)
	top := d.window(rows)
	end := min(len(d.list.Chats()), top+rows)
	lines, legend := d.list.Rows(top, end, d.onScreen, width)
	switch c, _ := d.list.Selected(); {
	case d.list.Deleting() != "" && c.ID == d.list.Deleting():
		// On the note line, not after the row: a narrow row would cut it.
		unread := ""
		switch n := d.unread.N; {
		case d.unread.ChatID != c.ID:
		case n == 1:
			unread = " 1 confirmed answer its agent has not read yet goes too:"
		case n > 1:
			unread = fmt.Sprintf(" %d confirmed answers their agents have not read yet go too:", n)
		}
		b.WriteString(style.Error.Render(style.Truncate(unread+" press "+k.Delete.Help().Key+" again to delete everything in “"+
			forms.SanitizeLine(c.Title)+"”", width)))
	case d.note != "" && d.noteErr:
		b.WriteString(style.Error.Render(style.Truncate(" "+d.note, width)))
	case d.note != "":
		b.WriteString(style.Dim.Render(style.Truncate(" "+d.note, width)))
	case d.listErr != nil:
		b.WriteString(status.ErrLine(" Could not read the chats: ", d.listErr, width))
	case legend != "":
		b.WriteString(style.Dim.Render(style.Truncate(" "+legend, width)))
	}
	b.WriteString("\n")
	for _, line := range lines {
		b.WriteString(line + "\n")
	}
	switch {
	case len(d.list.Chats()) == 0 && d.loading:
		b.WriteString(style.Dim.Render("  reading chats…") + "\n")
	case len(d.list.Chats()) == 0 && d.listErr != nil:
		b.WriteString(style.Dim.Render("  "+k.New.Help().Key+" starts a new chat; "+k.Close.Help().Key+" goes back") + "\n")
	case len(d.list.Chats()) == 0:
		b.WriteString(style.Dim.Render("  no chats yet — "+k.New.Help().Key+" starts one") + "\n")
	}
	if len(d.list.Chats()) > rows || d.loading {
		pos := fmt.Sprintf(" %d–%d of %s", top+1, end, count)
		if d.loading && len(d.list.Chats()) > 0 {
			pos += " · reading more…"
		}
		b.WriteString(style.Dim.Render(style.Truncate(pos+" · "+style.Hints(k.Up, d.scrollK.PageUp), width)))
	}
	return b.String()
}

// hintKeys are the list's keys that apply to the row under the cursor,
// most needed first, for as many as fit: the new chat's row is neither
// archived nor deleted.
func (d Chats) hintKeys() []key.Binding {
	k := d.keys
	bs := []key.Binding{k.Open, style.Relabel(k.Close, "close"), style.Relabel(k.New, "new")}
	c, ok := d.list.Selected()
	if !ok || chatlist.IsNew(c) {
		return bs
	}
	archive := "archive"
	if c.State.Archived() {
		archive = "unarchive"
	}
	return append(bs, style.Relabel(k.Archive, archive), style.Relabel(k.Delete, "delete (twice)"))
}
