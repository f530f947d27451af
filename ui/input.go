package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
)

// onKey routes a key: global keys first, then the open dialog, then the
// focused area. esc and ctrl+c are handled here before a form sees them.
func (m *model) onKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.matches(msg, k.Quit) {
		return m, tea.Sequence(m.saveDraftNow(), tea.Quit)
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
		m.confirmDel, m.chats = "", nil
		return m, tea.Batch(m.saveDraftNow(), listChats(m.svc))
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
	if m.live != nil {
		switch {
		case m.matches(msg, k.Focus):
			m.wantFocus = false
			if m.focus == focusForm {
				m.setFocus(focusComposer)
				return m, m.saveDraftNow()
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
	if m.focus == focusForm && m.live != nil {
		if m.matches(msg, k.LeaveForm) {
			m.setFocus(focusComposer)
			return m, m.saveDraftNow()
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
			if m.creating {
				m.queued = append(m.queued, text)
				return m, nil
			}
			m.creating = true
		}
		return m, sendMessage(m.svc, chatID, text)
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return m, cmd
}

func (m *model) switchRequest(next bool) tea.Cmd {
	if len(m.pending) < 2 {
		return nil
	}
	save := m.saveDraftNow()
	m.keepDraft()
	i := 0
	for j, r := range m.pending {
		if r.ID == m.active {
			i = j
		}
	}
	if next {
		i = (i + 1) % len(m.pending)
	} else {
		i = (i + len(m.pending) - 1) % len(m.pending)
	}
	m.active = m.pending[i].ID
	m.live, m.liveKey = nil, ""
	if len(m.pending[i].Proposals) > 0 && m.mode == modeNormal {
		m.openMode(modeProposal)
	}
	return tea.Batch(save, m.ensureLive())
}

func (m *model) onReviewKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.matches(msg, m.keys.Back):
		m.closeMode()
		return m.editLive()
	case m.matches(msg, m.keys.Confirm):
		r, ok := m.activeRequest()
		if !ok || m.live == nil {
			m.closeMode()
			return nil
		}
		if m.problems = m.replyProblems(); len(m.problems) > 0 {
			return nil // the review lists them; esc goes back to fix them
		}
		if m.submitting {
			return nil // a second enter while the first is on its way
		}
		m.submitting = true
		return submitAnswer(m.svc, r, m.live.Values())
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
	if m.live != nil {
		draft = m.live.Draft()
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
	switch {
	case m.matches(msg, k.ChatClose):
		m.closeMode()
	case m.matches(msg, k.ChatUp):
		m.chatSel = max(0, m.chatSel-1)
	case m.matches(msg, k.ChatDown):
		m.chatSel = max(0, min(len(m.chats)-1, m.chatSel+1))
	case m.matches(msg, k.ChatNew):
		m.switchChat("")
		m.chat, m.messages, m.run = nil, nil, nil
		m.requests = map[string]chat.RequestView{}
		m.tr.changed()
		m.refreshTranscript()
		m.layout()
	case m.matches(msg, k.Send):
		if m.chatSel >= 0 && m.chatSel < len(m.chats) {
			m.switchChat(m.chats[m.chatSel].ID)
			return m.load(m.chatID)
		}
	case m.matches(msg, k.ChatArchive):
		if m.chatSel >= 0 && m.chatSel < len(m.chats) {
			return lifecycleCmd(m.svc, m.chats[m.chatSel].ID, false)
		}
	case m.matches(msg, k.ChatDelete):
		if m.chatSel >= 0 && m.chatSel < len(m.chats) {
			id := m.chats[m.chatSel].ID
			if m.confirmDel != id {
				m.confirmDel = id
				return nil
			}
			m.confirmDel = ""
			if id == m.chatID {
				m.newChat, m.chatID, m.chat, m.messages, m.pending, m.run = true, "", nil, nil, nil, nil
				m.setStatus("", false) // it spoke of the chat now gone
				m.tr.changed()
				m.dropLive()
				m.refreshTranscript()
			}
			return lifecycleCmd(m.svc, id, true)
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
	m.pending, m.streaming, m.thinking = nil, "", false
	m.setStatus("", false)
	m.dropLive()
	m.composer.SetValue(m.unsent[chatID])
}

// fieldToFix is where going back from the review lands: the first field
// it found wrong, else the first required one still empty, else "" (where
// the submit left off).
func (m *model) fieldToFix() string {
	if len(m.problems) > 0 {
		return strings.TrimPrefix(m.problems[0].Path, "/values/")
	}
	if r, ok := m.activeRequest(); ok {
		if missing := forms.Missing(r.Definition, r.Supplied, mergeValues(r.Partial, m.live.Values())); len(missing) > 0 {
			return missing[0]
		}
	}
	return ""
}
