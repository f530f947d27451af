package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"followup/forms"
)

// TestComposerDraftPerChat: the composer's unsent text is kept per chat
// (and for the chat not created yet), comes back with the chat's screen
// after a restart, is deleted by an empty save and by sending it, and
// survives sending something else.
func TestComposerDraftPerChat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	a, _ := fxDeploy(t, s)
	b, _ := fxDeploy(t, s)
	for chatID, text := range map[string]string{a.ChatID: "half a thought", b.ChatID: "another one", "": "a new chat"} {
		if err := s.SaveComposerDraft(ctx, chatID, text); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveComposerDraft(ctx, a.ChatID, "half a thought, more"); err != nil {
		t.Fatal(err)
	}

	again, err := Open(ctx, Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	sc, err := again.Screen(ctx, a.ChatID, 50)
	if err != nil || sc.Composer != "half a thought, more" {
		t.Fatalf("screen of a: %q, %v", sc.Composer, err)
	}
	if d, _ := again.ComposerDraft(ctx, ""); d != "a new chat" {
		t.Fatalf("the new chat's draft: %q", d)
	}

	// Sending other text keeps the draft; sending the draft deletes it.
	if _, err := s.Send(ctx, b.ChatID, "something else", ""); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.ComposerDraft(ctx, b.ChatID); d != "another one" {
		t.Fatalf("after sending other text: %q", d)
	}
	if _, err := s.Send(ctx, b.ChatID, "  another one\n", ""); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.ComposerDraft(ctx, b.ChatID); d != "" {
		t.Fatalf("after sending it: %q", d)
	}
	if _, err := s.Send(ctx, "", "a new chat", ""); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.ComposerDraft(ctx, ""); d != "" {
		t.Fatalf("the new chat's draft after starting it: %q", d)
	}
	if err := s.SaveComposerDraft(ctx, a.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if sc, _ := s.Screen(ctx, a.ChatID, 50); sc.Composer != "" {
		t.Fatalf("after an empty save: %q", sc.Composer)
	}

	// Bad input is refused and changes nothing.
	if err := s.SaveComposerDraft(ctx, "ch_missing", "x"); CodeOf(err) != CodeNotFound {
		t.Fatalf("a missing chat: %v", err)
	}
	if err := s.SaveComposerDraft(ctx, a.ChatID, strings.Repeat("x", MaxMessage+1)); CodeOf(err) != CodeLimitExceeded {
		t.Fatalf("too long: %v", err)
	}
	if err := s.SaveComposerDraft(ctx, a.ChatID, "\xff"); CodeOf(err) != CodeInvalidArgument {
		t.Fatalf("not UTF-8: %v", err)
	}
	if err := s.Delete(ctx, b.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveComposerDraft(ctx, a.ChatID, "kept"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, a.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM composer_drafts`); n != 0 {
		t.Fatalf("%d composer drafts outlive their chats", n)
	}
}

// TestOpeningChat: the screen opens on the newest chat, unless text typed
// in a new chat was saved after it last changed — then on that new chat;
// the newest chat's activity after the text wins again, and so does the
// text once sent. A form or composer text of an older chat saved after the
// newest chat changed opens that older chat: where the user was typing.
func TestOpeningChat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFxClock()
	s := fxOpen(t, clock)
	typedIn := false // whether a "" is the text typed in a new chat
	opens := func(want string) {
		t.Helper()
		got, typed, err := s.OpeningChat(ctx)
		if err != nil || got != want || typed != (want == "" && typedIn) {
			t.Fatalf("opens on %q (typed %v, %v), want %q", got, typed, err, want)
		}
	}
	opens("")
	a, _ := fxDeploy(t, s)
	opens(a.ChatID)
	clock.Advance(time.Second)
	if err := s.SaveComposerDraft(ctx, "", "unsent words here"); err != nil {
		t.Fatal(err)
	}
	typedIn = true
	opens("")
	clock.Advance(time.Second)
	if _, err := s.Send(ctx, a.ChatID, "and the database too", ""); err != nil {
		t.Fatal(err)
	}
	opens(a.ChatID)
	clock.Advance(time.Second)
	if err := s.SaveComposerDraft(ctx, "", "unsent words, more"); err != nil {
		t.Fatal(err)
	}
	opens("")
	b, err := s.Send(ctx, "", "unsent words, more", "")
	if err != nil {
		t.Fatal(err)
	}
	opens(b.ChatID)
	clock.Advance(time.Second)
	r := fxOnePending(t, s, a.ChatID)
	if err := s.SaveDraft(ctx, Draft{RequestID: r.ID, Revision: r.Revision, Values: forms.Values{"environment": "staging"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	opens(a.ChatID)
	clock.Advance(time.Second)
	if _, err := s.Send(ctx, b.ChatID, "more words", ""); err != nil {
		t.Fatal(err)
	}
	opens(b.ChatID)
	clock.Advance(time.Second)
	if err := s.SaveComposerDraft(ctx, a.ChatID, "half a thought"); err != nil {
		t.Fatal(err)
	}
	opens(a.ChatID)
}
