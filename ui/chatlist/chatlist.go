// Package chatlist is the chat switcher's list: the chats read so far,
// the cursor, the chat a first d asked to delete, and their rows.
package chatlist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// List is the chat switcher's state: the chats listed, the one under
// the cursor, and the chat a first d asked to delete.
type List struct {
	chats      []chat.ChatView
	sel        int
	confirmDel string // the chat d was pressed on once; d again deletes it
	placed     bool   // the cursor started on the chat on screen, or moved
}

// Adopt takes a fresh list; until the cursor is placed, it starts on the
// chat on screen, and then stays on its chat wherever a list read again
// puts it.
func (l *List) Adopt(chats []chat.ChatView, onScreen string) {
	first := !l.placed
	under, _ := l.Selected()
	l.chats = chats
	if i := l.index(onScreen); first && i >= 0 {
		l.placed, l.sel = true, i
	} else if i := l.index(under.ID); !first && i >= 0 {
		l.sel = i
	}
	if l.sel >= len(l.chats) {
		l.sel = max(0, len(l.chats)-1)
	}
}

// Move moves the cursor by n rows, staying on the list.
func (l *List) Move(n int) {
	l.sel = max(0, min(len(l.chats)-1, l.sel+n))
	l.placed = true
}

// Selected is the chat under the cursor.
func (l *List) Selected() (chat.ChatView, bool) {
	if l.sel >= 0 && l.sel < len(l.chats) {
		return l.chats[l.sel], true
	}
	return chat.ChatView{}, false
}

// ArmDelete reports whether the chat may be deleted now: the first d on
// a chat only asks to press it again.
func (l *List) ArmDelete(id string) bool {
	if l.confirmDel != id {
		l.confirmDel = id
		return false
	}
	l.confirmDel = ""
	return true
}

// Found reports whether the list holds the chat id.
func (l *List) Found(id string) bool { return l.index(id) >= 0 }

// index is the row of the chat id, -1 when it is not listed.
func (l *List) index(id string) int {
	return slices.IndexFunc(l.chats, func(c chat.ChatView) bool { return c.ID == id })
}

// Chats is the chats listed, the new chat's row first when it has one.
func (l *List) Chats() []chat.ChatView { return l.chats }

// Cursor is the row under the cursor.
func (l *List) Cursor() int { return l.sel }

// Last puts the cursor on the last row read.
func (l *List) Last() { l.sel = len(l.chats) - 1 }

// Deleting is the chat a first d asked to delete, "" when none.
func (l *List) Deleting() string { return l.confirmDel }

// IsNew reports whether c is the new chat's row (it has no id yet).
func IsNew(c chat.ChatView) bool { return c.ID == "" }

// Rows draws rows top to end at width, marking the chat onScreen; legend
// says what the compact marks mean when the rows use them ("" when not).
func (l *List) Rows(top, end int, onScreen string, width int) (lines []string, legend string) {
	// The marks are compact in every row when a title in view would not
	// fit beside them in words.
	compact, used := false, marks{}
	for _, c := range l.chats[top:end] {
		mk := marksOf(c, onScreen)
		used = used.union(mk)
		compact = compact || !IsNew(c) && !fitsInWords(c, mk, width)
	}
	for i := top; i < end; i++ {
		c := l.chats[i]
		row := chatRow(c, i == l.sel, marksOf(c, onScreen), compact, width)
		if IsNew(c) {
			row = newChatRow(c, i == l.sel, marksOf(c, onScreen), compact, width)
		}
		lines = append(lines, style.Truncate(row, width))
	}
	if compact {
		legend = compactLegend(used)
	}
	return lines, legend
}

// marks are what a chat's row says after its title: archived, how
// many questions wait, the chat on screen. In words when every title in
// view fits beside them; else compact in every row (one look for the
// list), so the titles keep the room: a list of titles cut to
// "Plan a tr…" is no list to choose from.
type marks struct {
	archived bool
	pending  int
	here     bool
}

func marksOf(c chat.ChatView, onScreen string) marks {
	return marks{archived: c.State.Archived(), pending: c.Pending, here: c.ID == onScreen}
}

// union is the marks of both.
func (mk marks) union(o marks) marks {
	return marks{archived: mk.archived || o.archived, pending: max(mk.pending, o.pending), here: mk.here || o.here}
}

// in is the marks in words, " [archived] · 2 questions wait · on screen",
// or compact, " [arch] ?2 (here)" (compactLegend says what they mean).
func (mk marks) in(compact bool) string {
	form := func(words, short string) string {
		if compact {
			return short
		}
		return words
	}
	s := ""
	if mk.archived {
		s += style.Dim.Render(form(" [archived]", " [arch]"))
	}
	if mk.pending > 0 {
		s += style.States["pending"].Render(form(" · "+style.Plural(mk.pending, "question waits", "questions wait"), " ?"+strconv.Itoa(mk.pending)))
	}
	if mk.here {
		s += style.Dim.Render(form(" · on screen", " (here)"))
	}
	return s
}

// pointer marks the row under the cursor.
func pointer(cursor bool) string {
	if cursor {
		return "› "
	}
	return "  "
}

// compactLegend says what the compact marks mean, those used.
func compactLegend(used marks) string {
	var parts []string
	if used.pending > 0 {
		parts = append(parts, "?N: questions waiting")
	}
	if used.here {
		parts = append(parts, "(here): on screen")
	}
	if used.archived {
		parts = append(parts, "[arch]: archived")
	}
	return strings.Join(parts, " · ")
}

// rowHead is a row's cursor and date: with its time, or the day alone
// when the row is compact.
func rowHead(c chat.ChatView, cursor, compact bool) string {
	head := pointer(cursor)
	if compact {
		return head + style.Dim.Render(fmt.Sprintf("%-6s", c.UpdatedAt.Local().Format("Jan 2"))) + " "
	}
	return head + style.Dim.Render(c.UpdatedAt.Local().Format("Jan 2 15:04")) + "  "
}

// fitsInWords reports whether the row's whole title fits at width beside
// its marks in words.
func fitsInWords(c chat.ChatView, mk marks, width int) bool {
	return lipgloss.Width(rowHead(c, false, false))+lipgloss.Width(forms.SanitizeLine(c.Title))+lipgloss.Width(mk.in(false)) <= width
}

// chatRow is a chat's line in the list at width: the date, then the
// title, as much of it as the marks leave; compact, the date is the day
// alone and the marks are compact.
func chatRow(c chat.ChatView, cursor bool, mk marks, compact bool, width int) string {
	head := rowHead(c, cursor, compact)
	marks := mk.in(compact)
	room := width - lipgloss.Width(head) - lipgloss.Width(marks)
	return head + style.Truncate(forms.SanitizeLine(c.Title), max(10, room)) + marks
}

// newChatRow is the new chat's line: where its date would be it says
// "new chat", then the start of the text typed in it.
func newChatRow(c chat.ChatView, cursor bool, mk marks, compact bool, width int) string {
	head := pointer(cursor) + style.Bold.Render("new chat")
	marks := mk.in(compact)
	text := strings.Join(strings.Fields(forms.SanitizeLine(strings.ReplaceAll(c.Title, "\n", " "))), " ")
	if text == "" {
		return head + marks
	}
	room := width - lipgloss.Width(head) - lipgloss.Width(" · draft: ") - lipgloss.Width(marks)
	return head + style.Dim.Render(" · draft: ") + style.Truncate(text, max(10, room)) + marks
}
