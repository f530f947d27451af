package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/words"
)

// Another process may answer part of the open question (`followup answer
// RQ --values-json …` from a shell) or revise it while its form is on
// screen (docs/behaviour.md). The form takes the newly confirmed values for every
// field the user has not edited here and keeps the user's own edits; the
// status line says so in one line. So the form always shows what the
// stored request holds, and the review — the partial answer under the
// form's values — shows exactly what it will receive: never a value the
// user was not shown. Values this screen sent itself are not news.

// takeConfirmed brings into the live form what changed elsewhere since it
// was drawn (r is the request as the newest snapshot has it, at the form's
// revision): values confirmed there (a partial answer), and the stored
// draft when another hand wrote it (a proposal accepted from the CLI,
// another window). Both go through one rule, chat.MergeEdits: a field the
// user has not edited here takes the new value.
func (p *formPane) takeConfirmed(r chat.RequestView) tea.Cmd {
	old := p.shownPartial
	p.shownPartial = r.Partial
	if p.live == nil {
		p.decidedElsewhere = ""
		return nil
	}
	answered := chat.MergeEdits(r.Fields, r.Prefill, old, p.live.Draft(), r.Partial)
	next, kept := answered.Values, answered.Kept
	changed := len(answered.Took) > 0
	var took []string
	for _, name := range answered.Took {
		// Values this screen sent itself are not news.
		if s, ours := p.sent[r.ID][name]; !ours || !chat.SameValue(s, r.Partial[name]) {
			took = append(took, name)
		}
	}
	var drafted []string
	if stored, base, news := p.storedNews(); news {
		d := chat.MergeEdits(r.Fields, r.Prefill, base, next, stored)
		next, drafted, kept = d.Values, d.Took, append(kept, d.Kept...)
		changed = changed || len(d.Took) > 0
	}
	p.notice = confirmedNotice(r, took, drafted, kept, p.decidedElsewhere == r.ID)
	p.decidedElsewhere = ""
	if p.notice != "" && p.staleSend {
		p.notice += " Nothing was sent: review it again."
	}
	p.staleSend = false
	if !changed {
		return nil
	}
	focused := p.live.Focused()
	if focused == "" { // no field has the focus: where a submit left off
		p.install(r, next, "")
		return tea.Batch(p.live.Edit(""), p.saveNow())
	}
	p.install(r, next, focused) // built once, on the field the user was in
	return tea.Batch(p.live.Init(), p.saveNow())
}

// confirmedNotice is the status line about what changed elsewhere: values
// answered there and values another hand put in the draft, which the form
// took, and those where the user's own edit was kept. It says what
// happened first and names the fields after, so that on a narrow screen
// a long list of labels is what is cut, not what happened.
func confirmedNotice(r chat.RequestView, took, drafted, kept []string, decided bool) string {
	var parts []string
	if len(took) > 0 {
		parts = append(parts, "Answered elsewhere, now in the form: "+fieldLabels(r, took))
	}
	switch {
	case len(drafted) > 0 && decided:
		parts = append(parts, "The proposal was accepted elsewhere, now in the form: "+fieldLabels(r, drafted))
	case len(drafted) > 0:
		parts = append(parts, "Changed elsewhere, now in the form: "+fieldLabels(r, drafted))
	case decided:
		parts = append(parts, "The proposal was decided elsewhere")
	}
	if len(kept) > 0 {
		s := "yours kept: " + fieldLabels(r, kept)
		if len(parts) == 0 {
			s = "Changed elsewhere too, " + s
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// fieldLabels names fields by their labels, as the screen draws them.
func fieldLabels(r chat.RequestView, names []string) string {
	return forms.SanitizeLine(words.Labels(r, names))
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
		p.notice = "“" + forms.PlainLine(r.Title) + "” was revised; what you had typed is kept where its fields remain."
	}
	return out
}
