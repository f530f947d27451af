package ui

import (
	"context"
	"time"

	"followup/chat"
	"followup/forms"

	tea "github.com/charmbracelet/bubbletea"
)

// The form pane's drafts: what the screen keeps of each question's draft,
// and when it saves it.

// keep remembers the active form's draft on this screen, so coming back
// to the question shows it even before the save lands.
func (p *formPane) keep() {
	if p.live == nil || p.liveKey == "" {
		return
	}
	p.localDrafts[p.liveKey] = keptDraft{p.live.Draft(), p.live.Focused()}
}

// keptDraft is a form's draft as this screen left it, and the field the
// user was in.
type keptDraft struct {
	values forms.Values
	focus  string
}

// forget drops what this screen kept of a revision's draft: the store
// holds a newer one.
func (p *formPane) forget(key string) { delete(p.localDrafts, key) }

// saveNow saves the active form's draft off the UI goroutine.
func (p *formPane) saveNow() tea.Cmd {
	if p.live == nil {
		return nil
	}
	r, ok := p.activeRequest()
	if !ok {
		return nil
	}
	d := p.live.Draft()
	k := valuesKey(d)
	if k == p.savedDraft {
		return nil
	}
	p.savedDraft = k
	p.keep()
	key := liveKey(r)
	p.sync.asked(key, d)
	draft := chat.Draft{RequestID: r.ID, Revision: r.Revision, Values: d, Edited: p.live.Edited(), Focus: p.live.Focused()}
	svc, stored := p.svc, p.sync.of(key)
	done := p.saver.put("form:"+key, func(ctx context.Context) error { return stored.save(ctx, svc, draft) })
	return savedCmd(done, func(err error) tea.Msg { return draftSavedMsg{key, err} })
}

// autosave saves the draft once the user has paused editing for
// autosaveDelay; an edit since the timer started waits for its own pause.
func (p *formPane) autosave() tea.Cmd {
	p.saveTimer = false
	if wait := time.Until(p.saveDue); wait > 0 {
		p.saveTimer = true
		return autosaveAfter(wait)
	}
	return p.saveNow()
}
