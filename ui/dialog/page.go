package dialog

import (
	"strings"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Page is a page of text over the whole screen that scrolls when
// it is taller than the screen: help (every key, generated from the
// keymap), or the whole of a question's reason (readPage).
type Page struct {
	lines         func(width int) []string
	close         key.Binding
	scrollKeys    ScrollKeys
	width, height int
	scroll        scroll
}

// NewHelp is every key, one block per place the keys apply, in as many
// columns as fit, each block going to the shortest column.
func NewHelp(keys Keys, sections []Section) Page {
	var blocks []string
	for _, sec := range sections {
		blocks = append(blocks, helpBlock(sec))
	}
	return Page{lines: func(width int) []string { return helpGrid(blocks, width) }, close: keys.HelpClose, scrollKeys: keys.Scroll}
}

// NewReadPage is the whole of why r is asked and by whom, which the pane
// cuts to a few lines.
func NewReadPage(keys Keys, r chat.RequestView) Page {
	lines := func(width int) []string {
		head := " " + style.Bold.Render(forms.PlainLine(r.Title))
		if by := words.AskedBy(r.Owner); by != "" {
			head += "  " + style.Dim.Render(by)
		}
		body := lipgloss.NewStyle().Width(max(10, width-2)).PaddingLeft(1).Render(forms.SanitizeBlock(r.Reason))
		return append([]string{head, ""}, strings.Split(body, "\n")...)
	}
	return Page{lines: lines, close: keys.ReadClose, scrollKeys: keys.Scroll}
}

func (d Page) About() string    { return "" }
func (d Page) FullScreen() bool { return true }

func (d Page) Update(msg tea.Msg) (Dialog, Action) {
	switch msg := msg.(type) {
	case Size:
		d.width, d.height = msg.Width, msg.Height
	case tea.KeyMsg:
		if key.Matches(msg, d.close) {
			return d, Close{}
		}
		d.scroll.move(msg, d.scrollKeys, len(d.lines(d.width)), d.avail())
	}
	return d, nil
}

// avail is how many lines fit above the footer.
func (d Page) avail() int { return max(1, d.height-1) }

func (d Page) View(width, height int, focused bool) string {
	lines := d.scroll.window(d.lines(width), max(1, height-1), d.scrollKeys)
	return strings.Join(append(lines, " "+style.Dim.Render(style.Hints(d.close))), "\n")
}

// helpGrid is the help drawn at width.
func helpGrid(blocks []string, width int) []string {
	var cols []string
	for n := len(blocks); n >= 1; n-- {
		cols = helpColumns(blocks, n)
		if n == 1 || lipgloss.Width(lipgloss.JoinHorizontal(lipgloss.Top, cols...)) <= width {
			break
		}
	}
	grid := lipgloss.JoinHorizontal(lipgloss.Top, cols...)
	return append([]string{style.Bold.Render(" Keys"), ""}, strings.Split(grid, "\n")...)
}

// helpColumns stacks blocks in n columns, each block in order going to
// the shortest column so far.
func helpColumns(blocks []string, n int) []string {
	stacks := make([][]string, n)
	heights := make([]int, n)
	for _, b := range blocks {
		c := 0
		for i := range heights {
			if heights[i] < heights[c] {
				c = i
			}
		}
		stacks[c] = append(stacks[c], b)
		heights[c] += lipgloss.Height(b) + 1
	}
	cols := make([]string, 0, n)
	for _, st := range stacks {
		if len(st) > 0 {
			cols = append(cols, style.HelpColumn.Render(strings.Join(st, "\n\n")))
		}
	}
	return cols
}

// helpBlock is one place's keys under its heading, keys aligned.
func helpBlock(sec Section) string {
	keyWidth := 0
	for _, b := range sec.Keys {
		keyWidth = max(keyWidth, lipgloss.Width(b.Help().Key))
	}
	lines := []string{" " + style.Bold.Render(sec.Title)}
	for _, b := range sec.Keys {
		h := b.Help()
		lines = append(lines, "  "+style.Bold.Render(h.Key)+strings.Repeat(" ", keyWidth-lipgloss.Width(h.Key)+2)+style.Dim.Render(h.Desc))
	}
	return strings.Join(lines, "\n")
}
