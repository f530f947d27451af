package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// onKey routes a key: global keys first, then the open dialog, then the
// focused area. esc and ctrl+c are handled here before a form sees them.
func (m *model) onKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.matches(msg, k.Quit) {
		return m, tea.Sequence(m.pane.saveNow(), tea.Quit)
	}
	switch m.mode {
	case modeHelp:
		switch msg.String() {
		case "up", "k":
			m.helpTop--
		case "down", "j":
			m.helpTop++
		case "pgup":
			m.helpTop -= max(1, m.height-2)
		case "pgdown", " ":
			m.helpTop += max(1, m.height-2)
		case "home", "g":
			m.helpTop = 0
		case "end", "G":
			m.helpTop = 1 << 20 // clamped when drawn
		case "esc", "q":
			m.closeMode()
		default:
			if m.matches(msg, k.Help) {
				m.closeMode()
			}
		}
		return m, nil
	case modeChats:
		return m, m.onChatsKey(msg)
	case modeReview:
		return m, m.onReviewKey(msg)
	case modeConfirmCancel, modeConfirmStop:
		return m, m.onConfirmKey(msg)
	case modeProposal:
		if m.proposalTakes(msg) {
			return m, m.onProposalKey(msg)
		}
		// Anything else is typing: it goes to the composer, the dialog
		// stays open.
		m.setFocus(focusComposer)
	}
	switch {
	case m.matches(msg, k.Help):
		m.openMode(modeHelp)
		m.helpTop = 0
		return m, nil
	case m.matches(msg, k.Chats):
		m.openMode(modeChats)
		m.chats = chatList{}
		return m, tea.Batch(m.pane.saveNow(), listChats(m.svc))
	case m.matches(msg, k.ScrollUp):
		m.vp.HalfPageUp()
		m.follow = false
		return m, m.maybeLoadOlder()
	case m.matches(msg, k.ScrollDown):
		m.vp.HalfPageDown()
		m.follow = m.vp.AtBottom()
		return m, nil
	case m.matches(msg, k.StopTask):
		if m.run == nil || !(m.run.State == "running" || m.run.State == "waiting_input") {
			m.setStatus("No task is running in this chat.", false)
			return m, nil
		}
		m.openMode(modeConfirmStop)
		return m, nil
	case m.matches(msg, k.Resend):
		return m, m.resumeOrphans()
	}
	if m.pane.live != nil {
		switch {
		case m.matches(msg, k.Focus):
			m.wantFocus = false
			if m.focus == focusForm {
				m.setFocus(focusComposer)
				return m, m.pane.saveNow()
			}
			m.setFocus(focusForm)
			return m, nil
		case m.matches(msg, k.NextReq), m.matches(msg, k.PrevReq):
			return m, m.switchRequest(m.matches(msg, k.NextReq))
		case m.matches(msg, k.CancelReq):
			m.openMode(modeConfirmCancel)
			return m, nil
		}
	}
	if m.focus == focusForm && m.pane.live != nil {
		if m.matches(msg, k.LeaveForm) {
			m.setFocus(focusComposer)
			return m, m.pane.saveNow()
		}
		return m, m.updateForm(msg)
	}
	if m.matches(msg, k.Send) {
		text := strings.TrimSpace(m.composer.Value())
		if text == "" {
			return m, nil
		}
		if m.archived() {
			m.setStatus("This chat is archived and read-only; start a new chat with ctrl+o, n.", true)
			return m, nil
		}
		m.composer.Reset()
		m.setStatus("", false)
		m.follow = true
		chatID := m.chatID
		if m.newChat {
			chatID = ""
		}
		if chatID == "" {
			// Messages typed while the new chat is being made go to it, in
			// order, once it has an id.
			if m.start.creating {
				m.start.queued = append(m.start.queued, text)
				return m, nil
			}
			m.start.creating = true
		}
		return m, sendMessage(m.svc, chatID, text)
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return m, cmd
}

func (m *model) switchRequest(next bool) tea.Cmd {
	save, ok := m.pane.step(next)
	if !ok {
		return nil
	}
	if r, _ := m.activeRequest(); len(r.Proposals) > 0 && m.mode == modeNormal {
		m.openMode(modeProposal)
	}
	return tea.Batch(save, m.ensureForm())
}

func (m *model) onReviewKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.matches(msg, m.keys.Back):
		m.closeMode()
		return m.pane.edit()
	case m.matches(msg, m.keys.Confirm):
		r, ok := m.activeRequest()
		if !ok || m.pane.live == nil {
			m.closeMode()
			return nil
		}
		if m.pane.problems = m.pane.replyProblems(); len(m.pane.problems) > 0 {
			return nil // the review lists them; esc goes back to fix them
		}
		if m.submitting {
			return nil // a second enter while the first is on its way
		}
		m.submitting = true
		return submitAnswer(m.svc, r, m.pane.live.Values())
	}
	return nil
}

// onConfirmKey answers a confirmation the user opened with their own key,
// so it takes keys at once.
func (m *model) onConfirmKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.matches(msg, m.keys.Yes):
		md, target := m.mode, m.target
		m.closeMode()
		if md == modeConfirmStop && m.run != nil {
			return stopTask(m.svc, m.run.ID)
		}
		if id, _, ok := strings.Cut(target, "@"); ok {
			return cancelRequest(m.svc, id)
		}
	case m.matches(msg, m.keys.No):
		m.closeMode()
	}
	return nil
}

// proposalTakes reports whether the open proposal dialog takes a key: its
// accept and keep keys, once the dialog has been on screen a moment and
// while the composer is empty, so a word being typed never decides it.
func (m *model) proposalTakes(msg tea.KeyMsg) bool {
	return !m.inGrace() && m.composer.Value() == "" &&
		(m.matches(msg, m.keys.Accept) || m.matches(msg, m.keys.Keep))
}

func (m *model) onProposalKey(msg tea.KeyMsg) tea.Cmd {
	r, ok := m.activeRequest()
	if !ok || len(r.Proposals) == 0 {
		m.closeMode()
		return nil
	}
	p := r.Proposals[len(r.Proposals)-1]
	var draft map[string]any
	if m.pane.live != nil {
		draft = m.pane.live.Draft()
	}
	switch {
	case m.matches(msg, m.keys.Accept):
		return decide(m.svc, p.ID, true, draft)
	case m.matches(msg, m.keys.Keep):
		return decide(m.svc, p.ID, false, draft)
	}
	return nil
}

func (m *model) onChatsKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	l := &m.chats
	switch {
	case m.matches(msg, k.ChatClose):
		m.closeMode()
	case m.matches(msg, k.ChatUp):
		l.move(-1)
	case m.matches(msg, k.ChatDown):
		l.move(1)
	case m.matches(msg, k.ChatNew):
		m.switchChat("")
		m.chat, m.messages, m.run = nil, nil, nil
		m.requests = map[string]chat.RequestView{}
		m.tr.changed()
		m.refreshTranscript()
		m.layout()
	case m.matches(msg, k.Send):
		if c, ok := l.selected(); ok {
			m.switchChat(c.ID)
			return m.load(m.chatID)
		}
	case m.matches(msg, k.ChatArchive):
		if c, ok := l.selected(); ok {
			return lifecycleCmd(m.svc, c.ID, false)
		}
	case m.matches(msg, k.ChatDelete):
		if c, ok := l.selected(); ok {
			if !l.armDelete(c.ID) {
				return nil
			}
			if c.ID == m.chatID {
				m.newChat, m.chatID, m.chat, m.messages, m.run = true, "", nil, nil, nil
				m.setStatus("", false) // it spoke of the chat now gone
				m.tr.changed()
				m.pane.clear()
				m.dropForm()
				m.refreshTranscript()
			}
			return lifecycleCmd(m.svc, c.ID, true)
		}
	}
	return nil
}

func (m *model) resumeOrphans() tea.Cmd {
	if len(m.orphans) == 0 {
		m.setStatus("No interrupted runs to resume.", false)
		return nil
	}
	var cmds []tea.Cmd
	for _, r := range m.orphans {
		cmds = append(cmds, driveRun(m.svc, r.ID))
	}
	m.orphans = nil
	m.driving = true
	m.setStatus("Resuming interrupted runs…", false)
	return tea.Batch(cmds...)
}

// switchChat leaves the open chat for chatID ("" = a new chat): what was
// streaming and said on the status line stays behind, and each chat keeps
// its own unsent composer text.
func (m *model) switchChat(chatID string) {
	if m.unsent == nil {
		m.unsent = map[string]string{}
	}
	m.unsent[m.chatID] = m.composer.Value()
	m.closeMode()
	m.newChat, m.chatID, m.follow = chatID == "", chatID, true
	m.streaming, m.thinking = "", false
	m.setStatus("", false)
	m.pane.clear()
	m.dropForm()
	m.composer.SetValue(m.unsent[chatID])
}
