package ui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// The form pane's open questions: which one is shown as the chat's
// questions come and go.

// step shows the next (or previous) open question, keeping the draft of
// the one left; it reports whether the question shown changed.
func (p *formPane) step(next bool) (tea.Cmd, bool) {
	if len(p.pending) < 2 {
		return nil, false
	}
	save := p.saveNow()
	p.keep()
	i := max(0, slices.IndexFunc(p.pending, func(r chat.RequestView) bool { return r.ID == p.active }))
	if next {
		i = (i + 1) % len(p.pending)
	} else {
		i = (i + len(p.pending) - 1) % len(p.pending)
	}
	p.active = p.pending[i].ID
	p.drop()
	return save, true
}

// adopt takes the open questions of a fresh snapshot: the question shown
// stays while it is open, else pickActive's; a waiting proposal on
// another question turns the pane to that one (unless still, a dialog
// holds the screen). It reports whether a question appeared and returns
// the save of a draft left.
func (p *formPane) adopt(s snapshotMsg, still bool) (tea.Cmd, bool) {
	p.drafts, p.built, p.sync.seq = s.drafts, s.built, s.seq
	seen := map[string][]chat.ProposalView{} // each question's waiting proposals
	for _, r := range p.pending {
		seen[r.ID] = r.Proposals
	}
	p.pending = s.pending
	appeared := false
	for _, r := range p.pending {
		proposals, was := seen[r.ID]
		if !was {
			appeared = true
		}
		if r.ID == p.active && p.goneElsewhere(proposals, r.Proposals) {
			p.decidedElsewhere = r.ID
		}
	}
	if _, ok := p.activeRequest(); !ok {
		r, _ := pickActive(p.pending, "", s.drafts)
		p.active = r.ID
	}
	var save tea.Cmd
	if r, ok := p.activeRequest(); ok && len(r.Proposals) == 0 && !still {
		// A proposal waits on another question: show that one.
		for _, q := range p.pending {
			if len(q.Proposals) > 0 {
				save = p.saveNow()
				p.keep()
				p.active = q.ID
				break
			}
		}
	}
	return save, appeared
}

// goneElsewhere reports whether a proposal of was is not in now and this
// screen did not decide it.
func (p *formPane) goneElsewhere(was, now []chat.ProposalView) bool {
	for _, old := range was {
		if p.decidedHere[old.ID] {
			continue
		}
		if !slices.ContainsFunc(now, func(n chat.ProposalView) bool { return n.ID == old.ID }) {
			return true
		}
	}
	return false
}

// clear forgets the chat's questions (the chat was left or deleted).
func (p *formPane) clear() {
	p.pending = nil
	p.drop()
}
