package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// proposalDialog is the diff of the user's draft against the change the
// agent proposes, with accept and keep-mine. It arrives by itself: it takes
// the focus by the focus rule, and its keys only while it has it.
type proposalDialog struct {
	keys    proposalKeys
	scrollK scrollKeys
	q       question
	box     paneBox
	scroll  scroll
}

func newProposal(keys keyMap, q question) proposalDialog {
	return proposalDialog{keys: keys.Proposal, scrollK: keys.Scroll, q: q}
}

func (d proposalDialog) about() string    { return d.q.key }
func (d proposalDialog) fullScreen() bool { return false }

// proposal is the newest waiting proposal.
func (d proposalDialog) proposal() (chat.ProposalView, bool) {
	ps := d.q.req.Proposals
	if len(ps) == 0 {
		return chat.ProposalView{}, false
	}
	return ps[len(ps)-1], true
}

func (d proposalDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case questionMsg:
		if msg.key == d.q.key {
			d.q = question(msg)
			if _, ok := d.proposal(); !ok {
				return d, closeAct{} // decided elsewhere
			}
		}
	case tea.KeyMsg:
		p, ok := d.proposal()
		switch {
		case !ok:
			return d, closeAct{}
		case key.Matches(msg, d.keys.Accept):
			return d, decideAct{proposalID: p.ID, accept: true}
		case key.Matches(msg, d.keys.Keep):
			return d, decideAct{proposalID: p.ID, accept: false}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d proposalDialog) view(width, height int, focused bool) string {
	hint := style.FocusHint(paneBox{width, height}.inner(), focused, d.keys.Focus, style.Relabel(d.keys.Accept, "accept"), d.keys.Keep)
	return paneBox{width, height}.draw(style.DialogFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}

// waiting is the line drawn above the form while the user types in it.
func (d proposalDialog) waiting() string {
	return "The agent proposes a change to this question — it opens when you pause."
}

func (d proposalDialog) body() string {
	r := d.q.req
	p, ok := d.proposal()
	if !ok {
		return ""
	}
	mine := d.q.mine
	var b strings.Builder
	b.WriteString(style.Bold.Render("The agent proposes a change to “"+forms.PlainLine(r.Title)+"”") + "\n\n")
	show := func(f forms.Field, v any) string {
		if v == nil {
			return style.Dim.Render("(no answer)") // as the review says it
		}
		return f.ValueLine(v)
	}
	if p.Kind == chat.ProposeResolve {
		// In the order the form asks.
		for _, f := range r.Fields {
			if v, ok := p.Values[f.Name]; ok {
				b.WriteString(fmt.Sprintf("  %s: %s → %s\n", style.Bold.Render(forms.SanitizeLine(f.DisplayLabel())),
					show(f, mine[f.Name]), style.States["answered"].Render(show(f, v))))
			}
		}
	} else if p.Definition != nil {
		kept := map[string]bool{}
		for _, f := range p.Definition.Fields {
			kept[f.Name] = true
		}
		asked := map[string]bool{}
		for _, f := range r.Fields {
			asked[f.Name] = true
		}
		for _, f := range p.Definition.Fields {
			mark := "  "
			if !asked[f.Name] {
				mark = "+ "
			}
			b.WriteString(fmt.Sprintf("%s%s (%s)  yours: %s\n", mark, forms.SanitizeLine(f.DisplayLabel()), f.Type, show(f, mine[f.Name])))
		}
		for _, f := range r.Fields {
			if !kept[f.Name] {
				b.WriteString(style.Error.Render("- "+forms.SanitizeLine(f.DisplayLabel())+" (removed)") + "\n")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
