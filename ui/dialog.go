package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// A dialog is a value on the screen's stack: the review, a confirmation,
// a proposal, help, the chat list. The top one takes keys first. It
// never reaches into the root: update returns the dialog as it is now
// and an action, which the root carries out (do, in actions.go).
//
// Adding a dialog is a new file with its type, plus one place that opens
// it: a key in onKey, or an entry in arrivals for one that arrives by
// itself with a question (a proposal).
type dialog interface {
	// update takes a key, or a message every dialog hears (sizeMsg,
	// questionMsg, chatsMsg); it ignores what is not for it.
	update(msg tea.Msg) (dialog, action)
	// view draws the dialog in a box of width×height. It only reads.
	view(width, height int) string
	// about names the question revision (liveKey) the dialog is about, ""
	// when none. A dialog about a question closes when that question
	// changes or closes underneath it, so it can never act on another.
	about() string
	// fullScreen: the dialog takes the whole screen (help, chats) instead
	// of the pane above the composer.
	fullScreen() bool
}

// dialogGrace is how long a dialog that arrived by itself ignores keys,
// so typing meant for the composer cannot answer a question that just
// appeared.
const dialogGrace = 400 * time.Millisecond

// sizeMsg gives the dialogs the size of the box they are drawn in.
type sizeMsg struct{ width, height int }

// openDialog is a dialog on the stack and how it got there.
type openDialog struct {
	d     dialog
	since time.Time
	// arrived: it came by itself (a proposal), not from the user's key;
	// it takes keys only once the user could have seen it (settled).
	arrived bool
}

// dialogStack holds the open dialogs, the top one last.
type dialogStack struct{ items []openDialog }

func (s *dialogStack) empty() bool { return len(s.items) == 0 }

// push opens d on top.
func (s *dialogStack) push(d dialog, now time.Time, arrived bool) {
	s.items = append(s.items, openDialog{d: d, since: now, arrived: arrived})
}

// top is the dialog on top.
func (s *dialogStack) top() (openDialog, bool) {
	if len(s.items) == 0 {
		return openDialog{}, false
	}
	return s.items[len(s.items)-1], true
}

// replaceTop puts the top dialog's new value in its place.
func (s *dialogStack) replaceTop(d dialog) { s.items[len(s.items)-1].d = d }

// pop closes the top dialog.
func (s *dialogStack) pop() {
	if len(s.items) > 0 {
		s.items = s.items[:len(s.items)-1]
	}
}

// clear closes every dialog.
func (s *dialogStack) clear() { s.items = nil }

// dropAbout closes the dialogs about a question other than keep ("":
// every one about a question) and reports whether it closed any.
func (s *dialogStack) dropAbout(keep string) bool {
	kept := s.items[:0]
	dropped := false
	for _, o := range s.items {
		if k := o.d.about(); k != "" && k != keep {
			dropped = true
			continue
		}
		kept = append(kept, o)
	}
	s.items = kept
	return dropped
}

// broadcast gives msg to every dialog, bottom first. A dialog that asks
// to close is closed; the other actions are returned.
func (s *dialogStack) broadcast(msg tea.Msg) []action {
	var acts []action
	kept := s.items[:0]
	for _, o := range s.items {
		d, a := o.d.update(msg)
		if _, ok := a.(closeAct); ok {
			continue
		}
		o.d = d
		kept = append(kept, o)
		if a != nil {
			acts = append(acts, a)
		}
	}
	s.items = kept
	return acts
}

// screen is the top dialog when it takes the whole screen.
func (s *dialogStack) screen() (dialog, bool) {
	if o, ok := s.top(); ok && o.d.fullScreen() {
		return o.d, true
	}
	return nil, false
}

// pane is the top dialog when it is drawn in the pane.
func (s *dialogStack) pane() (dialog, bool) {
	if o, ok := s.top(); ok && !o.d.fullScreen() {
		return o.d, true
	}
	return nil, false
}

// find is the topmost open dialog of type T.
func find[T dialog](s *dialogStack) (T, bool) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if d, ok := s.items[i].d.(T); ok {
			return d, true
		}
	}
	var zero T
	return zero, false
}

// sizeDialogs tells every dialog the box it is drawn in now.
func (m *model) sizeDialogs() {
	for i, o := range m.dialogs.items {
		m.dialogs.items[i].d, _ = o.d.update(m.dialogSize(o.d))
	}
}
