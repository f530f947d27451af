package dialog

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// Proposal is the diff of the user's draft against the change the
// agent proposes, with accept and keep-mine. It arrives by itself: it takes
// the focus by the focus rule, and its keys only while it has it.
type Proposal struct {
	keys ProposalKeys
	card
	q Question
}

func NewProposal(keys Keys, q Question) Proposal {
	return Proposal{keys: keys.Proposal, card: newCard(keys, q.Key), q: q}
}

// proposal is the newest waiting proposal.
func (d Proposal) proposal() (chat.ProposalView, bool) {
	ps := d.q.Req.Proposals
	if len(ps) == 0 {
		return chat.ProposalView{}, false
	}
	return ps[len(ps)-1], true
}

func (d Proposal) Update(msg tea.Msg) (Dialog, Action) {
	q, ours := msg.(Question)
	ours = ours && q.Key == d.q.Key
	if ours {
		d.q = q
	}
	p, ok := d.proposal()
	if _, key := msg.(tea.KeyMsg); !ok && (key || ours) {
		return d, Close{} // decided elsewhere
	}
	a, _ := d.update(msg, d.body, choice{d.keys.Accept, Decide{ProposalID: p.ID, Accept: true}},
		choice{d.keys.Keep, Decide{ProposalID: p.ID, Accept: false}})
	return d, a
}

func (d Proposal) View(width, height int, focused bool) string {
	return d.frame(width, height, focused, d.body(), d.hint(width, focused, style.Relabel(d.keys.Accept, "accept"), d.keys.Keep))
}

// Waiting is the line drawn above the form while the user types in it.
func (d Proposal) Waiting() string {
	return "The agent proposes a change to this question — it opens when you pause."
}

func (d Proposal) body() string {
	r := d.q.Req
	p, ok := d.proposal()
	if !ok {
		return ""
	}
	mine := d.q.Mine
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
