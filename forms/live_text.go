package forms

import (
	tea "github.com/charmbracelet/bubbletea"
)

// Typed fields (text, number, integer: huh's Input; textarea: huh's Text)
// edit and draw runes. Two things keep them honest:
//
//   - the widget holds the text as drawn (each grapheme cluster through the
//     sanitiser), while the slot keeps the text as typed or loaded: an
//     edit is mapped back cluster by cluster (drawnAccess, DrawnText), so a
//     prefill's skin tone or a draft's bidi control is kept, drawn safely;
//   - backspace and delete take a whole cluster: when the widget's
//     rune-wise delete leaves part of one, the rest of it is deleted too
//     (typeKey).

// drawnAccess hands huh the text as drawn and maps its writes back.
type drawnAccess struct{ s *slot }

func (a drawnAccess) Get() string {
	a.s.area = SplitDrawn(a.s.text)
	return a.s.area.Drawn()
}

func (a drawnAccess) Set(v string) {
	if v == a.s.area.Drawn() {
		return
	}
	text := a.s.area.Edit(v, a.s.typed)
	a.s.area = SplitDrawn(text)
	if a.s.area.Drawn() != v {
		a.s.redraw = true // the widget holds something not drawable as it is
	}
	textAccess{a.s}.Set(text)
}

// typeKey sends a key to the form, the focused field being typed: typed
// text goes in as it is drawn (remembered as typed), and a delete that
// leaves part of a cluster takes the rest of it. Typing into a field that
// still shows a suggestion replaces the suggestion, as typing over a
// selected default does, instead of appending to it.
func (s *slot) typeKey(k tea.KeyMsg, forward func(tea.Msg) tea.Cmd) tea.Cmd {
	var cmds []tea.Cmd
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		if s.suggested {
			s.quiet = true // clearing is not yet the user's edit
			s.text = ""
			s.resync()
			s.quiet = false
		}
		s.typed = string(k.Runes)
		k.Runes = []rune(DrawTyped(s.typed))
		cmds = append(cmds, forward(k))
		s.typed = ""
	case tea.KeyBackspace, tea.KeyDelete, tea.KeyCtrlH, tea.KeyCtrlD:
		before := s.area
		cmds = append(cmds, forward(k))
		back, ahead := before.Rest(s.area.Drawn())
		for range back {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyBackspace}))
		}
		for range ahead {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyDelete}))
		}
	default:
		cmds = append(cmds, forward(k))
	}
	if s.redraw {
		s.redraw = false
		s.quiet = true
		s.resync()
		s.quiet = false
	}
	return tea.Batch(cmds...)
}
