package dialog

import (
	"fmt"
	"strings"

	"followup/agent/skills"
	"followup/forms"
	"followup/ui/style"

	"github.com/charmbracelet/lipgloss"
)

// NewSkills lists every skill found (docs/skills.md): name, source, what
// shadows it, its description, and each skill refused — a page that
// scrolls. A skill's text is untrusted: it is drawn sanitised.
func NewSkills(keys Keys, set *skills.Set) Page {
	lines := func(width int) []string {
		wrap := lipgloss.NewStyle().Width(max(10, width-4)).PaddingLeft(3)
		head := fmt.Sprintf(" Skills — %d in use", len(set.Active()))
		if n := len(set.Problems); n > 0 {
			head += fmt.Sprintf(", %d refused", n)
		}
		out := []string{style.Bold.Render(head), ""}
		for _, s := range set.All {
			line := " " + style.Bold.Render(forms.SanitizeLine(s.Name)) + "  " + style.Dim.Render(forms.SanitizeLine(homeShort(s.Source)))
			if s.ShadowedBy != "" {
				line += "  " + style.Dim.Render("(shadowed by "+forms.SanitizeLine(homeShort(s.ShadowedBy))+")")
			}
			out = append(out, style.Truncate(line, width))
			out = append(out, strings.Split(wrap.Render(forms.PlainLine(s.Description)), "\n")...)
		}
		for _, p := range set.Problems {
			out = append(out, strings.Split(wrap.Render("✗ "+forms.SanitizeLine(homeShort(p.File)+": "+p.Reason)), "\n")...)
		}
		tail := wrap.PaddingLeft(1).Render("The agent activates a skill when its description fits the task; `followup skills show NAME` prints one.")
		return append(append(out, ""), strings.Split(style.Dim.Render(tail), "\n")...)
	}
	return Page{lines: lines, close: keys.SkillsClose, scrollKeys: keys.Scroll}
}
