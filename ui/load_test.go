package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/transcript"
)

// A chat load builds the shown question's form and draws the transcript
// off the UI goroutine; the screen installs them as they are, and the
// result is the screen a load without preparation gives.
func TestLoadPreparesTheFrame(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc := k.m, k.svc
	k.ask("Check deployment")

	snap := loadChat(svc, "", m.prep())().(snapshotMsg)
	if snap.err != nil {
		t.Fatal(snap.err)
	}
	if snap.built == nil || snap.built.live == nil {
		t.Fatal("the load built no form")
	}
	if len(snap.entries) == 0 || len(snap.entries) > len(snap.messages) {
		t.Fatalf("%d entries drawn for %d messages", len(snap.entries), len(snap.messages))
	}
	m.Update(snap)
	if m.pane.live != snap.built.live {
		t.Fatal("the screen built the form again instead of installing the load's")
	}
	for id, e := range snap.entries {
		if m.tr.Cached()[id] != e {
			t.Fatalf("message %d: the transcript drew the entry again", id)
		}
	}
	got := m.View()

	// The same chat loaded with no preparation draws the same screen.
	plain := newModel(svc)
	plain.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	plain.Update(loadChat(svc, "", prep{})())
	if plain.pane.live == nil {
		t.Fatal("no form without preparation")
	}
	if want := plain.View(); got != want {
		t.Fatalf("prepared frame differs:\n%s\n--- want ---\n%s", got, want)
	}

	// A reload with the form on screen builds nothing and draws nothing.
	again := loadChat(svc, m.cur.chatID, prep{active: m.pane.active, installed: m.pane.liveKey, formWidth: m.pane.width, formHeight: m.pane.maxHeight})().(snapshotMsg)
	if again.built != nil || again.entries != nil {
		t.Fatal("a reload prepared what the screen already shows")
	}
}

// A form the load built is dropped when what it was built from changed
// before it arrived: another size, or a draft saved meanwhile.
func TestPreparedFormIsDroppedWhenStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change func(m *model, r string, rev int)
	}{
		{"resized", func(m *model, _ string, _ int) { m.Update(tea.WindowSizeMsg{Width: m.width - 7, Height: m.height}) }},
		{"draft saved", func(m *model, id string, rev int) {
			if err := m.svc.SaveDraft(ctx, chat.Draft{RequestID: id, Revision: rev, Values: forms.Values{"environment": "staging"}, Edited: true}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newKit(t)
			m, svc := k.m, k.svc
			k.ask("Check deployment")
			snap := loadChat(svc, "", m.prep())().(snapshotMsg)
			if snap.built == nil {
				t.Fatal("the load built no form")
			}
			r := snap.pending[len(snap.pending)-1]
			tc.change(m, r.ID, r.Revision)
			if tc.name == "draft saved" {
				// the snapshot's own draft read happened before the save:
				// take the saved draft as a later read would.
				d, ok, _ := svc.LoadDraft(ctx, r.ID, r.Revision)
				snap.drafts[liveKey(r)] = draftLoadedMsg{requestID: r.ID, revision: r.Revision, draft: d.Values, found: ok}
			}
			m.Update(snap)
			if m.pane.live == nil || m.pane.live == snap.built.live {
				t.Fatal("a stale prepared form was installed")
			}
			if tc.name == "draft saved" && !strings.Contains(valuesKey(m.pane.live.Draft()), "staging") {
				t.Fatalf("the form does not show the saved draft: %s", valuesKey(m.pane.live.Draft()))
			}
		})
	}
}

// A long transcript is drawn newest first: the first frame draws what
// fills the screen, the older entries are drawn off the UI goroutine and
// then shown without moving the lines in view.
func TestTranscriptDrawsTheRestLater(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	m.cur.chatID = "ch_1"
	var msgs []chat.Message
	for i := 1; i <= 200; i++ {
		role := []string{"user", "assistant"}[i%2]
		msgs = append(msgs, chat.Message{ID: int64(i), Role: role, Content: fmt.Sprintf("message %d with **bold** and `code`", i)})
	}
	m.cur.messages = msgs
	m.tr.Changed()
	m.refreshTranscript()
	if m.tr.Undrawn() == 0 || m.tr.Undrawn() >= len(msgs) {
		t.Fatalf("undrawn = %d of %d: the first render should draw only the newest", m.tr.Undrawn(), len(msgs))
	}
	if strings.Contains(m.transcriptContent(), "message 1 ") || !strings.Contains(m.transcriptContent(), "message 200 ") {
		t.Fatal("the first render did not draw just the newest messages")
	}
	if m.tr.DrawRest(m.trIn()) != nil {
		t.Fatal("the older entries are drawn while the screen shows only the newest")
	}
	// The user scrolls up a little: the older entries are drawn, and
	// arrive after.
	m.tr.SetFollow(false)
	m.tr.Viewport().SetYOffset(m.tr.Viewport().YOffset - 3)
	rest := m.tr.DrawRest(m.trIn())
	if rest == nil {
		t.Fatal("nothing scheduled to draw the older entries")
	}
	if m.tr.DrawRest(m.trIn()) != nil {
		t.Fatal("the older entries were scheduled twice")
	}
	before := m.tr.Viewport().View()
	m.Update(rest())
	if m.tr.Undrawn() != 0 {
		t.Fatalf("%d entries still undrawn", m.tr.Undrawn())
	}
	if want := transcript.New().Content(transcript.Input{Messages: msgs, Data: m.entryData(), Width: m.width}); m.transcriptContent() != want {
		t.Fatal("the full transcript differs from drawing it all at once")
	}
	if got := m.tr.Viewport().View(); got != before {
		t.Fatalf("the lines in view moved:\n%s\n--- before ---\n%s", got, before)
	}
	// Back at the newest line, what is far above it is forgotten again:
	// the transcript keeps drawn only what is near the screen.
	m.tr.SetFollow(true)
	m.refreshTranscript()
	if len(m.tr.Cached()) == 0 || len(m.tr.Cached()) > m.height || m.tr.Undrawn() == 0 {
		t.Fatalf("following, %d of %d entries kept drawn (undrawn %d)", len(m.tr.Cached()), len(msgs), m.tr.Undrawn())
	}
	if !strings.Contains(m.tr.Viewport().View(), "message 200 ") {
		t.Fatal("the newest message is not in view")
	}
}

// A request card far up the transcript that changes while the user reads
// older lines is redrawn in place: the lines in view do not move.
func TestCardChangeKeepsTheLinesInView(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	var msgs []chat.Message
	for i := 1; i <= 200; i++ {
		msgs = append(msgs, chat.Message{ID: int64(i), Role: "assistant", Content: fmt.Sprintf("message %d", i)})
	}
	msgs[149] = chat.Message{ID: 150, Role: "request", RequestID: "rq_1"}
	card := chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_1", Title: "Pick a region", State: "pending"}}
	snap := func(state chat.RequestState) snapshotMsg {
		r := card
		r.State = state
		return snapshotMsg{chatID: "ch_1", chat: &chat.ChatView{ID: "ch_1", State: "active"}, messages: msgs,
			requests: map[string]chat.RequestView{"rq_1": r}}
	}
	m.Update(snap("pending"))
	drawAll(m)
	m.tr.SetFollow(false)
	m.tr.Viewport().SetYOffset(100)
	before := m.tr.Viewport().View()
	if !strings.Contains(before, "message 3") {
		t.Fatalf("not scrolled up: %s", before)
	}
	m.Update(snap("expired"))
	drawAll(m)
	if got := m.tr.Viewport().View(); got != before {
		t.Fatalf("the lines in view moved:\n%s\n--- before ---\n%s", got, before)
	}
	if !strings.Contains(m.transcriptContent(), "expired") {
		t.Fatal("the changed card was not redrawn")
	}
}

// Switching to another chat prepares its frame too, and a reload draws
// the newest entries (a new message among them) off the UI goroutine.
func TestChatSwitchAndReloadArePrepared(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k := newKit(t)
	m, svc := k.m, k.svc
	first := k.ask("Check deployment")
	second := k.ask("Plan a trip")
	m.Update(m.load(second.ChatID)())
	if _, err := svc.Send(ctx, second.ChatID, "and add a museum day", ""); err != nil {
		t.Fatal(err)
	}
	reload := m.load(second.ChatID)().(snapshotMsg)
	newest := reload.messages[len(reload.messages)-1]
	if _, ok := reload.entries[newest.ID]; !ok || !strings.Contains(fmt.Sprint(reload.entries[newest.ID]), "museum") {
		t.Fatal("a reload did not draw the new message")
	}
	if reload.built != nil {
		t.Fatal("a reload built the form on screen again")
	}
	s := m.load(first.ChatID)().(snapshotMsg)
	if len(s.entries) == 0 || s.built == nil {
		t.Fatal("switching chats prepared nothing")
	}
}

// drawAll scrolls up and runs the drawRest commands Update schedules
// until the whole transcript is drawn.
func drawAll(m *model) {
	m.tr.SetFollow(false)
	for n := m.tr.Undrawn(); n > 0; n = m.tr.Undrawn() {
		m.Update(transcript.EntriesMsg{ChatID: m.cur.chatID, Entries: transcript.Draw(m.cur.messages[:n], m.entryData(), m.width, 0)})
	}
}

// Loads run side by side: one that began earlier but finishes later does
// not put older state back on screen.
func TestOlderLoadDoesNotOverwriteNewer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k := newKit(t)
	m, svc := k.m, k.svc
	sent := k.ask("Check deployment")
	m.Update(m.load(sent.ChatID)())
	older := m.load(sent.ChatID)() // read while the question waits
	r := m.pane.pending[0]
	if _, err := svc.Answer(ctx, chat.AnswerInput{RequestID: r.ID, Digest: r.Digest, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	svc.Drive(ctx, sent.RunID)
	newer := m.load(sent.ChatID)()
	m.Update(newer)
	m.Update(older)
	if m.cur.run == nil || m.cur.run.State != "succeeded" || len(m.pane.pending) != 0 {
		t.Fatalf("the older snapshot came back: run %+v, %d pending", m.cur.run, len(m.pane.pending))
	}
}

// The transcript's frame is kept between keystrokes and drawn again as
// soon as what it shows changes: a new message, a scroll, a resize (draw
// is what View calls once per model change).
func TestTranscriptFrameFollowsItsContent(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	m.cur.chatID = "ch_1"
	var msgs []chat.Message
	for i := 1; i <= 40; i++ {
		msgs = append(msgs, chat.Message{ID: int64(i), Role: "user", Content: fmt.Sprintf("line %d", i)})
	}
	m.cur.messages, m.cur.loaded = msgs, true
	m.tr.Changed()
	m.refreshTranscript()
	first := frameOf(m)
	if !strings.Contains(first, "line 40") {
		t.Fatalf("newest message not drawn:\n%s", first)
	}
	m.cur.messages = append(m.cur.messages, chat.Message{ID: 41, Role: "user", Content: "line 41"})
	m.tr.Changed()
	m.refreshTranscript()
	if v := frameOf(m); !strings.Contains(v, "line 41") {
		t.Fatalf("a new message did not reach the frame:\n%s", v)
	}
	m.tr.SetFollow(false)
	before := frameOf(m)
	m.tr.Viewport().SetYOffset(m.tr.Viewport().YOffset - 3)
	after := frameOf(m)
	if after == before || strings.Split(after, "\n")[0] != strings.Split(m.tr.Viewport().View(), "\n")[0] {
		t.Fatalf("scrolling up did not reach the frame:\n%s", after)
	}
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if v := m.View(); strings.Contains(v, strings.Repeat(" ", 70)) {
		t.Fatalf("the frame kept the old width:\n%s", v)
	}
}

// A screen opened again (after a quit or a crash) on a chat with several
// open questions shows the one whose form the user typed in last, even
// when another was asked after it; with no draft saved since, the newest.
func TestReopenedScreenShowsTheFormTypedInLast(t *testing.T) {
	t.Parallel()
	for _, typedInFirst := range []bool{true, false} {
		k := newKit(t, withClock) // each time read is a millisecond later: the save comes after the second question
		ctx := context.Background()
		sent := k.ask("Check deployment")
		k.load("")
		first := k.m.pane.active
		second := `{"requestKey":"second","source":{"kind":"dynamic","definition":{"title":"Pick a region",
			"fields":[{"name":"region","type":"select","options":["eu","us"]}]}}}`
		opened, err := k.svc.OpenRequest(ctx, sent.RunID, "call_x", json.RawMessage(second))
		if err != nil {
			t.Fatal(err)
		}
		if typedInFirst {
			if err := k.svc.SaveDraft(ctx, chat.Draft{RequestID: first, Revision: 1, Values: forms.Values{"environment": "staging"}, Edited: true}); err != nil {
				t.Fatal(err)
			}
		}
		again := newModel(k.svc)
		again.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		again.Update(loadChat(k.svc, "", again.prep())())
		want := opened.RequestID
		if typedInFirst {
			want = first
		}
		if again.pane.active != want {
			t.Errorf("typed in the first: %v; the screen shows %s, want %s", typedInFirst, again.pane.active, want)
		}
	}
}
