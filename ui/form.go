package ui

// The form pane: the questions waiting above the composer, the one shown,
// its live form and the drafts typed into it.

import (
	"cmp"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
)

// formPane owns the open questions of the chat on screen and the form of
// the one shown. The form's field values live in the heap (forms.Live), so
// the pane is used through a pointer and never copied. Focus belongs to
// the root: methods that install or drop a form say so in their results.
type formPane struct {
	svc   *chat.Service
	saver *saver
	// width and maxHeight are the size forms are built at.
	width, maxHeight int

	pending      []chat.RequestView
	active       string // request shown in the pane
	live         *forms.Live
	liveKey      string     // request id and revision the live form was built for
	built        *builtForm // a form the last load built, until installed or dropped
	loadingKey   string
	drafts       map[string]draftLoadedMsg // drafts that came with the last snapshot
	localDrafts  map[string]keptDraft      // drafts this screen left or saved, newer than any snapshot's
	savedDraft   string                    // JSON of the last saved draft, to skip saving no change
	pendingDraft string                    // JSON of the draft an autosave is scheduled for
	saveDue      time.Time                 // when it is: a pause of autosaveDelay after the last edit
	saveTimer    bool                      // an autosaveMsg is on its way (one at a time, not one per key)
	problems     []forms.Problem           // what the last check of the reply found wrong
	unplaced     []forms.Problem           // those of them no field shows beside it

	// What the live form shows of the stored request (confirmed.go).
	shownID       string
	shownRevision int
	shownPartial  forms.Values
	sent          map[string]forms.Values // per request: the values this screen last sent
	notice        string                  // a line for the status, for the root to show
	closedHere    map[string]bool         // requests this screen is closing itself (closed.go)
	staleSend     bool                    // an answer was refused: answered in part elsewhere meanwhile
	sync          draftSync               // what the store holds of the drafts (draftsync.go)
	// decidedElsewhere: the shown question (its id) lost a proposal this
	// screen did not decide; decidedHere: the proposals it decided.
	decidedElsewhere string
	decidedHere      map[string]bool
}

func newFormPane(saver *saver) formPane {
	return formPane{saver: saver, localDrafts: map[string]keptDraft{}, sent: map[string]forms.Values{},
		closedHere: map[string]bool{}, decidedHere: map[string]bool{},
		sync: draftSync{stored: map[string]*storedDraft{}, known: map[string]bool{}, saving: map[string]int{}, landed: map[string]int{}}}
}

// formOutcome is what a message did to the form, for the root to act on.
type formOutcome int

const (
	formEditing   formOutcome = iota
	formCompleted             // the last field was passed: time for the review
	formAborted               // huh gave up on the form; it was rebuilt
)

func (p *formPane) activeRequest() (chat.RequestView, bool) {
	for _, r := range p.pending {
		if r.ID == p.active {
			return r, true
		}
	}
	return chat.RequestView{}, false
}

// activeKey names the shown question's revision ("" when none).
func (p *formPane) activeKey() string {
	if r, ok := p.activeRequest(); ok {
		return liveKey(r)
	}
	return ""
}

// resize sets the size forms are built at; a form on screen is reflowed
// when the size really changed (huh asks for the size whenever a form
// starts).
func (p *formPane) resize(width, maxHeight int) tea.Cmd {
	if width == p.width && maxHeight == p.maxHeight {
		return nil
	}
	p.width, p.maxHeight = width, maxHeight
	if p.live == nil {
		return nil
	}
	return p.live.Resize(width, maxHeight)
}

// ensure installs the form of the active request, loading its draft; it
// reports whether a form was installed now.
func (p *formPane) ensure() (tea.Cmd, bool) {
	r, ok := p.activeRequest()
	if !ok {
		p.drop()
		return nil, false
	}
	k := liveKey(r)
	if k == p.liveKey {
		p.built = nil // a load built it again: the one on screen stays
		return p.takeConfirmed(r), false
	}
	if k == p.loadingKey {
		return nil, false
	}
	p.loadingKey = k
	if d, ok := p.localDrafts[k]; ok {
		// What this screen kept is its own newest; the store may hold
		// another hand's since.
		cmd, installed := p.onDraftLoaded(draftLoadedMsg{requestID: r.ID, revision: r.Revision, draft: d.values, found: true, local: true, focus: d.focus})
		return tea.Batch(cmd, p.takeConfirmed(r)), installed
	}
	if d, ok := p.drafts[k]; ok {
		delete(p.drafts, k) // a draft read once; later installs read it fresh
		return p.onDraftLoaded(d)
	}
	return loadDraft(p.svc, r.ID, r.Revision), false
}

// onDraftLoaded installs the active request's form from its draft; it
// reports whether a form was installed.
func (p *formPane) onDraftLoaded(d draftLoadedMsg) (tea.Cmd, bool) {
	r, ok := p.activeRequest()
	if !ok || r.ID != d.requestID || r.Revision != d.revision {
		return nil, false
	}
	draft := draftFor(r, d.draft, d.found)
	stored := valuesKey(mergeValues(d.draft)) // what the store holds (none: {})
	if p.live != nil && p.shownID == r.ID && p.shownRevision != r.Revision {
		// The question was revised while its form was on screen.
		draft = p.carryOver(r, draft)
	}
	unchanged := valuesKey(mergeValues(draft)) == stored
	if b := p.built; b != nil && b.key == liveKey(r) && b.width == p.width && b.height == p.maxHeight &&
		valuesKey(b.draft) == valuesKey(draft) {
		p.set(r, b.live) // built by the load, off this goroutine
	} else {
		focus := d.focus
		if p.live != nil && p.shownID == r.ID {
			focus = p.live.Focused() // the form on screen, built again: the user stays where they are
		}
		p.install(r, draft, focus)
	}
	p.built = nil
	p.savedDraft = stored
	if unchanged {
		// The form shows the stored draft as it is: what it reads back
		// (a number kept as typed, "2" for 2) is that draft, not an edit.
		p.savedDraft = valuesKey(p.live.Draft())
	}
	p.pendingDraft = p.savedDraft
	p.sync.installed(liveKey(r), d.draft, !d.local)
	// A form that shows more than its saved draft (values answered
	// elsewhere, or carried from the revision before) saves it now.
	return tea.Batch(p.live.Init(), p.saveNow()), true
}

func (p *formPane) install(r chat.RequestView, draft forms.Values, focus string) {
	p.set(r, buildLive(r, draft, focus, p.width, p.maxHeight))
}

// set puts a form built for r on screen.
func (p *formPane) set(r chat.RequestView, l *forms.Live) {
	p.live, p.liveKey, p.loadingKey = l, liveKey(r), ""
	p.shownID, p.shownRevision, p.shownPartial = r.ID, r.Revision, r.Partial
}

// drop takes the form off screen (its draft stays saved).
func (p *formPane) drop() { p.live, p.liveKey, p.loadingKey = nil, "", "" }

// update forwards a message to the active form only (huh #278) and
// schedules an autosave when the draft changed.
func (p *formPane) update(msg tea.Msg) (tea.Cmd, formOutcome) {
	cmds := []tea.Cmd{p.live.Update(msg)}
	// Debounce on changes only: cursor blinks also pass through here and
	// must not keep pushing the save back.
	if k := valuesKey(p.live.Draft()); k != p.savedDraft && k != p.pendingDraft {
		p.pendingDraft, p.saveDue = k, time.Now().Add(autosaveDelay)
		if !p.saveTimer {
			p.saveTimer = true
			cmds = append(cmds, autosaveAfter(autosaveDelay))
		}
	}
	if len(p.problems) > 0 {
		p.problems = p.replyProblems() // the list shrinks as the user fixes it
		p.unplaced = unplacedOf(p.unplaced, p.problems)
	}
	switch {
	case p.live.Submitted():
		p.problems = p.replyProblems()
		return tea.Batch(append(cmds, p.saveNow())...), formCompleted
	case p.live.Aborted():
		p.rebuild()
		return tea.Batch(cmds...), formAborted
	}
	return tea.Batch(cmds...), formEditing
}

// replyProblems is everything wrong with the form's values, found before
// sending: number text that does not parse, and the host's own check.
func (p *formPane) replyProblems() []forms.Problem {
	r, ok := p.activeRequest()
	if !ok || p.live == nil {
		return nil
	}
	ps := append(p.live.Problems(), p.svc.CheckReply(r, mergeValues(r.Partial, p.live.Values()))...)
	// In the order the form asks.
	order := map[string]int{}
	for i, f := range r.Fields {
		order["/values/"+f.Name] = i + 1
	}
	slices.SortStableFunc(ps, func(a, b forms.Problem) int { return cmp.Compare(order[a.Path], order[b.Path]) })
	return ps
}

// rebuild builds the form again from its current draft (after huh
// aborted it).
func (p *formPane) rebuild() {
	r, ok := p.activeRequest()
	if !ok || p.live == nil {
		return
	}
	// The rebuilt form shows the same draft; whether it is saved yet is
	// unchanged, so a scheduled autosave still happens.
	p.install(r, p.live.Draft(), "")
}

// edit shows the form again, its page built afresh (a finished huh form
// ignores input, #319), on the field that needs the user.
func (p *formPane) edit() tea.Cmd {
	if p.live == nil {
		return nil
	}
	// Each problem is drawn beside its field; the pane lists the rest.
	p.unplaced = p.live.SetProblems(p.problems)
	return p.live.Edit(p.fieldToFix())
}

// unplacedOf keeps of the problems listed in the pane those still found.
func unplacedOf(listed, found []forms.Problem) []forms.Problem {
	var out []forms.Problem
	for _, l := range listed {
		if slices.ContainsFunc(found, func(f forms.Problem) bool { return l.Path == f.Path && l.Message == f.Message }) {
			out = append(out, l)
		}
	}
	return out
}

// fieldToFix is where going back to the form lands: the first field the
// last check found wrong, else the first required one still empty, else
// "" (where the submit left off).
func (p *formPane) fieldToFix() string {
	if len(p.problems) > 0 {
		return trimValuesPath(p.problems[0].Path)
	}
	if r, ok := p.activeRequest(); ok {
		if missing := forms.Missing(r.Definition, r.Supplied, mergeValues(r.Partial, p.live.Values())); len(missing) > 0 {
			return missing[0]
		}
	}
	return ""
}
