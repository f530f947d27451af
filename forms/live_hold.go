package forms

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// holdFor bounds how long keys wait for a focus move to land.
const holdFor = 60 * time.Millisecond

// huh moves focus with a message its field sends back after a tab, shift+tab
// or enter, so keys read in the same burst (pasted text, fast typing) would
// reach the field being left. Live holds the keys that arrive before the
// move lands and replays them on the field it lands on; when no move comes
// (shift+tab on the first field) they are replayed when the hold's own
// release message comes back, however late a loaded machine delivers it:
// it reaches the form only while the screen passes messages to it. Keys
// held across a submit, or long past holdFor with no release seen (the
// screen stopped passing messages to the form meanwhile), are dropped:
// they must not change an answer under review.
type hold struct {
	on    bool
	from  huh.Field // the field focused when the move key arrived
	until time.Time
	seq   int
	keys  []tea.KeyMsg
}

// releaseMsg ends a hold that no focus move ended.
type releaseMsg struct{ seq int }

// movesFocus reports whether a key sent to the focused field may move the
// focus: tab, shift+tab and enter, in every field (a textarea's new line
// is alt+enter or ctrl+j).
func (l *Live) movesFocus(k tea.KeyMsg) bool {
	switch k.Type {
	case tea.KeyTab, tea.KeyShiftTab, tea.KeyEnter:
		return true
	}
	return false
}

// holding takes msg when it belongs to a hold: a key held, or the hold's
// end. It returns whether msg was taken and what to run.
func (l *Live) holding(msg tea.Msg) (bool, tea.Cmd) {
	if r, ok := msg.(releaseMsg); ok {
		if l.hold.on && r.seq == l.hold.seq {
			return true, l.release(true)
		}
		return true, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok || !l.hold.on {
		return false, nil
	}
	if now := time.Now(); now.After(l.hold.until) {
		// The release message has not come: stop holding.
		return false, l.release(now.Before(l.hold.until.Add(holdFor)))
	}
	l.hold.keys = append(l.hold.keys, k)
	return true, nil
}

// startHold holds the keys that follow a move key until the focus moves.
func (l *Live) startHold(from huh.Field) tea.Cmd {
	l.hold.seq++
	seq := l.hold.seq
	l.hold.on, l.hold.from, l.hold.until, l.hold.keys = true, from, time.Now().Add(holdFor), nil
	return tea.Tick(holdFor, func(time.Time) tea.Msg { return releaseMsg{seq} })
}

// landed ends the hold once the focus has moved, replaying the held keys.
func (l *Live) landed() tea.Cmd {
	if l.hold.on && l.form.GetFocusedField() != l.hold.from {
		return l.release(time.Now().Before(l.hold.until.Add(holdFor)))
	}
	return nil
}

// release ends the hold, replaying the held keys when replay holds and
// the form still takes input.
func (l *Live) release(replay bool) tea.Cmd {
	keys := l.hold.keys
	l.hold.on, l.hold.from, l.hold.keys = false, nil, nil
	if !replay || l.form.State != huh.StateNormal {
		return nil
	}
	cmds := make([]tea.Cmd, 0, len(keys))
	for _, k := range keys {
		cmds = append(cmds, l.Update(k))
	}
	return tea.Batch(cmds...)
}
