package ui

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/skills"
	"followup/chat"
	"followup/forms/cmdtest"
	"followup/store"
)

// A question past its deadline is closed before the chat showing it is
// drawn; one in another chat is closed right after the first frame.
func TestDueQuestionsCloseOnOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var now atomic.Int64
	now.Store(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli())
	clock := func() time.Time { return time.UnixMilli(now.Load()) }
	svc, err := chat.Open(ctx, chat.Options{DBPath: filepath.Join(t.TempDir(), "d.db"), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	due := func(text, key string) string {
		sent, err := svc.Send(ctx, "", text, "")
		if err != nil {
			t.Fatal(err)
		}
		decl, _ := json.Marshal(map[string]any{"requestKey": key, "expiresAt": clock().Add(time.Minute).Format(time.RFC3339),
			"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Soon " + key,
				"fields": []any{map[string]any{"name": "a", "type": "text"}}}}})
		res, err := svc.OpenRequest(ctx, sent.RunID, "call_"+key, decl)
		if err != nil {
			t.Fatal(err)
		}
		return res.RequestID
	}
	other := due("first task", "other")
	now.Add(1000) // the newer chat is the one shown
	shown := due("second task", "shown")
	now.Add(2 * time.Minute.Milliseconds())

	m := newModel(svc)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	snap := loadChat(svc, "", m.nextLoad())().(snapshotMsg)
	if len(snap.pending) != 0 || snap.requests[shown].State != "expired" {
		t.Fatalf("the chat on screen shows its due question as %q (%d pending)", snap.requests[shown].State, len(snap.pending))
	}
	m.Update(snap)
	if m.pane.live != nil || !strings.Contains(m.View(), "expired") {
		t.Fatalf("a due question drawn as open:\n%s", m.View())
	}
	countElsewhere(svc, m.cur.chatID, m.width)()
	if v, err := svc.Request(ctx, other); err != nil || v.State != "expired" || v.ClosedReason != "deadline" {
		t.Fatalf("the other chat's due question is %s/%s, %v", v.State, v.ClosedReason, err)
	}
}

// Keys typed while the database opens reach the chat that then appears,
// in order, where its first frame says they go: to the form of a question
// waiting there, which has the focus from that frame; to the composer of
// a chat with none, so a message typed ahead goes to that chat, not to a
// new one. ctrl+c still quits at once.
func TestKeysBeforeTheDatabaseOpens(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	svc := k.svc
	trip := k.ask("Plan a trip")
	m := newScreen()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	first := m.nextLoad()
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Os")})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lo")})
	if !strings.Contains(m.View(), "opening") {
		t.Fatalf("no opening line:\n%s", m.View())
	}
	deliver(m, m.update(serviceMsg{svc, loadChat(svc, "", first)()}))
	if m.cur.chatID != trip.ChatID || m.focus != focusForm || m.composer.Value() != "" ||
		!strings.Contains(frameOf(m), "> Oslo") {
		t.Fatalf("chat %q, focus %v, composer %q: the keys did not reach the form on the first frame:\n%s",
			m.cur.chatID, m.focus, m.composer.Value(), frameOf(m))
	}

	// A chat with no question: the keys are a message to it.
	k2 := newKit(t)
	sent := k2.ask("Check deployment")
	pending, err := k2.svc.Pending(context.Background(), sent.ChatID)
	if err != nil || len(pending) != 1 {
		t.Fatalf("%d pending, %v", len(pending), err)
	}
	if _, err := k2.svc.Cancel(context.Background(), pending[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	m = newScreen()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	first = m.nextLoad()
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("stag")}, {Type: tea.KeyRunes, Runes: []rune("ing")}, {Type: tea.KeyEnter}} {
		m.Update(k)
	}
	_, cmd := m.Update(serviceMsg{k2.svc, loadChat(k2.svc, "", first)()})
	if m.cur.chatID != sent.ChatID || m.composer.Value() != "" {
		t.Fatalf("chat %q, composer %q: the typed message was not sent to the chat on screen", m.cur.chatID, m.composer.Value())
	}
	var got *sentMsg
	for _, msg := range cmdtest.Run(cmd) {
		if s, ok := msg.(sentMsg); ok {
			got = &s
		}
	}
	if got == nil || got.err != nil || got.sent.ChatID != sent.ChatID {
		t.Fatalf("sent = %+v, want the message in chat %s", got, sent.ChatID)
	}
	page, err := k2.svc.ChatList(context.Background(), "", 10)
	chats := page.Chats
	if err != nil || len(chats) != 1 {
		t.Fatalf("%d chats, %v: the typed message started a new chat", len(chats), err)
	}
	quit := newScreen()
	if _, cmd := quit.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("ctrl+c before the database opened did not quit")
	}
}

// A file that is not followup's database ends the screen with the reason.
func TestRunReportsADatabaseThatWillNotOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("shopping list\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), chat.Options{DBPath: path}, 0, 0, tea.WithInput(nil), tea.WithOutput(io.Discard))
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Fatalf("Run = %v, want the file's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the screen stayed open on a file it could not open")
	}
	if b, _ := os.ReadFile(path); string(b) != "shopping list\n" {
		t.Fatalf("the file changed: %q", b)
	}
}

// The screen registers its skills' forms as templates, after its first
// chat is read.
func TestRunRegistersSkillTemplates(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f.db")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, chat.Options{DBPath: path, Skills: skills.Discover()}, 0, 0, tea.WithInput(nil), tea.WithOutput(io.Discard))
	}()
	registered := func() bool {
		st, err := store.Open(context.Background(), path)
		if err != nil {
			return false
		}
		defer st.Close()
		ts, _ := store.Queries{}.Templates(context.Background(), st.Reader())
		return slices.ContainsFunc(ts, func(tp store.Template) bool { return tp.Name == "release-checklist:checklist" })
	}
	for deadline := time.Now().Add(10 * time.Second); !registered(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the skills' templates were not registered")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run = %v", err)
	}
}
