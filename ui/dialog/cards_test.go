package dialog

import (
	"errors"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// A card asks its decision once while it is on its way; after it failed
// the card may decide again, and one that went through closes an
// approval.
func TestACardDecidesAgainAfterItsDecisionFailed(t *testing.T) {
	bind := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k)) }
	keys := Keys{Approval: ApprovalKeys{Once: bind("y"), Chat: bind("a"), Deny: bind("n")},
		URL: URLKeys{Open: bind("o"), Copy: bind("c"), Done: bind("d"), Decline: bind("x")}}
	for _, c := range []struct {
		d       Dialog
		id, key string
		decides func(Action) bool
	}{
		{NewApproval(keys, chat.ApprovalView{ID: "ap_1"}), "ap_1", "y", func(a Action) bool { _, ok := a.(Approve); return ok }},
		{NewURL(keys, Question{Req: chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_1", URL: "https://example.com"}}}, false), "rq_1", "d",
			func(a Action) bool { _, ok := a.(LinkDone); return ok }},
	} {
		d := c.d
		press := func() Action {
			var a Action
			d, a = d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(c.key)})
			return a
		}
		if a := press(); !c.decides(a) {
			t.Fatalf("%s: the first key asks %#v", c.id, a)
		}
		if a := press(); a != nil {
			t.Fatalf("%s: a second key while deciding asks %#v", c.id, a)
		}
		d, _ = d.Update(Decided{ID: "other", Err: errors.New("busy")})
		if a := press(); a != nil {
			t.Fatalf("%s: another card's failure let it decide again: %#v", c.id, a)
		}
		d, _ = d.Update(Decided{ID: c.id, Err: errors.New("busy")})
		if a := press(); !c.decides(a) {
			t.Fatalf("%s: after its failure the key asks %#v", c.id, a)
		}
	}
	d, _ := NewApproval(keys, chat.ApprovalView{ID: "ap_1"}).Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if _, a := d.Update(Decided{ID: "ap_1"}); a != (Close{}) {
		t.Fatalf("a decided approval's card asks %#v", a)
	}
}
