package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// helpDialog is every key of the screen, generated from the keymap; it
// scrolls when it is taller than the screen.
type helpDialog struct {
	keys          keyMap
	width, height int
	top           int // the first line shown
}

func newHelp(keys keyMap) helpDialog { return helpDialog{keys: keys} }

func (d helpDialog) about() string    { return "" }
func (d helpDialog) fullScreen() bool { return true }

func (d helpDialog) update(msg tea.Msg) (dialog, action) {
	k := d.keys.HelpView
	switch msg := msg.(type) {
	case sizeMsg:
		d.width, d.height = msg.width, msg.height
	case tea.KeyMsg:
		page := max(1, d.height-2)
		switch {
		case key.Matches(msg, k.Up):
			d.top--
		case key.Matches(msg, k.Down):
			d.top++
		case key.Matches(msg, k.PageUp):
			d.top -= page
		case key.Matches(msg, k.PageDown):
			d.top += page
		case key.Matches(msg, k.Top):
			d.top = 0
		case key.Matches(msg, k.Bottom):
			d.top = 1 << 20 // clamped below
		case key.Matches(msg, k.Close):
			return d, closeAct{}
		}
	}
	lines := d.lines(d.width)
	d.top = min(max(0, d.top), max(0, len(lines)-d.avail()))
	return d, nil
}

// avail is how many help lines fit above the footer.
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
	return append([]string{stBold.Render(" Keys"), ""}, strings.Split(grid, "\n")...)
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
			cols = append(cols, stHelpColumn.Render(strings.Join(st, "\n\n")))
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
	lines := []string{" " + stBold.Render(sec.title)}
	for _, b := range sec.keys {
		h := b.Help()
		lines = append(lines, "  "+stBold.Render(h.Key)+strings.Repeat(" ", keyWidth-lipgloss.Width(h.Key)+2)+stDim.Render(h.Desc))
	}
	return strings.Join(lines, "\n")
}

func (d helpDialog) view(width, height int, focused bool) string {
	k := d.keys.HelpView
	lines := d.lines(width)
	avail := max(1, height-1)
	if len(lines) <= avail {
		return strings.Join(append(lines, " "+stDim.Render(hints(k.Close))), "\n")
	}
	top := min(max(0, d.top), len(lines)-avail)
	end := top + avail
	footer := fmt.Sprintf(" %s (%d–%d of %d) · %s", hints(k.Up, k.PageUp), top+1, end, len(lines), hints(k.Close))
	return strings.Join(append(lines[top:end:end], stDim.Render(footer)), "\n")
}
