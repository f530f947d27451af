// Command floor is the smallest Bubble Tea program that draws one huh form:
// the floor the chat screen's start-to-first-frame time is compared with
// (docs/performance.md). With FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1 it quits right after
// its first frame, like followup does (bench/run.sh). With FLOOR_FIELD=input
// the form is one text field instead of a select.
package main

import (
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

type model struct {
	form      *huh.Form
	exitFirst bool
}

func (m model) Init() tea.Cmd {
	cmd := m.form.Init()
	if m.exitFirst {
		// The first frame is written before the quit arrives, and the
		// renderer flushes it on the way out; what would follow it (the
		// cursor blink) is not started, as followup does.
		return tea.Quit
	}
	return cmd
}

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "ctrl+c" {
		return m, tea.Quit
	}
	f, cmd := m.form.Update(msg)
	m.form = f.(*huh.Form)
	if m.form.State != huh.StateNormal {
		return m, tea.Quit
	}
	return m, cmd
}

func (m model) View() string {
	v := m.form.View()
	if at := os.Getenv("FOLLOWUP_FIRST_FRAME_AT"); m.exitFirst && at != "" && !logged {
		// The first frame, as followup logs its own (ui.firstFrame).
		logged = true
		if fh, err := os.OpenFile(at, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(fh, time.Now().UnixNano())
			fh.Close()
		}
	}
	return v
}

var logged bool

// frameRate is followup's most frames a second (ui.frameRate): the floor's
// renderer ticks at that rate.
const frameRate = 30

func main() {
	lipgloss.HasDarkBackground() // as followup does before it owns the terminal
	var env, text string
	field := huh.Field(huh.NewSelect[string]().Title("Choose an environment").
		Options(huh.NewOptions("production", "staging")...).Value(&env))
	if os.Getenv("FLOOR_FIELD") == "input" {
		// A text field, for the scripts that type into a form (bench/keys.sh).
		field = huh.NewInput().Title("Destination").Value(&text)
	}
	form := huh.NewForm(huh.NewGroup(field)).WithShowHelp(true)
	m := model{form: form, exitFirst: os.Getenv("FOLLOWUP_EXIT_AFTER_FIRST_FRAME") == "1"}
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
