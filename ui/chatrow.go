package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// chatMarks are what a chat's row says after its title: archived, how
// many questions wait, the chat on screen. In words when every title in
// view fits beside them; else compact in every row (one look for the
// list), so the titles keep the room: a list of titles cut to
// "Plan a tr…" is no list to choose from.
type chatMarks struct {
	archived bool
	pending  int
	here     bool
}

func marksOf(c chat.ChatView, onScreen string) chatMarks {
	return chatMarks{archived: c.State.Archived(), pending: c.Pending, here: c.ID == onScreen}
}

// union is the marks of both.
func (mk chatMarks) union(o chatMarks) chatMarks {
	return chatMarks{archived: mk.archived || o.archived, pending: max(mk.pending, o.pending), here: mk.here || o.here}
}

// words is the marks in full: " [archived] · 2 questions wait · on screen".
func (mk chatMarks) words() string {
	s := ""
	if mk.archived {
		s += style.Dim.Render(" [archived]")
	}
	if mk.pending > 0 {
		s += style.States["pending"].Render(" · " + style.Plural(mk.pending, "question waits", "questions wait"))
	}
	if mk.here {
		s += style.Dim.Render(" · on screen")
	}
	return s
}

// compact is the marks in a few cells: " [arch] ?2 (here)"; compactLegend
// says what they mean.
func (mk chatMarks) compact() string {
	s := ""
	if mk.archived {
		s += style.Dim.Render(" [arch]")
	}
	if mk.pending > 0 {
		s += style.States["pending"].Render(" ?" + strconv.Itoa(mk.pending))
	}
	if mk.here {
		s += style.Dim.Render(" (here)")
	}
	return s
}

// compactLegend says what the compact marks mean, those used.
func compactLegend(used chatMarks) string {
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
	head := "  "
	if cursor {
		head = "› "
	}
	if compact {
		return head + style.Dim.Render(fmt.Sprintf("%-6s", c.UpdatedAt.Local().Format("Jan 2"))) + " "
	}
	return head + style.Dim.Render(c.UpdatedAt.Local().Format("Jan 2 15:04")) + "  "
}

// fitsInWords reports whether the row's whole title fits at width beside
// its marks in words.
func fitsInWords(c chat.ChatView, mk chatMarks, width int) bool {
	return lipgloss.Width(rowHead(c, false, false))+lipgloss.Width(forms.SanitizeLine(c.Title))+lipgloss.Width(mk.words()) <= width
}

// chatRow is a chat's line in the list at width: the date, then the
// title, as much of it as the marks leave; compact, the date is the day
// alone and the marks are compact.
func chatRow(c chat.ChatView, cursor bool, mk chatMarks, compact bool, width int) string {
	head := rowHead(c, cursor, compact)
	marks := mk.words()
	if compact {
		marks = mk.compact()
	}
	room := width - lipgloss.Width(head) - lipgloss.Width(marks)
	return head + style.Truncate(forms.SanitizeLine(c.Title), max(10, room)) + marks
}
