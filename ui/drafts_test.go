package ui

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// deliver runs cmd and gives the screen every message it brings, and
// those the messages' own commands bring, except ticks.
func deliver(m *model, cmd tea.Cmd) {
	for _, msg := range cmdtest.Run(cmd) {
		if _, quit := msg.(tea.QuitMsg); quit {
			continue
		}
		_, next := m.Update(msg)
		deliver(m, next)
	}
}

// composerDraft is the chat's stored composer text.
func composerDraft(t *testing.T, svc *chat.Service, chatID string) string {
	t.Helper()
	text, err := svc.ComposerDraft(context.Background(), chatID)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// typeInto types text as one burst of keys.
func typeInto(m *model, text string) tea.Cmd {
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)})
	return cmd
}

// The composer's unsent text is its chat's draft: saved after a pause,
// back on a new screen, kept per chat across switches, and emptied by
// sending it.
func TestComposerTextIsAChatDraft(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc, ctx := k.m, k.svc, context.Background()
	a, err := svc.Send(ctx, "", "hello", "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := svc.Send(ctx, "", "another chat", "")
	if err != nil {
		t.Fatal(err)
	}
	k.load(a.ChatID)
	typeInto(m, "half a mess")
	if got := composerDraft(t, svc, a.ChatID); got != "" {
		t.Fatalf("saved before the pause: %q", got)
	}
	deliver(m, m.update(composerSaveMsg{m.composer.Seq()})) // the pause is over
	if got := composerDraft(t, svc, a.ChatID); got != "half a mess" {
		t.Fatalf("after the pause the draft is %q", got)
	}

	again := newModel(svc)
	again.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	again.Update(loadChat(svc, a.ChatID, prep{})())
	if got := again.composer.Value(); got != "half a mess" {
		t.Fatalf("a new screen's composer holds %q", got)
	}

	// Leaving the chat saves at once; each chat has its own text.
	deliver(m, typeInto(m, "age"))
	deliver(m, m.do(dialog.OpenChat{ChatID: b.ChatID}))
	if got := composerDraft(t, svc, a.ChatID); got != "half a message" {
		t.Fatalf("left chat's draft %q", got)
	}
	if got := m.composer.Value(); got != "" {
		t.Fatalf("the other chat's composer holds %q", got)
	}
	typeInto(m, "for b")
	deliver(m, m.do(dialog.OpenChat{ChatID: a.ChatID}))
	if got := m.composer.Value(); got != "half a message" {
		t.Fatalf("back in the first chat the composer holds %q", got)
	}
	if got := composerDraft(t, svc, b.ChatID); got != "for b" {
		t.Fatalf("second chat's draft %q", got)
	}

	// Sent, the text is no draft any more.
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter}))
	if got := composerDraft(t, svc, a.ChatID); got != "" || m.composer.Value() != "" {
		t.Fatalf("after sending: draft %q, composer %q", got, m.composer.Value())
	}
}

// ctrl+c saves the composer's text before the program quits, without
// waiting for the pause; so does the flush Run makes after the program
// ended for any other reason, for the form's draft too.
func TestQuittingSavesEveryDraft(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc := k.m, k.svc
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	typeInto(m, "typed just now")
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlC}))
	if got := composerDraft(t, svc, sent.ChatID); got != "typed just now" {
		t.Fatalf("after ctrl+c the draft is %q", got)
	}

	typeInto(m, ", and more")
	m.setFocus(focusForm)
	r, _ := m.pane.activeRequest()
	m.pane.live.Edit("destination")
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Oslo")})
	m.flush(3 * time.Second)
	if got := composerDraft(t, svc, sent.ChatID); got != "typed just now, and more" {
		t.Fatalf("after the flush the composer draft is %q", got)
	}
	d, ok, err := svc.LoadDraft(context.Background(), r.ID, r.Revision)
	if err != nil || !ok || d.Values["destination"] != "Oslo" {
		t.Fatalf("after the flush the form draft is %v (%v, %v)", d.Values, ok, err)
	}
}

// A message the host refuses goes back to the composer, before what was
// typed since.
func TestRefusedMessageIsKept(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc, ctx := k.m, k.svc, context.Background()
	a, err := svc.Send(ctx, "", "hello", "")
	if err != nil {
		t.Fatal(err)
	}
	k.load(a.ChatID)
	if _, err := svc.Archive(ctx, a.ChatID, ""); err != nil { // the screen has not seen it yet
		t.Fatal(err)
	}
	typeInto(m, "please go on")
	cmd := m.onKey(tea.KeyMsg{Type: tea.KeyEnter})
	typeInto(m, "and this")
	deliver(m, cmd)
	if got := m.composer.Value(); got != "please go on\nand this" || !m.notice.IsErr() {
		t.Fatalf("composer %q, status %q", got, m.notice.Text())
	}
}

// The saver writes one draft's values in the order asked, never an older
// one after a newer, and wait returns once all are written.
func TestSaverWritesTheNewestValueLast(t *testing.T) {
	t.Parallel()
	s := newSaver()
	var mu sync.Mutex
	var written []string
	started, release := make(chan struct{}), make(chan struct{})
	write := func(v string, block bool) func(context.Context) error {
		return func(context.Context) error {
			if block {
				close(started)
				<-release
			}
			mu.Lock()
			written = append(written, v)
			mu.Unlock()
			return nil
		}
	}
	first := s.put("a", write("a1", true))
	<-started
	second := s.put("a", write("a2", false)) // waits behind a1
	other := s.put("b", write("b1", false))
	third := s.put("a", write("a3", false)) // replaces a2, not yet written
	close(release)
	for _, c := range []<-chan error{first, second, other, third} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if !s.wait(ctx) {
		t.Fatal("wait gave up")
	}
	mu.Lock()
	defer mu.Unlock()
	if got := len(written); got != 3 || written[0] != "a1" || written[1] != "a3" || written[2] != "b1" {
		t.Fatalf("written %v, want [a1 a3 b1]", written)
	}
}

// A form opened on a draft written elsewhere with its numbers as JSON
// numbers (a proposal accepted from the CLI) and left without a key
// typed writes nothing: reading 2 back as "2" is no edit.
func TestAFormOpenedAndLeftWritesNothing(t *testing.T) {
	t.Parallel()
	k := newKit(t, withClock) // any write would be saved a millisecond later at least
	ctx := context.Background()
	k.ask("Plan a trip")
	k.load("")
	r, ok := k.m.pane.activeRequest()
	if !ok {
		t.Fatal("no question on screen")
	}
	if err := k.svc.SaveDraft(ctx, chat.Draft{RequestID: r.ID, Revision: r.Revision,
		Values: map[string]any{"destination": "Lisbon", "travelers": float64(2)}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	before, _, _ := k.svc.LoadDraft(ctx, r.ID, r.Revision)
	again := newModel(k.svc)
	again.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := again.Update(loadChat(k.svc, "", again.prep())())
	deliver(again, cmd)
	deliver(again, again.pane.saveNow())
	after, _, _ := k.svc.LoadDraft(ctx, r.ID, r.Revision)
	if !after.Saved.Equal(before.Saved) || !after.Edited {
		t.Fatalf("opening and leaving the form wrote its draft: %+v, was %+v", after, before)
	}
}
