package ui

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
)

// Update implements tea.Model.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		if m.live != nil {
			m.live.SetWidth(m.formWidth())
			m.capFormHeight()
		}
		m.layout()
		return m, nil
	case tea.KeyMsg:
		m.lastKey = time.Now()
		return m.onKey(msg)
	case spinnerTick:
		return m, nil
	case snapshotMsg:
		return m, m.onSnapshot(msg)
	case eventMsg:
		return m, m.onEvent(chat.Event(msg))
	case sentMsg:
		if msg.err != nil {
			m.setStatus(errText(msg.err), true)
			return m, nil
		}
		m.chatID, m.newChat = msg.sent.ChatID, false
		m.driving = true
		return m, tea.Batch(loadChat(m.svc, m.chatID), driveRun(m.svc, msg.sent.RunID))
	case driveDoneMsg:
		m.driving, m.streaming = false, ""
		if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeRunBusy {
			m.setStatus(errText(msg.err), true)
		}
		return m, loadChat(m.svc, m.chatID)
	case answeredMsg:
		return m, m.onAnswered(msg)
	case cancelledMsg:
		if msg.err != nil {
			m.setStatus(errText(msg.err), true)
			return m, loadChat(m.svc, m.chatID)
		}
		m.setStatus("Question cancelled — the agent was told and goes on without it.", false)
		m.dropLive()
		m.driving = true
		return m, tea.Batch(loadChat(m.svc, m.chatID), driveRun(m.svc, msg.receipt.RunID))
	case stoppedMsg:
		if msg.err != nil {
			m.setStatus(errText(msg.err), true)
		} else {
			m.setStatus("Task stopped. Its open questions expired; the conversation stays.", false)
			m.dropLive()
		}
		return m, loadChat(m.svc, m.chatID)
	case decidedMsg:
		if msg.err != nil {
			m.setStatus(errText(msg.err), true)
		} else if msg.res.State == "accepted" {
			m.setStatus("Proposal accepted — review the form and submit when ready.", false)
			m.focusOnInstall = true // the user was just answering about this form
		} else {
			m.setStatus("Kept your values.", false)
		}
		m.dropLive()
		m.closeMode()
		return m, loadChat(m.svc, m.chatID)
	case olderMsg:
		return m, m.onOlder(msg)
	case elsewhereMsg:
		if msg.chatID == m.chatID {
			m.elsewhere = msg.n
		}
		return m, nil
	case draftLoadedMsg:
		return m, m.onDraftLoaded(msg)
	case draftSavedMsg:
		if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeTargetClosed && chat.CodeOf(msg.err) != chat.CodeStaleTarget {
			m.setStatus("draft not saved: "+errText(msg.err), true)
		}
		return m, nil
	case autosaveMsg:
		if msg.seq == m.draftSeq {
			return m, m.saveDraftNow()
		}
		return m, nil
	case focusTickMsg:
		return m, m.onFocusTick()
	case chatsMsg:
		if msg.err != nil {
			m.setStatus(errText(msg.err), true)
			return m, nil
		}
		m.chats = msg.chats
		if m.chatSel >= len(m.chats) {
			m.chatSel = max(0, len(m.chats)-1)
		}
		return m, nil
	case errMsg:
		m.setStatus(errText(msg.err), true)
		return m, nil
	}
	var cmds []tea.Cmd
	var cmd tea.Cmd
	m.spin, cmd = m.spin.Update(msg)
	cmds = append(cmds, cmd)
	if m.live != nil && m.mode == modeNormal {
		cmds = append(cmds, m.updateForm(msg))
	} else {
		m.composer, cmd = m.composer.Update(msg)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// spinnerTick is never sent; the spinner's own messages fall through.
type spinnerTick struct{}

func errText(err error) string {
	e := chat.AsError(err)
	if e.Code == chat.CodeInternal {
		return e.Message
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (m *model) onSnapshot(s snapshotMsg) tea.Cmd {
	if s.err != nil {
		m.setStatus(errText(s.err), true)
		return nil
	}
	if m.newChat || (m.chatID != "" && s.chatID != m.chatID) {
		return nil // a stale load for a chat we left
	}
	m.loaded = true
	m.chatID, m.chat, m.messages, m.requests, m.run, m.orphans = s.chatID, s.chat, s.messages, s.requests, s.run, s.orphans
	m.drafts = s.drafts
	m.tr.changed()
	seen := map[string]bool{}
	for _, r := range m.pending {
		seen[r.ID] = true
	}
	m.pending = s.pending
	appeared := false
	for _, r := range m.pending {
		if !seen[r.ID] {
			appeared = true
		}
	}
	if _, ok := m.activeRequest(); !ok {
		m.active = ""
		if len(m.pending) > 0 {
			m.active = m.pending[len(m.pending)-1].ID
		}
	}
	if m.target != "" && m.liveKeyOfActive() != m.target {
		m.mode, m.target = modeNormal, ""
		m.setStatus("That question changed or closed meanwhile; nothing was sent.", true)
	}
	m.refreshTranscript()
	cmds := []tea.Cmd{m.ensureLive(), countElsewhere(m.svc, m.chatID)}
	if appeared && m.focus == focusComposer && m.mode == modeNormal {
		m.wantFocus = true
		cmds = append(cmds, focusTick())
	}
	if r, ok := m.activeRequest(); ok && len(r.Proposals) > 0 && m.mode == modeNormal {
		m.openMode(modeProposal)
	}
	m.layout()
	return tea.Batch(cmds...)
}

func (m *model) onEvent(e chat.Event) tea.Cmd {
	if e.Kind == chat.EvChat && m.mode == modeChats {
		return listChats(m.svc)
	}
	if e.ChatID != "" && e.ChatID != m.chatID && !(m.chatID == "" && !m.newChat) {
		return nil
	}
	switch e.Kind {
	case chat.EvStream:
		if e.Reset {
			m.streaming = ""
		} else {
			m.streaming += e.Delta
		}
		m.refreshTranscript()
		return nil
	case chat.EvThinking:
		m.thinking = e.On
		return nil
	}
	return loadChat(m.svc, m.chatID)
}

// ensureLive installs the form of the active request, loading its draft.
func (m *model) ensureLive() tea.Cmd {
	r, ok := m.activeRequest()
	if !ok || m.archived() {
		m.dropLive()
		return nil
	}
	k := liveKey(r)
	if k == m.liveKey || k == m.loadingKey {
		return nil
	}
	m.loadingKey = k
	if d, ok := m.localDrafts[k]; ok {
		return m.onDraftLoaded(draftLoadedMsg{requestID: r.ID, revision: r.Revision, draft: d, found: true})
	}
	if d, ok := m.drafts[k]; ok {
		delete(m.drafts, k) // a draft read once; later installs read it fresh
		return m.onDraftLoaded(d)
	}
	return loadDraft(m.svc, r.ID, r.Revision)
}

func (m *model) onDraftLoaded(d draftLoadedMsg) tea.Cmd {
	r, ok := m.activeRequest()
	if !ok || r.ID != d.requestID || r.Revision != d.revision {
		return nil
	}
	draft := d.draft
	if len(r.Partial) > 0 && !d.found {
		draft = r.Partial
	}
	m.installLive(r, draft)
	return m.live.Form().Init()
}

func (m *model) installLive(r chat.RequestView, draft forms.Values) {
	m.live = forms.Build(r.Definition, r.Supplied, r.Prefill, draft, forms.BuildOptions{Width: m.formWidth()})
	m.capFormHeight()
	m.liveKey = liveKey(r)
	m.loadingKey = ""
	m.savedDraft = valuesKey(m.live.Draft())
	m.pendingDraft = m.savedDraft
	if m.focusOnInstall {
		m.focusOnInstall = false
		m.setFocus(focusForm)
	}
	m.layout()
}

// capFormHeight limits a form taller than its share of the screen; a
// shorter one keeps its own height (a fixed height would pad it).
func (m *model) capFormHeight() {
	if m.live != nil && lipgloss.Height(m.live.Form().View()) > m.formHeight() {
		m.live.Form().WithHeight(m.formHeight())
	}
}

// archived reports whether the open chat is read-only.
func (m *model) archived() bool { return m.chat != nil && m.chat.State == "archived" }

func (m *model) dropLive() {
	m.live, m.liveKey, m.loadingKey = nil, "", ""
	if m.focus == focusForm {
		m.setFocus(focusComposer)
	}
	if m.mode == modeReview || m.mode == modeProposal || m.mode == modeConfirmCancel {
		m.closeMode()
	}
}

func valuesKey(v forms.Values) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// updateForm forwards a message to the active form only (huh #278) and
// schedules an autosave when the draft changed.
func (m *model) updateForm(msg tea.Msg) tea.Cmd {
	_, cmd := m.live.Form().Update(msg)
	cmds := []tea.Cmd{cmd}
	// Debounce on changes only: cursor blinks also pass through here and
	// must not keep pushing the save back.
	if k := valuesKey(m.live.Draft()); k != m.savedDraft && k != m.pendingDraft {
		m.pendingDraft = k
		m.draftSeq++
		cmds = append(cmds, autosaveAfter(m.draftSeq))
	}
	switch m.live.Form().State {
	case huh.StateCompleted:
		m.problems = m.replyProblems()
		m.openMode(modeReview)
		cmds = append(cmds, m.saveDraftNow())
	case huh.StateAborted:
		m.rebuildLive()
		m.setFocus(focusComposer)
	}
	m.layout()
	return tea.Batch(cmds...)
}

// keepDraft remembers the active form's draft on this screen, so coming
// back to the question shows it even before the save lands.
func (m *model) keepDraft() {
	if m.live == nil || m.liveKey == "" {
		return
	}
	if m.localDrafts == nil {
		m.localDrafts = map[string]forms.Values{}
	}
	m.localDrafts[m.liveKey] = m.live.Draft()
}

// saveDraftNow saves the active form's draft off the UI goroutine.
func (m *model) saveDraftNow() tea.Cmd {
	if m.live == nil {
		return nil
	}
	r, ok := m.activeRequest()
	if !ok {
		return nil
	}
	d := m.live.Draft()
	k := valuesKey(d)
	if k == m.savedDraft {
		return nil
	}
	m.savedDraft = k
	m.keepDraft()
	return saveDraft(m.svc, chat.Draft{RequestID: r.ID, Revision: r.Revision, Values: d, Edited: m.live.Edited()})
}

// rebuildLive rebuilds the form from its current draft: a finished huh
// form ignores input (#319).
//
// replyProblems is everything wrong with the form's values, found before
// sending: number text that does not parse, and the host's own check.
func (m *model) replyProblems() []forms.Problem {
	r, ok := m.activeRequest()
	if !ok || m.live == nil {
		return nil
	}
	return append(m.live.Problems(), m.svc.CheckReply(r, mergeValues(r.Partial, m.live.Values()))...)
}

func (m *model) rebuildLive() {
	r, ok := m.activeRequest()
	if !ok || m.live == nil {
		return
	}
	m.installLive(r, m.live.Draft())
}

func (m *model) onAnswered(a answeredMsg) tea.Cmd {
	if a.err != nil {
		e := chat.AsError(a.err)
		if ps, ok := e.Details["problems"].([]forms.Problem); ok {
			m.problems = ps
			m.setStatus("The answer was not sent: fix the fields listed above the composer.", true)
		} else {
			m.setStatus(errText(a.err), true)
		}
		if e.Code == chat.CodeTargetClosed || e.Code == chat.CodeStaleTarget {
			m.closeMode()
			m.dropLive()
		} else {
			m.rebuildLive()
			m.closeMode()
		}
		return tea.Batch(loadChat(m.svc, m.chatID), m.liveInit())
	}
	m.closeMode()
	m.problems = nil
	if a.receipt.ApplyState == chat.Partial {
		r, _ := m.activeRequest()
		m.setStatus("Saved as a partial answer; still missing: "+labelsOf(r, a.receipt.Missing), false)
		m.rebuildLive()
		return tea.Batch(loadChat(m.svc, m.chatID), m.liveInit())
	}
	m.setStatus("Answer sent.", false)
	m.dropLive()
	m.driving = true
	return tea.Batch(loadChat(m.svc, m.chatID), driveRun(m.svc, a.receipt.RunID))
}

func (m *model) liveInit() tea.Cmd {
	if m.live == nil {
		return nil
	}
	return m.live.Form().Init()
}

func (m *model) onFocusTick() tea.Cmd {
	if !m.wantFocus {
		return nil
	}
	if m.live == nil || time.Since(m.lastKey) < focusPause {
		return focusTick()
	}
	m.wantFocus = false
	if m.focus == focusComposer && m.mode == modeNormal {
		m.setFocus(focusForm)
	}
	return nil
}

func (m *model) setFocus(f focusArea) {
	m.focus = f
	if f == focusComposer {
		m.composer.Focus()
	} else {
		m.composer.Blur()
	}
}

func (m *model) matches(msg tea.KeyMsg, b key.Binding) bool { return key.Matches(msg, b) }
