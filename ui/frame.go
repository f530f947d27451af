package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/style"
)

// arrange lays the screen out for its size and state and draws the frame
// View returns. It runs at the end of every Update, so View only reads.
func (m *model) arrange() {
	m.frame = m.compose()
}

func (m *model) compose() string {
	base := layout(m.width, m.height, layoutState{})
	if base.tooSmall {
		return m.tooSmallView()
	}
	// The composer's text wraps at the width it is given, and takes the
	// rows it wraps to.
	m.composer.SetWidth(base.composerWidth)
	notice := m.noticeLine()
	base = layout(m.width, m.height, m.layoutState(notice))
	if box := m.paneDialogBox(base); box != m.dialogBox {
		m.dialogBox = box
		m.dialogs.Resize(m.dialogSize)
	}
	if d, ok := m.dialogs.Screen(); ok {
		return d.View(m.width, m.height, true)
	}
	if !m.cur.loaded && m.notice.Text() == "" && !m.cur.newChat && m.unread == nil {
		// Until the chat is read, one line: the frames before it would be
		// drawn only to be replaced, on the cores the read needs.
		return style.Dim.Render(" opening " + forms.SanitizeLine(m.start.dbPath) + " …")
	}
	pane := m.paneView(base)
	paneLines := 0
	if pane != "" {
		paneLines = lipgloss.Height(pane)
	}
	spec := layout(m.width, m.height, layoutState{paneLines: paneLines, composerLines: base.composer, noticeLines: lipgloss.Height(notice),
		chipLines: min(3, len(m.composer.Attached()))})
	if paneLines > spec.pane {
		// Never a frame taller than the screen: what does not fit is cut.
		pane = strings.Join(strings.Split(pane, "\n")[:spec.pane], "\n")
	}
	m.apply(spec)
	// A key typed in the form changes neither the transcript nor the
	// unfocused composer: their drawings are kept.
	parts := []string{m.tr.View()}
	if pane != "" {
		parts = append(parts, pane)
	}
	m.composer.Placeholder = m.composerPlaceholder()
	comp := m.composer.View
	if !m.composer.Focused() {
		comp = func() string {
			return m.compMemo.Get(composerKey{m.composer.Value(), m.composer.Placeholder, m.composer.Width(), m.composer.Height()}, m.composer.View)
		}
	}
	parts = append(parts, notice)
	if chips := m.chips(); chips != "" {
		parts = append(parts, chips)
	}
	parts = append(parts, comp(), m.statusLine())
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

// composerKey is what an unfocused composer's drawing depends on.
type composerKey struct {
	text, placeholder string
	width, height     int
}

// tooSmallView is the whole screen below minWidth×minHeight. It still
// counts the questions waiting, here (none in an archived chat, as its row
// in the chat list says) and in other chats: nothing hides that one is asked.
func (m *model) tooSmallView() string {
	msg := fmt.Sprintf("The terminal is %d×%d; followup needs at least %d×%d.\nMake it larger, or %s to quit.",
		m.width, m.height, minWidth, minHeight, m.keys.Quit.Help().Key)
	n := max(0, m.cur.elsewhere)
	if !m.archived() {
		n += len(m.pane.pending)
	}
	if n > 0 {
		msg = style.Plural(n, "question waits", "questions wait") + " for your answer.\n" + msg
	}
	return lipgloss.NewStyle().Width(max(1, m.width)).MaxHeight(max(1, m.height)).Render(msg)
}

// layoutState is what the layout depends on before the pane is drawn:
// the composer's rows at its width and the notice's (noticeLine).
func (m *model) layoutState(notice string) layoutState {
	return layoutState{composerLines: max(1, m.composer.Rows()), noticeLines: lipgloss.Height(notice), chipLines: min(3, len(m.composer.Attached()))}
}

// chips names, a line each, the resources attached to the next message
// ("" when none), three at most; the last says how to take one off.
func (m *model) chips() string {
	rs := m.composer.Attached()
	var lines []string
	if len(rs) > 3 {
		lines, rs = []string{" " + style.Code.Render(fmt.Sprintf("📎 %d more", len(rs)-2))}, rs[len(rs)-2:]
	}
	for i, r := range rs {
		line := style.Code.Render(chat.AttachmentLine(r))
		if i == len(rs)-1 {
			line += "  " + style.Dim.Render("(⌫ takes it off)")
		}
		lines = append(lines, " "+style.Truncate(line, max(1, m.width-2)))
	}
	return strings.Join(lines, "\n")
}

// paneDialogBox is the box a dialog in the pane is drawn in: the pane's
// most, less the tab row.
func (m *model) paneDialogBox(s layoutSpec) dialog.Size {
	h := s.paneMax
	if m.showTabs() {
		h--
	}
	return dialog.Size{Width: m.width, Height: max(3, h)}
}

// dialogSize is the box a dialog is drawn in.
func (m *model) dialogSize(d dialog.Dialog) dialog.Size {
	if d.FullScreen() {
		return dialog.Size{Width: m.width, Height: m.height}
	}
	return m.paneDialogBox(layout(m.width, m.height, m.layoutState(m.noticeLine())))
}

// apply sizes the composer and the transcript as the layout says,
// keeping the transcript on its newest line unless the user scrolled up.
func (m *model) apply(s layoutSpec) {
	if s.composerWidth != m.lay.composerWidth || s.composer != m.lay.composer {
		m.composer.SetWidth(s.composerWidth)
		m.composer.SetHeight(s.composer)
	}
	m.lay = s
	m.tr.SetSize(s.width, s.transcript)
}

// View implements tea.Model: the frame the last Update arranged.
func (m *model) View() string { return m.frame }

// resize takes the terminal's size.
func (m *model) resize(msg tea.WindowSizeMsg) tea.Cmd {
	// huh asks for the size whenever a form starts: only a real change
	// reflows.
	changed := msg.Width != m.width || msg.Height != m.height
	m.width, m.height, m.sized = msg.Width, msg.Height, true
	m.refreshTranscript()
	if !changed {
		return nil
	}
	m.dialogs.Resize(m.dialogSize) // the box each is drawn in now
	// Also behind a dialog or the review: the form comes back at the
	// size of the screen it comes back to.
	return m.pane.resize(formSize(m.width, m.height))
}
