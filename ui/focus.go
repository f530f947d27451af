package ui

import (
	"time"

	"followup/ui/dialog"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The focus rule (docs/behaviour.md): no key typed for the composer ever decides
// anything. A newcomer — a form that appeared, or a dialog that arrived by
// itself (a proposal) — takes the focus only when the composer is empty
// and the user has paused typing for focusPause; until then it waits,
// drawn unfocused with a ctrl+f hint, and what is typed stays where it
// was typed. A key typed within dialogGrace of the focus moving by itself
// was meant for where the user was: it goes there, and the newcomer waits
// again (a form only takes text, so it needs no such grace). Decision keys
// act only in the dialog that has the focus.
//
// The pause is counted from the last key, and before the first key from
// the moment a newcomer first waited. A question already waiting when its
// chat opens (at start-up, or switched to) is no newcomer: its form has
// the focus from the first frame that shows it, and keys typed before
// that frame go to it. Where the focus goes back to the
// pane after the user's own choice there (a refused answer, an accepted
// proposal's form), keys typed in the composer meanwhile stay there and
// the form waits (backToForm).

type focusArea int

const (
	focusComposer focusArea = iota
	focusForm
	focusDialog // the dialog on top of the pane
)

// focusMoves is what the focus rule needs to move the focus by itself.
type focusMoves struct {
	onInstall time.Time // when a decision, or its chat opening, asked for the next form installed to be focused
	lastKey   time.Time // when the user last typed (or when a newcomer first waited)
	waiting   bool      // a newcomer waits for the focus
	seq       int       // the focus check on its way
	ticking   bool      // its focusTickMsg has not come yet: a key need not start another
	at        time.Time // when the focus last moved by itself
	from      focusArea // and from where
	muted     bool      // the rest of a decision's burst of keys is dropped (burst.go)
}

// focusPause is how long the user must pause typing, with the composer
// empty, before a newcomer takes the focus.
const focusPause = 500 * time.Millisecond

// dialogGrace is how long after the focus moved by itself to a dialog a
// key is still taken as meant for where the user was typing.
const dialogGrace = 400 * time.Millisecond

// focusTickMsg asks whether a waiting newcomer may take the focus now.
type focusTickMsg struct{ seq int }

// setFocus moves the focus where the user (or the root for them) chose.
func (m *model) setFocus(f focusArea) {
	m.focus = f
	m.moves.at = time.Time{}
	if f == focusComposer {
		m.composer.Focus()
	} else {
		m.composer.Blur()
	}
	m.showFormFocus()
}

// showFormFocus draws the form focused only while keys go to it: without
// colour, its focus border and cursor are how the user tells.
func (m *model) showFormFocus() {
	if m.pane.live != nil {
		m.pane.live.SetFocused(m.focus == focusForm)
	}
}

// awaitFocus marks a newcomer waiting for the focus.
func (m *model) awaitFocus() tea.Cmd {
	if m.moves.lastKey.IsZero() {
		m.moves.lastKey = m.now() // no key seen yet: that is no pause seen either
	}
	m.moves.waiting = true
	return m.focusCheck()
}

// focusCheck asks again when the user will have paused long enough; an
// earlier check still on its way is ignored.
func (m *model) focusCheck() tea.Cmd {
	m.moves.seq++
	seq := m.moves.seq
	m.moves.ticking = true
	wait := max(0, focusPause-m.pausedFor())
	return tea.Tick(wait, func(time.Time) tea.Msg { return focusTickMsg{seq} })
}

// A focusTickMsg moves the focus to the waiting newcomer if the user has
// paused with the composer empty. With text in the composer it waits for
// the next key to ask again.
func (msg focusTickMsg) apply(m *model) tea.Cmd {
	if msg.seq == m.moves.seq {
		m.moves.ticking = false
	}
	if !m.moves.waiting || msg.seq != m.moves.seq {
		return nil
	}
	if m.pausedFor() < focusPause {
		return m.focusCheck()
	}
	if m.composer.Value() != "" {
		return nil
	}
	to, ok := m.newcomer()
	if !ok {
		return nil // its form is still loading: installing it asks again
	}
	m.moves.waiting = false
	from := m.focus
	m.setFocus(to)
	if to == focusDialog {
		// A decision waits behind a moment's grace; a form only takes text.
		m.moves.at, m.moves.from = m.now(), from
	}
	return nil
}

// pausedFor is how long the user has not typed: since the last key (or
// the first wait, before any key).
func (m *model) pausedFor() time.Duration { return m.now().Sub(m.moves.lastKey) }

// backToForm puts the focus back in the form the user was working in (an
// accepted proposal's form installed, an answer refused), unless they are
// in the composer and typed there after since: keys typed there are the
// composer's, so the form waits for the focus by the rule instead.
func (m *model) backToForm(since time.Time) tea.Cmd {
	if m.focus == focusComposer && m.moves.lastKey.After(since) {
		return m.awaitFocus()
	}
	m.setFocus(focusForm)
	return nil
}

// newcomer is where a waiting newcomer is: a dialog that arrived on top
// of the pane, else the form.
func (m *model) newcomer() (focusArea, bool) {
	if o, ok := m.dialogs.Top(); ok && !o.D.FullScreen() && !m.quietCard() {
		if o.Arrived && m.focus != focusDialog {
			return focusDialog, true
		}
		return 0, false
	}
	if m.pane.live != nil && m.focus == focusComposer {
		return focusForm, true
	}
	return 0, false
}

// strayKey puts the focus back where the user was typing when msg comes
// an instant after the focus moved by itself to a dialog, and reports
// whether it did: the key was meant for there.
func (m *model) strayKey(msg tea.KeyMsg) bool {
	if m.moves.at.IsZero() || m.now().Sub(m.moves.at) >= dialogGrace || m.isScreenKey(msg) {
		return false
	}
	m.setFocus(m.moves.from)
	m.moves.waiting = true
	return true
}

// isScreenKey reports whether msg is one of the screen's own keys, which
// the user means wherever the focus is.
func (m *model) isScreenKey(msg tea.KeyMsg) bool {
	k := m.keys
	for _, b := range []key.Binding{k.Quit, k.Help, k.Chats, k.ScrollUp, k.ScrollDown, k.StopTask, k.Resend,
		k.ToolRows, k.Servers, k.Skills, k.Focus, k.NextReq, k.PrevReq, k.CancelReq} {
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// toggleFocus is ctrl+f: from the composer to the pane (its dialog, else
// the form), from the pane back to the composer; from a form with a
// dialog waiting above it, to that dialog.
func (m *model) toggleFocus() tea.Cmd {
	m.moves.waiting = false
	_, hasDialog := m.dialogs.Pane()
	switch {
	case m.focus == focusComposer && hasDialog && !m.quietCard():
		m.setFocus(focusDialog)
	case m.focus == focusComposer && m.pane.live != nil:
		m.setFocus(focusForm)
	case m.focus == focusForm && hasDialog:
		m.setFocus(focusDialog)
		return m.pane.saveNow()
	case m.focus == focusForm:
		m.setFocus(focusComposer)
		return m.pane.saveNow()
	default:
		m.setFocus(focusComposer)
	}
	return nil
}

// refocus puts the focus somewhere that exists after dialogs closed: where
// the first closed one took it from, when that is still on screen.
func (m *model) refocus(closed []dialog.Entry) {
	if len(closed) == 0 || m.focus != focusDialog {
		return
	}
	to := focusArea(closed[0].From)
	switch {
	case to == focusDialog && m.hasPaneDialog():
	case to == focusForm && m.pane.live != nil:
	default:
		to = focusComposer
	}
	m.setFocus(to)
}

func (m *model) hasPaneDialog() bool { _, ok := m.dialogs.Pane(); return ok }
