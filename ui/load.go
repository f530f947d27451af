package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/transcript"
)

// transcriptPage is how many messages a page of the transcript holds: more
// than a screen shows, so the first frame renders little; older pages load
// as the user scrolls up.
const transcriptPage = 60

// prep is what a chat load may prepare off the UI goroutine, at the size
// the screen had when the load began: the form of the question it will
// show and the transcript's entries. The zero prep prepares nothing.
type prep struct {
	active     string // the question shown now; "" or a closed one picks the newest
	installed  string // liveKey of the form already on screen: not rebuilt
	formWidth  int
	formHeight int
	width      int // the transcript's
	height     int // the screen's: how much of the transcript to draw first
	seq        int // the load's place in the order loads began (0: unordered)
}

// prep describes the screen as it is now, for the next load.
func (m *model) prep() prep {
	p := prep{active: m.pane.active, installed: m.pane.liveKey}
	if m.sized { // the size is the terminal's, not a default
		p.width, p.height = m.width, m.height
		p.formWidth, p.formHeight = formSize(m.width, m.height)
	}
	return p
}

// load reads a chat ("" = the newest) and prepares its frame: a reload
// too draws the newest screenful of entries, so a new message reaches the
// screen drawn (its markdown rendered) off the UI goroutine.
func (m *model) load(chatID string) tea.Cmd {
	return loadChat(m.svc, chatID, m.nextLoad())
}

// nextLoad is the prep of a load starting now.
func (m *model) nextLoad() prep {
	m.cur.loadSeq++
	p := m.prep()
	p.seq = m.cur.loadSeq
	return p
}

// builtForm is a form built by a load, for the question and draft named.
type builtForm struct {
	key           string
	draft         forms.Values
	width, height int
	live          *forms.Live
}

// loadChat reads what the first frame of a chat shows: the newest page of
// its transcript, the requests that page names, its pending requests with
// their drafts and its newest run. Older pages are read when the user
// scrolls up (loadOlder). It also builds the active question's form and
// draws the newest transcript entries, so the UI goroutine only installs
// them.
func loadChat(svc *chat.Service, chatID string, p prep) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		snap := snapshotMsg{chatID: chatID, seq: p.seq, requests: map[string]chat.RequestView{}}
		if chatID == "" {
			id, typed, err := svc.OpeningChat(ctx)
			if err != nil {
				return snapshotMsg{err: err, errWhat: readingChats}
			}
			if id == "" {
				// No chat yet, or the text typed in a new chat is the
				// newest thing the user did: the screen opens there.
				// Only a "" chosen for that text says so: a chat made
				// since the choice (by another process) is no text of
				// the user's.
				latest, latestErr := svc.LatestChatID(ctx)
				snap.fresh = typed && latest != ""
				var runsErr, draftErr error
				snap.orphans, runsErr = svc.Orphaned(ctx)
				snap.composer, draftErr = svc.ComposerDraft(ctx, "")
				snap.aside = firstFailure(readFailure{readingDraft, draftErr},
					readFailure{readingOthers, latestErr}, readFailure{readingRuns, runsErr})
				return snap
			}
			snap.chatID = id
		}
		sc, err := svc.Screen(ctx, snap.chatID, transcriptPage)
		if err != nil {
			failed := snapshotMsg{chatID: snap.chatID, seq: p.seq, err: err, errWhat: readingChat}
			// The chat's own row often reads when its messages do not: its
			// title says which chat could not be read.
			if cv, err := svc.Chat(ctx, snap.chatID); err == nil {
				failed.chat = &cv
			}
			return failed
		}
		snap.chat, snap.messages, snap.pending, snap.run, snap.composer = &sc.Chat, sc.Messages, sc.Pending, sc.Run, sc.Composer
		for _, r := range sc.Requests {
			snap.requests[r.ID] = r
		}
		// The drafts of the open questions come along, so the form is drawn
		// from the same read, without another round trip.
		snap.drafts = map[string]draftLoadedMsg{}
		for _, r := range snap.pending {
			d, ok, err := svc.LoadDraft(ctx, r.ID, r.Revision)
			if err == nil {
				snap.drafts[liveKey(r)] = draftLoadedMsg{requestID: r.ID, revision: r.Revision, draft: d.Values, found: ok, saved: d.Saved, focus: d.Focus}
			}
		}
		snap.steps = readSteps(ctx, svc, snap.messages)
		snap.approvals, _ = svc.PendingApprovals(ctx, snap.chatID)
		snap.built = buildActive(snap, p)
		if p.width > 0 {
			snap.entries = transcript.Draw(snap.messages, transcript.Data{Reqs: snap.requests, Steps: snap.steps}, p.width, p.height)
		}
		return snap
	}
}

// buildActive builds the form of the question the screen will show, from
// the snapshot's draft; nil when there is none or it is already shown.
func buildActive(snap snapshotMsg, p prep) *builtForm {
	if p.formWidth <= 0 {
		return nil
	}
	r, ok := pickActive(snap.pending, p.active, snap.drafts)
	if !ok || liveKey(r) == p.installed {
		return nil
	}
	d, ok := snap.drafts[liveKey(r)]
	if !ok {
		return nil
	}
	draft := draftFor(r, d.draft, d.found)
	return &builtForm{key: liveKey(r), draft: draft, width: p.formWidth, height: p.formHeight,
		live: buildLive(r, draft, d.focus, p.formWidth, p.formHeight)}
}

// pickActive is the question the form pane shows: the one shown before
// while it is still open, else the one the user did something with last —
// the newest asked, or one whose draft was saved since (a screen opened
// again after a quit or a crash comes back to the form being typed in).
func pickActive(pending []chat.RequestView, current string, drafts map[string]draftLoadedMsg) (chat.RequestView, bool) {
	var pick chat.RequestView
	var last time.Time
	for _, r := range pending {
		if r.ID == current {
			return r, true
		}
		at := r.CreatedAt
		if d := drafts[liveKey(r)]; d.saved.After(at) {
			at = d.saved
		}
		if !at.Before(last) {
			pick, last = r, at
		}
	}
	return pick, len(pending) > 0
}

// draftFor is what a question's form starts from: its saved draft, else a
// partial answer already sent.
func draftFor(r chat.RequestView, saved forms.Values, found bool) forms.Values {
	if len(r.Partial) == 0 {
		return saved
	}
	// Every value the stored request has is shown: the user's own draft
	// where they edited it, the partial answer elsewhere (docs/behaviour.md) — a
	// field passed by or a suggestion confirmed is no edit (confirmed.go).
	out := mergeValues(saved)
	for name, v := range r.Partial {
		if d, ok := saved[name]; ok && chat.EditedHere(d, r.Prefill[name], nil, false) {
			continue
		}
		out[name] = v
	}
	return out
}

// buildLive builds a question's form at a size; a form taller than
// maxHeight scrolls inside it, a shorter one keeps its own height (a fixed
// height would pad it).
func buildLive(r chat.RequestView, draft forms.Values, focus string, width, maxHeight int) *forms.Live {
	l := forms.Build(shownDefinition(r), r.Supplied, r.Prefill, draft, forms.BuildOptions{Width: width, Editor: forms.EditorInstalled(), Focus: focus})
	l.SetMaxHeight(maxHeight)
	return l
}

// elsewhereMsg brings what the screen shows beside the open chat: the
// questions waiting in other chats and the runs no process drives.
type elsewhereMsg struct {
	chatID  string
	n       int
	others  []chat.RequestView // the questions waiting in other chats, oldest first
	orphans []chat.RunView
	err     error // reading the orphans failed: the last list stands
}

func (msg elsewhereMsg) apply(m *model) tea.Cmd {
	if msg.err == nil && !sameRuns(m.cur.orphans, msg.orphans) {
		m.cur.orphans = msg.orphans
		m.tr.Changed() // a tool row of an interrupted run says so
		m.refreshTranscript()
	}
	if msg.chatID == m.cur.chatID {
		if m.newElsewhere(msg) {
			// A question that arrives elsewhere ends the notice's
			// moment: the inbox takes the line.
			m.setStatus("", false)
		}
		m.cur.elsewhere, m.cur.others = msg.n, msg.others
	}
	return nil
}

// othersShown bounds the questions of other chats the screen reads for a
// tab row width cells wide: no tab is narrower than minOtherTab (its
// arrow, who asks, a title and its padding), so more never fit; the
// newest is read besides, for ctrl+p. Reading them was most of a chat
// switch's look elsewhere.
func othersShown(width int) int { return min(32, max(4, width/minOtherTab+1)) }

// minOtherTab is the narrowest tab of a question elsewhere, in cells.
const minOtherTab = 12

// countElsewhere runs after a snapshot, off the first frame's path, for a
// screen width cells wide.
func countElsewhere(svc *chat.Service, chatID string, width int) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		n, _ := svc.PendingElsewhere(ctx, chatID)
		var others []chat.RequestView
		if n > 0 { // usually none: the count alone is one indexed read
			// Only what the tab row can show, and the newest for ctrl+p:
			// a read bounded whatever waits elsewhere.
			items, _ := svc.PendingOutside(ctx, chatID, othersShown(width))
			for _, it := range items {
				others = append(others, chat.RequestView{RequestItem: it})
			}
		}
		orphans, err := svc.Orphaned(ctx)
		return elsewhereMsg{chatID, n, others, orphans, err}
	}
}
