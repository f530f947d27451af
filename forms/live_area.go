package forms

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// A textarea is huh's Text, which edits and draws runes. Two things keep
// it honest:
//
//   - it holds the text as drawn (each grapheme cluster through the
//     sanitiser), while the slot keeps the text as typed or loaded: an
//     edit is mapped back cluster by cluster (areaAccess, DrawnText), so a prefill's
//     skin tone or a draft's bidi control is kept, drawn safely;
//   - backspace and delete take a whole cluster: when huh's rune-wise
//     delete leaves part of one, the rest of it is deleted too (areaKeys).
//
// What huh draws for a cursor standing inside a cluster (a ZWJ emoji, a
// flag) stays its own: the line may then look a few cells short, never long.

// areaAccess hands huh the text as drawn and maps its writes back.
type areaAccess struct{ s *slot }

func (a areaAccess) Get() string {
	a.s.area = SplitDrawn(a.s.text)
	return a.s.area.Drawn()
}

func (a areaAccess) Set(v string) {
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

// areaKeys runs around each key huh's Text receives: typed text goes in as
// it is drawn (remembered as typed), and a delete that leaves part of a
// cluster takes the rest of it.
func (s *slot) areaKeys(k tea.KeyMsg, forward func(tea.Msg) tea.Cmd) tea.Cmd {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		s.typed = string(k.Runes)
		k.Runes = []rune(DrawTyped(s.typed))
		cmd := forward(k)
		s.typed = ""
		return cmd
	case tea.KeyBackspace, tea.KeyDelete, tea.KeyCtrlH, tea.KeyCtrlD:
		before := s.area
		cmd := forward(k)
		back, ahead := before.Rest(s.area.Drawn())
		cmds := []tea.Cmd{cmd}
		for range back {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyBackspace}))
		}
		for range ahead {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyDelete}))
		}
		return tea.Batch(cmds...)
	}
	return forward(k)
}

func textareaWidget(s *slot) huh.Field {
	t := huh.NewText()
	t.WithTheme(s.theme)
	t.ExternalEditor(s.live.editor)
	t.Key(s.f.Name).Title(s.label()).Lines(4).CharLimit(s.charLimit()).
		Placeholder(SanitizeLine(s.f.Placeholder)).
		Validate(func(string) error { s.confirmed(); return nil })
	t.Accessor(areaAccess{s})
	a := &sizedArea{Text: t, s: s}
	s.setTitle = func(v string) { a.title = v; a.fit() }
	s.setDesc = func(about, hint string) { a.about, a.hint = about, hint; a.fit() }
	s.field, s.resync = a, func() { t.Accessor(areaAccess{s}) }
	s.keys = s.areaKeys
	return a
}
