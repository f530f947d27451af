package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
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

// lines is the help drawn at width: groups side by side while they fit,
// else one a row.
func (d helpDialog) lines(width int) []string {
	h := help.New()
	h.ShowAll = true
	h.Width = 0 // columns are fitted here, not cut
	rows := []string{stBold.Render(" Keys"), ""}
	var line []string
	used := 0
	for _, g := range d.keys.FullHelp() {
		col := h.FullHelpView([][]key.Binding{g})
		w := lipgloss.Width(col) + 4
		if len(line) > 0 && used+w > width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, line...), "")
			line, used = nil, 0
		}
		line, used = append(line, col+"    "), used+w
	}
	if len(line) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, line...), "")
	}
	return strings.Split(lipgloss.JoinVertical(lipgloss.Left, rows...), "\n")
}

func (d helpDialog) view(width, height int) string {
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
