// Package dialog is the screen's dialogs and their stack: the review, a
// confirmation, a proposal, an approval, a link to visit, a card of a
// question closed elsewhere, help and other pages, the MCP servers and
// the chat list. A dialog is a value; it never reaches into the root: its
// Update returns the dialog as it is now and an Action, which the root
// carries out.
//
// Adding a dialog is a new file here with its type, plus one place in the
// root that opens it: a key, or an entry in its arrivals for one that
// arrives by itself. The focus rule is the root's, not each dialog's: a
// dialog is given keys only while it has the focus.
package dialog

import tea "github.com/charmbracelet/bubbletea"

// A Dialog is one value on the stack.
type Dialog interface {
	// Update takes a key while the dialog has the focus, or a message
	// every dialog hears (Size, Question, ChatsRead, …); it ignores what
	// is not for it. A key it does not take returns Pass.
	Update(msg tea.Msg) (Dialog, Action)
	// View draws the dialog in a box of width×height, as focused or
	// waiting for the focus. It only reads.
	View(width, height int, focused bool) string
	// About names the question revision (Question.Key) the dialog is
	// about, "" when none. A dialog about a question closes when that
	// question changes or closes underneath it, so it can never act on
	// another.
	About() string
	// FullScreen: the dialog takes the whole screen (help, chats) and
	// every key, instead of the pane above the composer.
	FullScreen() bool
}

// Waiter is a dialog that arrives by itself: while the user types in the
// form below it, it waits as one line above the form.
type Waiter interface{ Waiting() string }

// Size gives the dialogs the size of the box they are drawn in.
type Size struct{ Width, Height int }

// Entry is a dialog on the stack and how it got there.
type Entry struct {
	D Dialog
	// Arrived: it came by itself (a proposal), not from the user's key;
	// it takes the focus by the focus rule.
	Arrived bool
	From    int // where the focus was when it opened (the root's focus area)
}

// Stack holds the open dialogs, the top one last.
type Stack struct{ items []Entry }

func (s *Stack) Empty() bool { return len(s.items) == 0 }

func (s *Stack) Push(e Entry) { s.items = append(s.items, e) }

// Top is the dialog on top.
func (s *Stack) Top() (Entry, bool) {
	if len(s.items) == 0 {
		return Entry{}, false
	}
	return s.items[len(s.items)-1], true
}

// Pop closes the top dialog.
func (s *Stack) Pop() []Entry {
	if len(s.items) == 0 {
		return nil
	}
	e := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return []Entry{e}
}

// Clear closes every dialog.
func (s *Stack) Clear() { s.items = nil }

// DropAbout closes the dialogs about a question other than keep ("":
// every one about a question) and returns them.
func (s *Stack) DropAbout(keep string) []Entry {
	var closed []Entry
	kept := make([]Entry, 0, len(s.items))
	for _, e := range s.items {
		if k := e.D.About(); k != "" && k != keep {
			closed = append(closed, e)
		} else {
			kept = append(kept, e)
		}
	}
	s.items = kept
	return closed
}

// UpdateTop gives msg to the top dialog and keeps what it became.
func (s *Stack) UpdateTop(msg tea.Msg) Action {
	top := &s.items[len(s.items)-1]
	var a Action
	top.D, a = top.D.Update(msg)
	return a
}

// Broadcast gives msg to every dialog, bottom first. A dialog that asks
// to close is closed; the other actions and the closed dialogs are
// returned.
func (s *Stack) Broadcast(msg tea.Msg) (acts []Action, closed []Entry) {
	kept := make([]Entry, 0, len(s.items))
	for _, e := range s.items {
		d, a := e.D.Update(msg)
		e.D = d
		if _, ok := a.(Close); ok {
			closed = append(closed, e)
			continue
		}
		kept = append(kept, e)
		if a != nil {
			acts = append(acts, a)
		}
	}
	s.items = kept
	return acts, closed
}

// Resize tells every dialog the box it is drawn in now.
func (s *Stack) Resize(size func(Dialog) Size) {
	for i, e := range s.items {
		s.items[i].D, _ = e.D.Update(size(e.D))
	}
}

// Screen is the top dialog when it takes the whole screen.
func (s *Stack) Screen() (Dialog, bool) {
	if e, ok := s.Top(); ok && e.D.FullScreen() {
		return e.D, true
	}
	return nil, false
}

// Pane is the top dialog when it is drawn in the pane.
func (s *Stack) Pane() (Entry, bool) {
	if e, ok := s.Top(); ok && !e.D.FullScreen() {
		return e, true
	}
	return Entry{}, false
}

// Find is the topmost open dialog of type T.
func Find[T Dialog](s *Stack) (T, bool) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if d, ok := s.items[i].D.(T); ok {
			return d, true
		}
	}
	var zero T
	return zero, false
}
