package forms

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// Choice lists longer than longList get a window of listWindow rows and a
// filter hint; shorter ones are drawn whole, which also sidesteps huh #679
// (a windowed huh Select scrolls its preselected option to the top and
// hides those above it).
const (
	longList   = 8
	listWindow = 9
)

// build makes the huh field for the slot through its kind. Validators
// never fail: huh lets a failing validator block navigation, even going
// back (#655, #720), so they only record that the user moved past the
// field. Full validation happens on submit (Normalize + Missing).
func (s *slot) build() huh.Field {
	s.title, s.desc = "", "" // a new field: decorate draws both
	return s.k.widget(s)
}

// about is the field's description as drawn: its light markdown as text,
// sanitised (worked out once: decorate runs on every edit).
func (s *slot) about() string {
	if s.aboutText == nil {
		t := Describe(s.f.Description)
		s.aboutText = &t
	}
	return *s.aboutText
}

// Describe is a form's or a field's description as drawn: its light
// markdown rendered as plain text (**index** reads index) and sanitised.
func Describe(description string) string {
	return SanitizeBlock(strings.TrimRight(PlainText(description), "\n"))
}

// label is the field's label as drawn.
func (s *slot) label() string { return SanitizeLine(s.f.DisplayLabel()) }

func (s *slot) charLimit() int {
	if s.f.MaxLength != nil && *s.f.MaxLength > 0 {
		return *s.f.MaxLength
	}
	return MaxString
}

func (s *slot) options() []huh.Option[string] {
	out := make([]huh.Option[string], len(s.f.Options))
	for i, o := range s.f.Options {
		out[i] = huh.NewOption(SanitizeLine(o.DisplayLabel()), o.Value)
	}
	return out
}

// placeholder falls back to a format hint so an empty field says what to type.
func (s *slot) placeholder() string {
	if s.f.Placeholder != "" {
		return SanitizeLine(s.f.Placeholder)
	}
	switch s.f.Format {
	case "date":
		return "YYYY-MM-DD"
	case "date-time":
		return "YYYY-MM-DD hh:mm"
	case "email":
		return "name@example.com"
	case "uri":
		return "https://…"
	}
	return ""
}

// decorate refreshes the title (required and suggestion marks), the
// description (hints, live problems) and the theme after a change.
func (s *slot) decorate() {
	s.version++
	if s.setTitle == nil {
		return
	}
	title := SanitizeLine(s.f.DisplayLabel())
	if s.f.Required {
		title += " *"
	}
	if s.suggested {
		title += " · suggested"
	}
	about, hint := s.about(), s.hint()
	desc := joinNonEmpty("\n", about, hint)
	if title != s.title || desc != s.desc {
		if rows := s.headRows(title, about, hint); rows != s.rows {
			s.rows = rows
			s.live.grown = true // its height may no longer fit the page's room
		}
	}
	if title != s.title {
		s.title = title
		s.setTitle(title)
	}
	if desc != s.desc {
		s.desc = desc
		s.setDesc(about, hint)
	}
	if s.theme != s.live.base && s.muted != s.suggested {
		if s.suggested {
			*s.theme = *s.live.muted
		} else {
			*s.theme = *s.live.base
		}
		s.muted = s.suggested
	}
}

// hint is the guidance under a field: its problems, one a line, marked
// so they read as problems without colour; else the kind's hint (format,
// range, count).
func (s *slot) hint() string {
	if ps := s.problems(); len(ps) > 0 {
		lines := make([]string, len(ps))
		for i, p := range ps {
			lines[i] = problemMark + SanitizeLine(p)
		}
		return strings.Join(lines, "\n")
	}
	if s.k.hint != nil {
		return s.k.hint(s)
	}
	return ""
}

// headRows is the lines the field's title and description take, wrapped
// inside the field's frame at the form's width.
func (s *slot) headRows(title, about, hint string) int {
	w := s.live.width
	if w > 0 {
		w = max(w-s.live.base.Focused.Base.GetHorizontalFrameSize(), 1)
	}
	return len(wrapLines(title, w)) + len(wrapLines(about, w)) + len(wrapLines(hint, w))
}

// problemMark starts a problem drawn under its field.
const problemMark = "✗ "

func pageMark(n, total int) string {
	return lipgloss.NewStyle().Faint(true).Render(fmt.Sprintf("(%d/%d)", n, total))
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// EditorInstalled reports whether the editor a textarea opens on ctrl+e
// ($EDITOR, else huh's nano) is installed (BuildOptions.Editor).
var EditorInstalled = sync.OnceValue(func() bool { return editorOnPath(os.Getenv, exec.LookPath) })

func editorOnPath(getenv func(string) string, lookPath func(string) (string, error)) bool {
	name := "nano"
	if f := strings.Fields(getenv("EDITOR")); len(f) > 0 {
		name = f[0]
	}
	_, err := lookPath(name)
	return err == nil
}
