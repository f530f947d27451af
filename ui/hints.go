package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
)

// hintSep is the one separator between hints on screen.
const hintSep = " · "

// hints draws the bindings that apply now as one line: "key does · key
// does". Disabled bindings are left out.
func hints(bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		parts = append(parts, stBold.Render(h.Key)+" "+h.Desc)
	}
	return strings.Join(parts, hintSep)
}

// hintsFit is hints cut to width: whole hints, the first ones, as many
// as fit.
func hintsFit(width int, bs ...key.Binding) string {
	for n := len(bs); n > 0; n-- {
		if h := hints(bs[:n]...); lipgloss.Width(h) <= width {
			return h
		}
	}
	return ""
}

// relabel is b saying desc: the same keys, worded for one place.
func relabel(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// either is a and b shown as one hint: "a/b desc".
func either(a, b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(a.Help().Key+"/"+b.Help().Key, desc))
}

// focusHint is a dialog's hint line, cut to width: its keys while it has
// the focus; while it waits for it, how to give it the focus.
func focusHint(width int, focused bool, focus key.Binding, bs ...key.Binding) string {
	if focused {
		return hintsFit(width, append(bs, relabel(focus, "to the composer"))...)
	}
	h := hints(relabel(focus, "to decide")) + "  (" + hints(bs...) + ")"
	if lipgloss.Width(h) > width {
		h = hints(relabel(focus, "to decide"))
	}
	return stDim.Render(h)
}

// plural is n with the word that agrees with it: "1 question",
// "2 questions".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
