package forms

import (
	"errors"
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// fieldFrame is what this package's own huh fields (lineInput, list,
// yesNo) share: the slot they edit, the focus, the size and theme huh
// gives them, and the huh.Field methods that answer alike for all of them.
// The methods that return the field itself stay each field's own.
type fieldFrame struct {
	s       *slot
	focused bool
	width   int
	height  int // 0: unbounded
	theme   *huh.Theme
}

func (f *fieldFrame) styles() *huh.FieldStyles {
	if f.focused {
		return &f.theme.Focused
	}
	return &f.theme.Blurred
}

// keepTheme takes huh's theme unless the slot gave the field its own.
func (f *fieldFrame) keepTheme(t *huh.Theme) {
	if f.theme == nil {
		f.theme = t
	}
}

func (f *fieldFrame) Init() tea.Cmd  { return nil }
func (f *fieldFrame) Error() error   { return nil }
func (f *fieldFrame) Skip() bool     { return false }
func (f *fieldFrame) Zoom() bool     { return false }
func (f *fieldFrame) GetKey() string { return f.s.f.Name }

// Run and RunAccessible: the field is drawn inside its Live form, in the
// screen, and never runs on its own.
func (f *fieldFrame) Run() error                               { return errEmbedded }
func (f *fieldFrame) RunAccessible(io.Writer, io.Reader) error { return errEmbedded }

var errEmbedded = errors.New("a form's field runs inside its form")

// placeKeys offers back only after a first field, next before a last
// one and submit on the last, as huh's fields do.
func placeKeys(p huh.FieldPosition, prev, next, submit *key.Binding) {
	prev.SetEnabled(!p.IsFirst())
	next.SetEnabled(!p.IsLast())
	submit.SetEnabled(p.IsLast())
}

// wrapLines is s wrapped at width cells, a line each (none for "").
func wrapLines(s string, width int) []string {
	if s == "" {
		return nil
	}
	return strings.Split(wrapCells(s, width), "\n")
}
