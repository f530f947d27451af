package ui

// The active question's form: installing it from its draft, forwarding
// messages to it, and saving what the user typed.

import (
	"cmp"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"followup/chat"
	"followup/forms"
)

// ensureLive installs the form of the active request, loading its draft.
func (m *model) ensureLive() tea.Cmd {
	r, ok := m.activeRequest()
	if !ok || m.archived() {
		m.dropLive()
		return nil
	}
	k := liveKey(r)
	if k == m.liveKey {
		m.built = nil // a load built it again: the one on screen stays
		return nil
	}
	if k == m.loadingKey {
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
	draft := draftFor(r, d.draft, d.found)
	if b := m.built; b != nil && b.key == liveKey(r) && b.width == m.formWidth() && b.height == m.formHeight() &&
		valuesKey(b.draft) == valuesKey(draft) {
		m.setLive(r, b.live) // built by the load, off this goroutine
	} else {
		m.installLive(r, draft)
	}
	m.built = nil
	m.savedDraft = valuesKey(m.live.Draft()) // this is what the store holds
	m.pendingDraft = m.savedDraft
	return m.live.Form().Init()
}

func (m *model) installLive(r chat.RequestView, draft forms.Values) {
	m.setLive(r, buildLive(r, draft, m.formWidth(), m.formHeight()))
}

// setLive puts a form built for r on screen.
func (m *model) setLive(r chat.RequestView, l *forms.Live) {
	m.live = l
	m.liveKey = liveKey(r)
	m.loadingKey = ""
	if m.focusOnInstall {
		m.focusOnInstall = false
		m.setFocus(focusForm)
	}
	m.layout()
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

// updateForm forwards a message to the active form only (huh #278) and
// schedules an autosave when the draft changed.
func (m *model) updateForm(msg tea.Msg) tea.Cmd {
	cmd := m.live.Update(msg)
	cmds := []tea.Cmd{cmd}
	// Debounce on changes only: cursor blinks also pass through here and
	// must not keep pushing the save back.
	if k := valuesKey(m.live.Draft()); k != m.savedDraft && k != m.pendingDraft {
		m.pendingDraft = k
		m.draftSeq++
		cmds = append(cmds, autosaveAfter(m.draftSeq))
	}
	if len(m.problems) > 0 {
		m.problems = m.replyProblems() // the list shrinks as the user fixes it
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

// replyProblems is everything wrong with the form's values, found before
// sending: number text that does not parse, and the host's own check.
func (m *model) replyProblems() []forms.Problem {
	r, ok := m.activeRequest()
	if !ok || m.live == nil {
		return nil
	}
	ps := append(m.live.Problems(), m.svc.CheckReply(r, mergeValues(r.Partial, m.live.Values()))...)
	// In the order the form asks.
	order := map[string]int{}
	for i, f := range r.Fields {
		order["/values/"+f.Name] = i + 1
	}
	slices.SortStableFunc(ps, func(a, b forms.Problem) int { return cmp.Compare(order[a.Path], order[b.Path]) })
	return ps
}

// rebuildLive builds the form again from its current draft (after huh
// aborted it).
func (m *model) rebuildLive() {
	r, ok := m.activeRequest()
	if !ok || m.live == nil {
		return
	}
	// The rebuilt form shows the same draft; whether it is saved yet is
	// unchanged, so a scheduled autosave still happens.
	m.installLive(r, m.live.Draft())
}

// editLive shows the form again, its page built afresh (a finished huh
// form ignores input, #319), on the field that needs the user.
func (m *model) editLive() tea.Cmd {
	if m.live == nil {
		return nil
	}
	return m.live.Edit(m.fieldToFix())
}
