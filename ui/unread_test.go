package ui

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
)

// damagedChat is a database whose one chat's messages lie in pages
// turned to noise: the chat list reads, the chat does not.
func damagedChat(t *testing.T) *chat.Service {
	s, _, _ := damagedBeside(t, nil)
	return s
}

// damagedBeside is a database holding the chat intact makes (when not
// nil) and, after it, a chat whose messages lie in pages turned to noise
// (then runs before the damage); it returns the two chats' ids.
func damagedBeside(t *testing.T, intact func(*chat.Service) string, then ...func(s *chat.Service, damagedID string)) (s *chat.Service, intactID, damagedID string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ui.db")
	s, err := chat.Open(ctx, chat.Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	if intact != nil {
		intactID = intact(s)
	}
	for range 200 {
		sent, err := s.Send(ctx, damagedID, strings.Repeat(filler, 600), "")
		if err != nil {
			t.Fatal(err)
		}
		damagedID = sent.ChatID
	}
	for _, f := range then {
		f(s, damagedID)
	}
	s.Close()
	turnToNoise(t, path, []byte(filler))
	s, err = chat.Open(ctx, chat.Options{DBPath: path})
	if err != nil {
		t.Fatalf("the first pages are intact, yet: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, intactID, damagedID
}

// filler is what the damaged chat's messages are made of.
const filler = "a long message "

// turnToNoise overwrites every page of the file at path that holds
// nothing but filler: the overflow pages of the damaged chat's messages
// (each message spans several, so a damaged link is found), so what lies
// beside them (another chat, the tables' inner pages) still reads.
func turnToNoise(t *testing.T, path string, filler []byte) {
	t.Helper()
	const page = 4096
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for at := page; at+page <= len(b); at += page {
		p := b[at : at+page]
		if bytes.Count(p, filler)*len(filler) > page*9/10 {
			rand.Read(p)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no page holds only the damaged chat's messages")
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The screen's first read failing on a damaged database is said where
// the chat would be — in words, the code after them — and stays said
// after a key; what the user types stays in the composer, on screen.
func TestAFailedFirstReadSaysWhy(t *testing.T) {
	t.Parallel()
	svc := damagedChat(t)
	m := newModel(svc)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(loadChat(svc, "", prep{})())
	v := frameOf(m)
	if !containsAll(v, "Could not read the chat: the database file", "is damaged", "DATABASE_CORRUPT") ||
		strings.Contains(v, "Type a message to start") {
		t.Fatalf("the failed read is not said:\n%s", v)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("keep me")})
	v = frameOf(m)
	if !containsAll(v, "Could not read the chat:", "DATABASE_CORRUPT", "› keep me") || m.composer.Value() != "keep me" {
		t.Fatalf("after a key, the reason or the text typed is gone:\n%s", v)
	}
	saved := false
	for _, msg := range cmdtest.Run(m.saveComposer()) {
		_, saved = msg.(composerSavedMsg)
	}
	if !saved {
		t.Fatal("the text typed is not kept as the new chat's draft")
	}
}

// A read beside the new chat that failed (the other chats, the text typed
// in it) is said there too, and a read that succeeds later clears it.
func TestAFailedReadBesideTheNewChatIsSaid(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	damaged := &chat.Error{Code: chat.CodeDatabaseCorrupt, Message: "the database file is damaged"}
	m.Update(snapshotMsg{requests: map[string]chat.RequestView{}, aside: &readFailure{readingOthers, damaged}})
	if v := frameOf(m); !containsAll(v, "Could not read your other chats: the database file is damaged. DATABASE_CORRUPT") {
		t.Fatalf("the failed read beside the new chat is not said:\n%s", v)
	}
	k.load("")
	if v := frameOf(m); strings.Contains(v, "Could not read") || !strings.Contains(v, "Type a message to start") {
		t.Fatalf("a read that succeeded did not clear it:\n%s", v)
	}
}
