package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// openAsked opens a question with title and reason in a new chat's run
// and returns the chat's id.
func (k *kit) openAsked(key, title, reason string, fields ...map[string]any) string {
	k.t.Helper()
	ctx := context.Background()
	sent, err := k.svc.Send(ctx, "", "task "+key, "")
	if err != nil {
		k.t.Fatal(err)
	}
	if len(fields) == 0 {
		fields = []map[string]any{{"name": "a", "type": "text"}}
	}
	decl, _ := json.Marshal(map[string]any{"requestKey": key, "reason": reason,
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": title, "fields": fields}}})
	if _, err := k.svc.OpenRequest(ctx, sent.RunID, "call_"+key, decl); err != nil {
		k.t.Fatal(err)
	}
	return sent.ChatID
}

// noMarkdownMarks fails when the frame shows a markdown mark of the
// titles and reasons below.
func noMarkdownMarks(t *testing.T, where, frame string) {
	t.Helper()
	if strings.Contains(frame, "**") || strings.Contains(frame, "`") {
		t.Errorf("%s shows markdown as written:\n%s", where, frame)
	}
}

// A title and a reason are drawn as the text their markdown means, in the
// pane, the tab row, the transcript's card and the dialogs, like the
// descriptions are.
func TestTitlesAndReasonsRenderTheirMarkdown(t *testing.T) {
	t.Parallel()
	k := newKit(t, withClock)
	chatID := k.openAsked("deploy", "Pick the **index**", "Deploying to **production** needs `approval`")
	ctx := context.Background()
	run := k.onlyRun()
	decl, _ := json.Marshal(map[string]any{"requestKey": "second", "reason": "So the `trip` fits",
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Plan the **trip**",
			"fields": []any{map[string]any{"name": "b", "type": "text"}}}}})
	if _, err := k.svc.OpenRequest(ctx, run.ID, "call_second", decl); err != nil {
		t.Fatal(err)
	}
	k.load(chatID)
	k.m.setFocus(focusForm)
	v := frameOf(k.m)
	if !containsAll(v, "Pick the index", "So the trip fits", "Plan the trip") {
		t.Errorf("the pane does not draw the title, reason and tab as their text:\n%s", v)
	}
	noMarkdownMarks(t, "the pane", v)

	k.m.openReview()
	noMarkdownMarks(t, "the review", frameOf(k.m))
	k.m.Update(tea.KeyMsg{Type: tea.KeyEsc})

	k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlX})
	v = frameOf(k.m)
	if !strings.Contains(v, "“Plan the trip”") {
		t.Errorf("the cancel dialog does not name the question as its text:\n%s", v)
	}
	noMarkdownMarks(t, "the cancel dialog", v)
}
