// Package quietterm keeps followup from querying the terminal as it
// starts. Bubble Tea's package initialiser asks Lip Gloss for the
// terminal's background colour, which writes an OSC 11 query and a cursor
// position request to the terminal and waits up to five seconds for an
// answer: every headless command would print the query into its output,
// and hang on a terminal that never answers (docs/cli.md).
//
// This package's initialiser runs before Bubble Tea's and settles the
// background without asking. Go initialises, at each step, the first
// package in import-path order whose imports are all initialised; Lip
// Gloss is the only import here, Bubble Tea cannot be ready before it, and
// "followup/…" sorts before "github.com/charmbracelet/bubbletea". Keep it
// that way: no other imports, and an import path that sorts first.
//
// The chat screen asks the terminal for real, with AskBackground, before
// it takes the terminal.
package quietterm

import "github.com/charmbracelet/lipgloss"

func init() {
	// Dark is what Lip Gloss assumes when a terminal does not answer.
	lipgloss.SetHasDarkBackground(true)
}

// AskBackground asks the terminal for its background colour (a query
// that waits for the answer) and gives it to Lip Gloss. Call it only
// before a program takes the terminal, so the answer cannot leak into its
// input.
func AskBackground() {
	lipgloss.SetHasDarkBackground(lipgloss.DefaultRenderer().Output().HasDarkBackground())
}
