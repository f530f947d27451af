package ui

import tea "github.com/charmbracelet/bubbletea"

// Terminals paste a line break as a carriage return (what the Enter key
// sends), and the text widgets keep only line feeds as line breaks: a
// pasted paragraph arrived as one line, its breaks turned to spaces. A
// paste's CR LF and lone CR are line feeds before any widget sees it, in
// the composer and in every form field alike (a one-line field turns them
// into spaces, as it does any line break).
func pasteLines(msg tea.Msg) tea.Msg {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !k.Paste {
		return msg
	}
	out := make([]rune, 0, len(k.Runes))
	for i, r := range k.Runes {
		if r == '\r' {
			if i+1 < len(k.Runes) && k.Runes[i+1] == '\n' {
				continue // CR LF: the LF follows
			}
			r = '\n'
		}
		out = append(out, r)
	}
	k.Runes = out
	return k
}
