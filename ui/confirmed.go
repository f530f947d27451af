package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
)

// Another process may answer part of the open question (`followup answer
// RQ --values-json …` from a shell) or revise it while its form is on
// screen (DESIGN §6). The form takes the newly confirmed values for every
// field the user has not edited here and keeps the user's own edits; the
// status line says so in one line. So the form always shows what the
// stored request holds, and the review — the partial answer under the
// form's values — shows exactly what it will receive: never a value the
// user was not shown. Values this screen sent itself are not news.

// takeConfirmed brings into the live form the values confirmed elsewhere
// since it was drawn (r is the request as the newest snapshot has it, at
// the form's revision).
func (p *formPane) takeConfirmed(r chat.RequestView) tea.Cmd {
	old := p.shownPartial
	p.shownPartial = r.Partial
	if p.live == nil {
		return nil
	}
	draft := p.live.Draft()
	sent := p.sent[r.ID]
	next := mergeValues(draft)
	var took, kept []string
	changed := false
	for _, f := range r.Fields { // in the form's order
		v, ok := r.Partial[f.Name]
		if !ok {
			continue
		}
		was, had := old[f.Name]
		if had && sameValue(was, v) {
			continue // not new
		}
		mine, edited := draft[f.Name]
		edited = edited && editedHere(mine, r.Prefill[f.Name], was, had)
		switch {
		case edited && sameValue(mine, v):
		case edited:
			kept = append(kept, forms.SanitizeLine(f.DisplayLabel()))
		default:
			next[f.Name], changed = v, true
			if s, ours := sent[f.Name]; !ours || !sameValue(s, v) {
				took = append(took, forms.SanitizeLine(f.DisplayLabel()))
			}
		}
	}
	p.notice = confirmedNotice(took, kept)
	if p.notice != "" && p.staleSend {
		p.notice += " Nothing was sent: review it again."
	}
	p.staleSend = false
	if !changed {
		return nil
	}
	focused := p.live.Focused()
	p.install(r, next)
	return tea.Batch(p.live.Edit(focused), p.saveNow())
}

// editedHere reports whether a field's draft value is the user's own
// edit: not empty (a field passed by), not the suggestion drawn from the
// prefill (confirmed by passing it), and not a value confirmed before
// (elsewhere, and shown by the form since).
func editedHere(mine, prefill, confirmed any, hadConfirmed bool) bool {
	switch {
	case valueText(mine) == "" || valueText(mine) == "[]":
		return false
	case prefill != nil && sameValue(mine, prefill):
		return false
	case hadConfirmed && sameValue(mine, confirmed):
		return false
	}
	return true
}

// confirmedNotice is the status line about values answered elsewhere:
// those the form took, and those where the user's own edit was kept.
func confirmedNotice(took, kept []string) string {
	var parts []string
	if len(took) > 0 {
		parts = append(parts, "Answered elsewhere: "+strings.Join(took, ", ")+" — now in the form")
	}
	if len(kept) > 0 {
		s := "your own " + strings.Join(kept, ", ") + " kept (the review shows what will be sent)"
		if len(took) == 0 {
			s = strings.Join(kept, ", ") + " was answered elsewhere too; " + s
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// carryOver keeps, in the form of a new revision of the question on
// screen, what the user had typed in the old one, for every field the new
// revision still asks with the same type — where the new revision's own
// draft has no value.
func (p *formPane) carryOver(r chat.RequestView, draft forms.Values) forms.Values {
	oldDef, typed := p.live.Definition(), p.live.Draft()
	oldType := map[string]forms.FieldType{}
	for _, f := range oldDef.Fields {
		oldType[f.Name] = f.Type
	}
	out := mergeValues(draft)
	carried := false
	for _, f := range r.Fields {
		v, ok := typed[f.Name]
		if _, supplied := r.Supplied[f.Name]; !ok || supplied || oldType[f.Name] != f.Type {
			continue
		}
		if _, has := out[f.Name]; !has {
			out[f.Name], carried = v, true
		}
	}
	if carried {
		p.notice = "“" + forms.SanitizeLine(r.Title) + "” was revised; what you had typed is kept where its fields remain."
	}
	return out
}

// noteSent remembers what this screen sends for a request, so the partial
// answer it makes is not taken for news from elsewhere.
func (p *formPane) noteSent(requestID string, values forms.Values) {
	if p.sent == nil {
		p.sent = map[string]forms.Values{}
	}
	p.sent[requestID] = values
}

// sameValue reports whether two values of a field read the same: a draft
// keeps number text as typed, the host keeps numbers; lists may be []any
// or []string.
func sameValue(a, b any) bool { return valueText(a) == valueText(b) }

func valueText(v any) string {
	switch x := v.(type) {
	case []any:
		items := make([]string, len(x))
		for i, it := range x {
			items[i] = valueText(it)
		}
		return "[" + strings.Join(items, "\x00") + "]"
	case []string:
		return "[" + strings.Join(x, "\x00") + "]"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return x
	}
	return fmt.Sprint(v)
}
