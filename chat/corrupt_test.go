package chat_test

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
)

// A database file damaged past its first pages is named DATABASE_CORRUPT,
// with what to do to that very file, never INTERNAL with SQLite's bare
// words — a single read outside a transaction (Transcript) included.
func TestADamagedDatabaseIsNamed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f.db")
	s, err := chat.Open(ctx, chat.Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	var chatID string
	for i := range 200 {
		sent, err := s.Send(ctx, chatID, strings.Repeat("a long message ", 200), "")
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			chatID = sent.ChatID
		}
	}
	s.Close()
	// The second half of the file, where the messages went, is noise.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, st.Size()/2)
	rand.Read(noise)
	if _, err := f.WriteAt(noise, st.Size()-int64(len(noise))); err != nil {
		t.Fatal(err)
	}
	f.Close()

	s, err = chat.Open(ctx, chat.Options{DBPath: path})
	if err != nil {
		t.Fatalf("the first pages are intact, yet: %v", err)
	}
	defer s.Close()
	_, _, readErr := s.TranscriptPage(ctx, chatID, 0, 1000)
	_, writeErr := s.Send(ctx, chatID, "Check deployment", "")
	for what, err := range map[string]error{"read": readErr, "write": writeErr} {
		e := chat.AsError(err)
		if e.Code != chat.CodeDatabaseCorrupt || !strings.Contains(e.Message, "is damaged") ||
			!strings.Contains(e.Message, "changed nothing") || !strings.Contains(e.Message, ".recover") || !strings.Contains(e.Message, "cp "+path+" ") {
			t.Errorf("%s: %v", what, err)
		}
	}
}
