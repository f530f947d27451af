package forms

import "github.com/charmbracelet/bubbles/key"

// KeyBinds are the keys the focused field takes now beyond moving between
// fields and submitting, which are the screen's to name: a list's up and
// down, the filter of a list long enough to need one, a toggle, a new
// line. huh's own help line is off; the screen draws these in its one
// hint line. Disabled keys are left out.
func (l *Live) KeyBinds() []key.Binding {
	f := l.form.GetFocusedField()
	if f == nil {
		return nil
	}
	var out []key.Binding
	for _, b := range f.KeyBinds() {
		if b.Enabled() && !moves(b) {
			out = append(out, b)
		}
	}
	return out
}

// moves reports a binding that only moves between fields or submits:
// every one of its keys is tab, shift+tab or enter.
func moves(b key.Binding) bool {
	for _, k := range b.Keys() {
		switch k {
		case "tab", "shift+tab", "enter":
		default:
			return false
		}
	}
	return true
}
