package ui

import (
	"github.com/charmbracelet/lipgloss"

	"followup/forms"
)

// arrange lays the screen out for its size and state and draws the frame
// View returns. It runs at the end of every Update, so View only reads.
func (m *model) arrange() {
	m.frame = m.compose()
}

func (m *model) compose() string {
	if d, ok := m.dialogs.screen(); ok {
		return d.view(m.width, m.height, true)
	}
	if !m.loaded && m.status == "" && !m.newChat {
		// Until the chat is read, one line: the frames before it would be
		// drawn only to be replaced, on the cores the read needs.
		return stDim.Render(" opening " + forms.SanitizeLine(m.dbPath) + " …")
	}
	pane := m.paneView()
	paneLines := 0
	if pane != "" {
		paneLines = lipgloss.Height(pane)
	}
	spec := layout(m.width, m.height, layoutState{paneLines: paneLines})
	m.apply(spec)
	parts := []string{m.transcriptView()}
	if pane != "" {
		parts = append(parts, pane)
	}
	m.composer.Placeholder = m.composerPlaceholder()
	parts = append(parts, m.noticeLine(), m.composer.View(), m.statusLine())
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

// apply sizes the composer and the transcript as the layout says,
// keeping the transcript on its newest line unless the user scrolled up.
func (m *model) apply(s layoutSpec) {
	if s.composerWidth != m.lay.composerWidth || s.composer != m.lay.composer {
		m.composer.SetWidth(s.composerWidth)
		m.composer.SetHeight(s.composer)
	}
	m.lay = s
	m.vp.Width = s.width
	if s.transcript != m.vp.Height {
		m.vp.Height = s.transcript
		if m.follow {
			m.vp.GotoBottom()
		}
	}
}

// View implements tea.Model: the frame the last Update arranged.
func (m *model) View() string { return m.frame }

// vpFrame is a drawn viewport and what it was drawn from.
type vpFrame struct {
	content       string
	yOffset, w, h int
	view          string
}

// transcriptView is the viewport's View, drawn again only when what it
// shows changed: it wraps and pads every visible line, which a keystroke
// in the form would otherwise pay for.
func (m *model) transcriptView() string {
	f := vpFrame{content: m.vpContent, yOffset: m.vp.YOffset, w: m.vp.Width, h: m.vp.Height}
	if m.vpFrame.view != "" && m.vpFrame.content == f.content && m.vpFrame.yOffset == f.yOffset &&
		m.vpFrame.w == f.w && m.vpFrame.h == f.h {
		return m.vpFrame.view
	}
	f.view = m.vp.View()
	m.vpFrame = f
	return f.view
}
