// Command floor is what followup's screen is compared with
// (docs/performance.md): a default Bubble Tea program (default frame rate)
// showing one huh form, the same fields the default way. FLOOR_FORM=big
// gives it the 32-field form of the large database's newest chat
// (bench/formdefs), else the 7-field travel form followup opens on; fields
// come four to a page, as followup shows them. It quits on ctrl+c or once
// the form is done.
package main

import (
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"

	"followup/bench/formdefs"
	"followup/forms"
)

type model struct{ form *huh.Form }

func (m model) Init() tea.Cmd { return m.form.Init() }

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

func (m model) View() string { return m.form.View() }

// field is f as huh asks it by default.
func field(f forms.Field) huh.Field {
	title := f.Label
	if f.Required {
		title += " *"
	}
	var opts []string
	for _, o := range f.Options {
		opts = append(opts, o.Value)
	}
	switch f.Type {
	case forms.Textarea:
		return huh.NewText().Title(title).Description(f.Description)
	case forms.Boolean:
		return huh.NewConfirm().Title(title).Description(f.Description)
	case forms.Select:
		return huh.NewSelect[string]().Title(title).Description(f.Description).Options(huh.NewOptions(opts...)...)
	case forms.Multiselect:
		return huh.NewMultiSelect[string]().Title(title).Description(f.Description).Options(huh.NewOptions(opts...)...)
	}
	return huh.NewInput().Title(title).Description(f.Description)
}

func main() {
	lipgloss.HasDarkBackground() // as followup does before it owns the terminal
	def := formdefs.Travel()
	if os.Getenv("FLOOR_FORM") == "big" {
		def = formdefs.Big()
	}
	var groups []*huh.Group
	for i := 0; i < len(def.Fields); i += 4 {
		var fs []huh.Field
		for _, f := range def.Fields[i:min(i+4, len(def.Fields))] {
			fs = append(fs, field(f))
		}
		groups = append(groups, huh.NewGroup(fs...).Title(def.Title).Description(def.Description))
	}
	if _, err := tea.NewProgram(model{huh.NewForm(groups...).WithShowHelp(true)}, tea.WithAltScreen()).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
