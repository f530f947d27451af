package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
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

// relabel is b saying desc: the same keys, worded for one place.
func relabel(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// either is a and b shown as one hint: "a/b desc".
func either(a, b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(a.Help().Key+"/"+b.Help().Key, desc))
}

// focusHint is a dialog's hint line: its keys while it has the focus;
// while it waits for it, how to give it the focus.
func focusHint(focused bool, focus key.Binding, bs ...key.Binding) string {
	if focused {
		return hints(append(bs, relabel(focus, "to the composer"))...)
	}
	return stDim.Render(hints(relabel(focus, "to decide")) + "  (" + hints(bs...) + ")")
}
