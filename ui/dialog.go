package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// A dialog is a value on the screen's stack: the review, a confirmation,
// a proposal, help, the chat list. It never reaches into the root: update
// returns the dialog as it is now and an action, which the root carries
// out (do, in actions.go).
//
// Adding a dialog is a new file with its type, plus one place that opens
// it: a key in onKey, or an entry in arrivals (question.go) for one that
// arrives by itself. The focus rule (focus.go) is the stack's, not each
// dialog's: a dialog is given keys only while it has the focus.
type dialog interface {
	// update takes a key while the dialog has the focus, or a message
	// every dialog hears (sizeMsg, questionMsg, chatsMsg); it ignores what
	// is not for it. A key it does not take returns passAct.
	update(msg tea.Msg) (dialog, action)
	// view draws the dialog in a box of width×height, as focused or
	// waiting for the focus. It only reads.
	view(width, height int, focused bool) string
	// about names the question revision (liveKey) the dialog is about, ""
	// when none. A dialog about a question closes when that question
	// changes or closes underneath it, so it can never act on another.
	about() string
	// fullScreen: the dialog takes the whole screen (help, chats) and
	// every key, instead of the pane above the composer.
	fullScreen() bool
}

// waiter is a dialog that arrives by itself: while the user types in the
// form below it, it waits as one line above the form.
type waiter interface{ waiting() string }

// sizeMsg gives the dialogs the size of the box they are drawn in.
type sizeMsg struct{ width, height int }

// openDialog is a dialog on the stack and how it got there.
type openDialog struct {
	d dialog
	// arrived: it came by itself (a proposal), not from the user's key;
	// it takes the focus by the focus rule.
	arrived bool
	from    focusArea // where the focus was when it opened
}

// dialogStack holds the open dialogs, the top one last.
type dialogStack struct{ items []openDialog }

func (s *dialogStack) empty() bool { return len(s.items) == 0 }

func (s *dialogStack) push(o openDialog) { s.items = append(s.items, o) }

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
func (s *dialogStack) pop() []openDialog {
	if len(s.items) == 0 {
		return nil
	}
	o := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return []openDialog{o}
}

// clear closes every dialog.
func (s *dialogStack) clear() []openDialog {
	closed := s.items
	s.items = nil
	return closed
}

// dropAbout closes the dialogs about a question other than keep ("":
// every one about a question) and returns them.
func (s *dialogStack) dropAbout(keep string) []openDialog {
	return s.remove(func(o openDialog) bool { k := o.d.about(); return k != "" && k != keep })
}

// remove closes the dialogs gone says are gone and returns them.
func (s *dialogStack) remove(gone func(openDialog) bool) []openDialog {
	var closed []openDialog
	kept := make([]openDialog, 0, len(s.items))
	for _, o := range s.items {
		if gone(o) {
			closed = append(closed, o)
		} else {
			kept = append(kept, o)
		}
	}
	s.items = kept
	return closed
}

// broadcast gives msg to every dialog, bottom first. A dialog that asks
// to close is closed; the other actions and the closed dialogs are
// returned.
func (s *dialogStack) broadcast(msg tea.Msg) (acts []action, closed []openDialog) {
	kept := make([]openDialog, 0, len(s.items))
	for _, o := range s.items {
		d, a := o.d.update(msg)
		o.d = d
		if _, ok := a.(closeAct); ok {
			closed = append(closed, o)
			continue
		}
		kept = append(kept, o)
		if a != nil {
			acts = append(acts, a)
		}
	}
	s.items = kept
	return acts, closed
}

// screen is the top dialog when it takes the whole screen.
func (s *dialogStack) screen() (dialog, bool) {
	if o, ok := s.top(); ok && o.d.fullScreen() {
		return o.d, true
	}
	return nil, false
}

// pane is the top dialog when it is drawn in the pane.
func (s *dialogStack) pane() (openDialog, bool) {
	if o, ok := s.top(); ok && !o.d.fullScreen() {
		return o, true
	}
	return openDialog{}, false
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
