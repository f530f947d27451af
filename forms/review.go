package forms

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Review styles are built once, not per frame.
var (
	reviewBold    = lipgloss.NewStyle().Bold(true) // the title and the labels
	reviewMuted   = lipgloss.NewStyle().Faint(true)
	reviewMissing = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
)

// Review renders exactly what will be sent: every field with its value,
// supplied values marked as already known, empty optional fields as
// "(no answer)", and the required fields still missing named at the end.
// A value holding an emoji skin tone, which is drawn without it (see
// sanitize.go), says it is sent with it.
// All untrusted text is sanitised. width <= 0 means no wrapping.
func Review(def Definition, supplied, values Values, width int) string {
	var b strings.Builder
	if def.Title != "" {
		b.WriteString(reviewBold.Render(wrapText(PlainLine(def.Title), width)))
		b.WriteString("\n\n")
	}
	for _, f := range def.Fields {
		label := reviewBold.Render(SanitizeLine(f.DisplayLabel()))
		var line string
		switch {
		case supplied[f.Name] != nil:
			line = label + ": " + formatValue(f, supplied[f.Name]) + " " + reviewMuted.Render("(already known)")
		case hasValueOf(f, []Values{values}):
			line = label + ": " + formatValue(f, values[f.Name])
		case f.Required:
			line = label + ": " + reviewMissing.Render("(missing — required)")
		default:
			line = label + ": " + reviewMuted.Render("(no answer)")
		}
		if undrawnSkinTone(supplied[f.Name]) || supplied[f.Name] == nil && undrawnSkinTone(values[f.Name]) {
			line += " " + reviewMuted.Render("(sent with a skin tone this screen does not draw)")
		}
		b.WriteString(wrapText(line, width))
		b.WriteString("\n")
	}
	if missing := Missing(def, supplied, values); len(missing) > 0 {
		labels := make([]string, len(missing))
		for i, name := range missing {
			f, _ := def.FieldByName(name)
			labels[i] = SanitizeLine(f.DisplayLabel())
		}
		b.WriteString("\n")
		b.WriteString(wrapText(reviewMissing.Render("Still missing: "+strings.Join(labels, ", ")), width))
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// formatValue renders one value for people: the field's kind first
// (indented multi-line text), then what every kind shares: choices by
// their option labels, yes/no, numbers without exponent noise, lists
// joined.
func formatValue(f Field, v any) string {
	if k := kindOf(f.Type); k != nil && k.review != nil {
		if s, ok := k.review(f, v); ok {
			return s
		}
	}
	switch v := v.(type) {
	case bool:
		return pick(v, "yes", "no")
	case string:
		return SanitizeLine(optionLabel(f, v))
	case float64:
		return fmtNum(v)
	case []string:
		return joinValues(f, v)
	case []any:
		return joinValues(f, v)
	}
	return SanitizeLine(fmt.Sprint(v))
}

func joinValues[T any](f Field, list []T) string {
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = formatValue(f, e)
	}
	return strings.Join(parts, ", ")
}

func wrapText(s string, width int) string {
	if width <= 0 {
		return s
	}
	return lipgloss.NewStyle().Width(width).Render(s)
}

// ValueLine is one answer value on one line, as the review shows it: a
// choice by its option's title (Superman, not hero-1), yes/no, numbers
// without exponent noise, lists joined; a text of several lines is its
// first line and "…". The transcript's and the dialogs' summaries of an
// answer call it, so they never say what the review did not.
func (f Field) ValueLine(v any) string {
	if s, ok := v.(string); ok {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			return SanitizeLine(s[:i]) + "…"
		}
	}
	return formatValue(f, v)
}
