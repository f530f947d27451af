package ui

import (
	"time"

	"followup/ui/dialog"

	tea "github.com/charmbracelet/bubbletea"
)

// A decision ends what the keys typed with it meant. The dialog a decision
// key (send, accept, keep mine, allow, deny, done, cancel, stop) was typed
// at goes, and the form or the dialog that takes its place must not take
// the keys typed right after it: "ack" typed at a proposal accepts it with
// "a" and must not move the form's select with "k". So the keys that
// follow a decision in the same burst — each less than burstGap after the
// one before — are dropped, as they are after a submitting enter (docs/behaviour.md),
// unless the composer has the focus: text there decides nothing and
// stays in sight, so nothing typed is lost. The screen's own chords (quit,
// help, ctrl+f, …) act and end the burst: nobody types them as text.

// burstGap is the pause that ends a burst of typing: the one the focus
// rule waits for.
const burstGap = focusPause

// afterDecision drops the rest of the burst when a is a decision.
func (m *model) afterDecision(a dialog.Action) {
	if dialog.Decides(a) {
		m.moves.muted = true
	}
}

// dropsKey reports whether msg, typed at now, belongs to the burst of a
// decision (prev is when the key before it came).
func (m *model) dropsKey(msg tea.KeyMsg, prev, now time.Time) bool {
	if !m.moves.muted {
		return false
	}
	if now.Sub(prev) >= burstGap || m.isScreenKey(msg) {
		m.moves.muted = false
		return false
	}
	return m.focus != focusComposer
}
