package ui

import (
	"strings"

	"followup/ui/style"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// helpDialog is every key of the screen, generated from the keymap; it
// scrolls when it is taller than the screen.
type helpDialog struct {
	keys          keyMap
	width, height int
	scroll        scroll
}

func newHelp(keys keyMap) helpDialog { return helpDialog{keys: keys} }

func (d helpDialog) about() string    { return "" }
func (d helpDialog) fullScreen() bool { return true }

func (d helpDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.width, d.height = msg.width, msg.height
	case tea.KeyMsg:
		if key.Matches(msg, d.keys.HelpClose) {
			return d, closeAct{}
		}
		d.scroll.move(msg, d.keys.Scroll, len(d.lines(d.width)), d.avail())
	}
	return d, nil
}

// avail is how many lines fit above the footer.
func (d helpDialog) avail() int { return max(1, d.height-1) }

// lines is the help drawn at width: one block per place the keys apply,
// in as many columns as fit, each block going to the shortest column.
func (d helpDialog) lines(width int) []string {
	var blocks []string
	for _, sec := range d.keys.sections() {
		blocks = append(blocks, helpBlock(sec))
	}
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
func helpBlock(sec keySection) string {
	keyWidth := 0
	for _, b := range sec.keys {
		keyWidth = max(keyWidth, lipgloss.Width(b.Help().Key))
	}
	lines := []string{" " + style.Bold.Render(sec.title)}
	for _, b := range sec.keys {
		h := b.Help()
		lines = append(lines, "  "+style.Bold.Render(h.Key)+strings.Repeat(" ", keyWidth-lipgloss.Width(h.Key)+2)+style.Dim.Render(h.Desc))
	}
	return strings.Join(lines, "\n")
}

func (d helpDialog) view(width, height int, focused bool) string {
	lines := d.scroll.window(d.lines(width), max(1, height-1), d.keys.Scroll)
	return strings.Join(append(lines, " "+style.Dim.Render(style.Hints(d.keys.HelpClose))), "\n")
}
